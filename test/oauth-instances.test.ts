// OAuth across instances (CONTRACT.md §15, §12): two servers on one store share everything the
// authorization server keeps (its keys, sign-ins in progress, grants, tokens), and a revocation,
// an app's deletion, a grant's removal or a person's deletion on one stops the tokens on the other
// within a second — on SQLite (one file) and on PostgreSQL with Redis.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { untilStatus, type Client } from './helpers/client.js';
import { startSecondInstance, type SecondInstance } from './helpers/instance.js';
import { authorize, authorizeUrl, basic, clientCredentials, Jar, pkce, postForm, registerApp, tokensFor, type TestApp } from './helpers/oauth.js';
import { addUser } from './helpers/people.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { WsClient } from './helpers/ws.js';


const setups = testStores().map((store) => ({
  store,
  name: store === 'sqlite' ? 'sqlite, one file' : `postgres${process.env.TEST_REDIS_URL ? ' + Redis' : ''}`,
  env: store === 'postgres' && process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_KEY_PREFIX: `cms-oauth-${process.pid}:` } : ({} as Record<string, string>),
}));

for (const setup of setups) {
  describe(`OAuth across instances (${setup.name})`, () => {
    let a: TestServer;
    let b: SecondInstance;
    let maker: TestAccount;
    let app: TestApp;
    before(async () => {
      a = await startServer(setup.store, { env: setup.env });
      b = await startSecondInstance(a, { env: setup.env });
      maker = await a.account();
      app = await registerApp(a, maker.key);
    });
    after(async () => {
      await b.close();
      await a.close();
    });

    const content = (client: Client, key: string) => client.get('/v1/content', { key });
    /** A person's tokens from A, already used (and so cached) on B. */
    async function warmOnB(person: { email: string; password: string }, scope = 'content:read events:read') {
      const tokens = await tokensFor(a, new Jar(a.client), person, app, scope);
      assert.equal((await content(b.client, tokens.access_token)).status, 200);
      return tokens;
    }

    it('finishes on one instance a sign-in begun on the other, and refreshes there a token issued here', async () => {
      const person = await a.account();
      const { verifier, challenge } = pkce();
      const onA = new Jar(a.client);
      const begun = await onA.get(authorizeUrl(app, { scope: 'content:read', code_challenge: challenge, code_challenge_method: 'S256' }));
      assert.equal(begun.status, 303);
      // The rest on B: the same browser, B's pages; the resume URL names the issuer A.
      const onB = onA.on(b.client);
      const back = await authorize(onB, person, String(begun.headers.location));
      const resumed = back.origin === new URL(a.baseUrl).origin ? await onA.get(back.pathname + back.search) : undefined;
      const final = resumed ? new URL(String(resumed.headers.location)) : back;
      const code = final.searchParams.get('code');
      assert.ok(code, `no code: ${final}`);
      const issued = await postForm(b.client, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: app.redirect_uris[0]!, code_verifier: verifier }, { authorization: basic(app) });
      assert.equal(issued.status, 200, issued.text);
      const refreshed = await postForm(a.client, '/oauth/token', { grant_type: 'refresh_token', refresh_token: issued.body.refresh_token }, { authorization: basic(app) });
      assert.equal(refreshed.status, 200, refreshed.text);
      assert.equal((await content(b.client, refreshed.body.access_token)).status, 200);
      // The used refresh token, retried on B within the grace: the same answer (issue 21 P3-9; past the
      // grace the chain dies on both, test/security-oauth.test.ts).
      const replay = await postForm(b.client, '/oauth/token', { grant_type: 'refresh_token', refresh_token: issued.body.refresh_token }, { authorization: basic(app) });
      assert.equal(replay.status, 200, replay.text);
      assert.equal(replay.body.access_token, refreshed.body.access_token);
      assert.equal(replay.body.refresh_token, refreshed.body.refresh_token);
      assert.equal((await content(a.client, refreshed.body.access_token)).status, 200);
    });

    it('stops a token revoked on A within a second on B', async () => {
      const machine = (await clientCredentials(a, app, 'content:read')).body.access_token as string;
      assert.equal((await content(b.client, machine)).status, 200);
      assert.equal((await postForm(a.client, '/oauth/revoke', { token: machine }, { authorization: basic(app) })).status, 200);
      assert.equal((await content(a.client, machine)).status, 401, 'at once where it was revoked');
      const took = await untilStatus(() => content(b.client, machine), 401, 1500);
      assert.ok(took <= 1500, `took ${took} ms`);
    });

    it("stops every token of an app deleted on A within a second on B", async () => {
      const doomed = await registerApp(a, maker.key);
      const person = await a.account();
      const granted = await tokensFor(a, new Jar(a.client), person, doomed, 'content:read');
      const machine = (await clientCredentials(a, doomed)).body.access_token as string;
      for (const t of [granted.access_token, machine]) assert.equal((await content(b.client, t)).status, 200);
      assert.equal((await a.client.delete(`/v1/oauth/apps/${doomed.id}`, { key: maker.key })).status, 204);
      for (const t of [granted.access_token, machine]) await untilStatus(() => content(b.client, t), 401, 1500);
    });

    it('stops the tokens of a grant removed on A within a second on B', async () => {
      const person = await a.account();
      const tokens = await warmOnB(person);
      const [grant] = (await a.client.get('/v1/oauth/authorizations', { key: person.key })).body.data;
      assert.equal((await a.client.delete(`/v1/oauth/authorizations/${grant.id}`, { key: person.key })).status, 204);
      await untilStatus(() => content(b.client, tokens.access_token), 401, 1500);
    });

    it('stops the tokens of a person deleted on A within a second on B, and closes their sockets there (1008)', async () => {
      const account = await a.account();
      const editor = await addUser(a, account.key, 'editor', { password: 'editor password 123' });
      const tokens = await warmOnB({ email: editor.email, password: 'editor password 123' });
      const ws = await WsClient.open(b, tokens.access_token);
      try {
        await ws.subscribe('content.*');
        assert.equal((await a.client.delete(`/v1/users/${editor.id}`, { key: account.key })).status, 204);
        await untilStatus(() => content(b.client, tokens.access_token), 401, 1500);
        assert.equal((await ws.closed).code, 1008);
      } finally {
        ws.socket.terminate();
      }
    });

    it('answers discovery on both instances from the same server keys and settings', async () => {
      const [onA, onB] = await Promise.all([a.client.get('/.well-known/oauth-authorization-server'), b.client.get('/.well-known/oauth-authorization-server')]);
      assert.equal(onA.status, 200);
      assert.equal(onB.status, 200);
      const jwks = await Promise.all([a.client.get('/oauth/jwks'), b.client.get('/oauth/jwks')]);
      assert.deepEqual(jwks[0].body, jwks[1].body, 'one key set, made once, stored once');
      assert.equal(jwks[0].body.keys.length, 1);
      assert.equal(jwks[0].body.keys[0].d, undefined, 'only the public half is published');
    });
  });
}
