// What an outside probe of the OAuth server found (issue 21), each tried from outside on both stores
// and under TEST_WORKERS=2: narrowing an app's scopes narrows its live tokens and refreshes (P3-2);
// removing a redirect URI or the app ends its unredeemed codes (P3-5); redirect URIs are registered
// and compared in canonical form only (P3-7); a refresh retried within the grace gets the same pair,
// and reuse past it still revokes the chain (P3-9); every failed client authentication is 401
// invalid_client with WWW-Authenticate: Basic, and errors for response_type=token come in the fragment (P3-10).
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as oidc from 'openid-client';
import { after, before, describe, it } from 'node:test';
import { untilStatus, type Client, type Response } from './helpers/client.js';
import { fetchTrusting } from './helpers/https-fetch.js';
import { startSecondInstance, type SecondInstance } from './helpers/instance.js';
import { authorize, authorizeUrl, basic, Jar, pkce, postForm, registerApp, token, tokensFor, type TestApp } from './helpers/oauth.js';
import { manualClock } from './helpers/limits.js';
import { addUser } from './helpers/people.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const ITEM = { title: 'Written by an app', type: 'blog', content: 'Body.' };

const setups = testStores().map((store) => ({
  store,
  env: store === 'postgres' && process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_KEY_PREFIX: `cms-secoauth-${process.pid}:` } : ({} as Record<string, string>),
}));

for (const { store, env } of setups) {
  describe(`OAuth security, issue 21 (${store})`, () => {
    let server: TestServer;
    let second: SecondInstance;
    let maker: TestAccount;
    before(async () => {
      // Every sign-in here comes from 127.0.0.1: lift the per-address limit.
      server = await startServer(store, { env: { IP_RATE_LIMIT: '1000', ...env } });
      second = await startSecondInstance(server, { env: { IP_RATE_LIMIT: '1000', ...env } });
      maker = await server.account();
    });
    after(async () => {
      await second.close();
      await server.close();
    });

    const write = (client: Client, accessToken: string) => client.post('/v1/content', { key: accessToken, json: ITEM });
    const refresh = (app: TestApp, refreshToken: string, client = server.client) =>
      token({ ...server, client } as TestServer, app, { grant_type: 'refresh_token', refresh_token: refreshToken });
    const narrow = async (app: TestApp, scopes: string[]) => {
      const res = await server.client.put(`/v1/oauth/apps/${app.id}`, { key: maker.key, json: { scopes } });
      assert.equal(res.status, 200, res.text);
    };

    describe('P3-2: narrowing an app\'s scopes', () => {
      it('narrows its live tokens at once, and a refresh gives only what the app may still ask for', async () => {
        const app = await registerApp(server, maker.key);
        const person = await server.account();
        const tokens = await tokensFor(server, new Jar(server.client), person, app, 'content:read content:write');
        assert.equal((await write(server.client, tokens.access_token)).status, 201);

        await narrow(app, ['content:read', 'users:read']);
        const took = await untilStatus(() => write(server.client, tokens.access_token), 403, 1000);
        assert.ok(took <= 1000, `took ${took} ms`);
        assert.equal((await server.client.get('/v1/content', { key: tokens.access_token })).status, 200, 'what the app may still do, it does');

        const refreshed = await refresh(app, tokens.refresh_token);
        assert.equal(refreshed.status, 200, refreshed.text);
        assert.equal(refreshed.body.scope, 'content:read');
        assert.equal((await write(server.client, refreshed.body.access_token)).status, 403);
        // Asking for the removed scope by name does not bring it back.
        const asked = await refresh(app, refreshed.body.refresh_token);
        assert.equal(asked.status, 200, asked.text);
        const named = await token(server, app, { grant_type: 'refresh_token', refresh_token: asked.body.refresh_token, scope: 'content:read content:write' });
        assert.equal(named.status, 200, named.text);
        assert.equal(named.body.scope, 'content:read');
        assert.equal((await write(server.client, named.body.access_token)).status, 403);
      });

      it('narrows client-credentials tokens too', async () => {
        const app = await registerApp(server, maker.key);
        const machine = await token(server, app, { grant_type: 'client_credentials', scope: 'content:write content:read' });
        assert.equal(machine.status, 200, machine.text);
        assert.equal((await write(server.client, machine.body.access_token)).status, 201);
        await narrow(app, ['content:read']);
        await untilStatus(() => write(server.client, machine.body.access_token), 403, 1000);
      });

      it("narrows a refreshed token to the person's current role as well", async () => {
        const app = await registerApp(server, maker.key);
        const owner = await server.account();
        const admin = await addUser(server, owner.key, 'admin', { password: 'the admin password' });
        const tokens = await tokensFor(server, new Jar(server.client), { email: admin.email, password: 'the admin password' }, app, 'users:write content:write');
        assert.equal(tokens.scope, 'content:write users:write');
        assert.equal((await server.client.put(`/v1/users/${admin.id}`, { key: owner.key, json: { role: 'author' } })).status, 200);
        const refreshed = await refresh(app, tokens.refresh_token);
        assert.equal(refreshed.status, 200, refreshed.text);
        // The grant still names users:write (a promotion lets it count again, CONTRACT.md §15); the role refuses it at use.
        assert.equal((await server.client.post('/v1/users', { key: refreshed.body.access_token, json: { email: `x-${Date.now()}@example.com`, name: 'X', role: 'viewer' } })).status, 403);
        assert.equal((await write(server.client, refreshed.body.access_token)).status, 201);
      });

      it('narrows within a second on another instance of the store, tokens and refreshes alike', async () => {
        const app = await registerApp(server, maker.key);
        const person = await server.account();
        const tokens = await tokensFor(server, new Jar(server.client), person, app, 'content:read content:write');
        assert.equal((await write(second.client, tokens.access_token)).status, 201, 'used, and so cached, on the other instance');
        await narrow(app, ['content:read']);
        const took = await untilStatus(() => write(second.client, tokens.access_token), 403, 1500);
        assert.ok(took <= 1500, `took ${took} ms`);
        const refreshed = await refresh(app, tokens.refresh_token, second.client);
        assert.equal(refreshed.status, 200, refreshed.text);
        assert.equal(refreshed.body.scope, 'content:read');
      });
    });

    describe('P3-5: codes of a removed redirect URI or app', () => {
      /** A code for `person` at `redirectUri`, not yet exchanged. */
      async function codeFor(app: TestApp, person: TestAccount, redirectUri: string) {
        const { verifier, challenge } = pkce();
        const back = await authorize(new Jar(server.client), person, authorizeUrl(app, { redirect_uri: redirectUri, scope: 'content:read', code_challenge: challenge, code_challenge_method: 'S256' }));
        const code = back.searchParams.get('code');
        assert.ok(code, String(back));
        return { code, verifier, redirectUri };
      }
      const exchange = (app: TestApp, c: { code: string; verifier: string; redirectUri: string }, client = server.client) =>
        token({ ...server, client } as TestServer, app, { grant_type: 'authorization_code', code: c.code, redirect_uri: c.redirectUri, code_verifier: c.verifier });

      it('refuses a code whose redirect URI the owner removed (invalid_grant), on every instance, and keeps the others', async () => {
        const app = await registerApp(server, maker.key, { redirect_uris: ['https://app.example.com/kept', 'https://app.example.com/removed', 'http://127.0.0.1:9000/native'] });
        const person = await server.account();
        const removed = await codeFor(app, person, 'https://app.example.com/removed');
        const removedToo = await codeFor(app, person, 'https://app.example.com/removed');
        const loopback = await codeFor(app, person, 'http://127.0.0.1:9555/native');
        const kept = await codeFor(app, person, 'https://app.example.com/kept');
        const res = await server.client.put(`/v1/oauth/apps/${app.id}`, { key: maker.key, json: { redirect_uris: ['https://app.example.com/kept'] } });
        assert.equal(res.status, 200, res.text);
        for (const [c, client] of [[removed, server.client], [removedToo, second.client], [loopback, server.client]] as const) {
          const refused = await exchange(app, c, client);
          assert.equal(refused.status, 400, refused.text);
          assert.equal(refused.body.error, 'invalid_grant');
          assert.equal(refused.body.access_token, undefined);
        }
        const ok = await exchange(app, kept);
        assert.equal(ok.status, 200, ok.text);
      });

      it('refuses a code of a deleted app', async () => {
        const app = await registerApp(server, maker.key);
        const person = await server.account();
        const c = await codeFor(app, person, app.redirect_uris[0]!);
        assert.equal((await server.client.delete(`/v1/oauth/apps/${app.id}`, { key: maker.key })).status, 204);
        const refused = await exchange(app, c);
        assert.equal(refused.status, 401, refused.text);
        assert.equal(refused.body.error, 'invalid_client');
      });
    });

    describe('P3-7: redirect URIs in canonical form only', () => {
      const refusals: [string, string][] = [
        ['https:/app.example', 'invalid_format'], // a browser goes to https://app.example/
        ['https://*.example/cb', 'invalid_value'],
        ['https://app.example/*', 'invalid_value'],
        ['http://0x7f000001/cb', 'invalid_format'], // 127.0.0.1 spelled otherwise
        ['http://127.1:9876/cb', 'invalid_format'],
        ['http://[0:0:0:0:0:0:0:1]:9876/cb', 'invalid_format'],
        ['http://127.0.0.1:80/cb', 'invalid_format'],
        ['https://APP.example/cb', 'invalid_format'],
        ['https://app.example:443/cb', 'invalid_format'],
        ['https://app.example', 'invalid_format'],
        ['https://app.example/a b', 'invalid_format'],
      ];

      it('refuses on registration and on change every URI whose canonical form differs from what was sent, and wildcards (422)', async () => {
        const target = await registerApp(server, maker.key);
        // At most 10 URIs an app: in two halves.
        for (const half of [refusals.slice(0, 6), refusals.slice(6)]) {
          const uris = half.map(([uri]) => uri);
          for (const res of [
            await server.client.post('/v1/oauth/apps', { key: maker.key, json: { name: 'Tricks', redirect_uris: uris } }),
            await server.client.put(`/v1/oauth/apps/${target.id}`, { key: maker.key, json: { redirect_uris: uris } }),
          ]) {
            assert.equal(res.status, 422, res.text);
            assert.equal(res.body.code, 'validation_failed');
            assert.deepEqual(
              res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]),
              half.map(([, code], i) => [`redirect_uris[${i}]`, code]),
            );
            for (const error of res.body.errors) assert.equal(typeof error.message, 'string');
          }
        }
        const explained = await server.client.post('/v1/oauth/apps', { key: maker.key, json: { name: 'T', redirect_uris: ['http://127.1:9876/cb'] } });
        assert.match(explained.body.errors[0].message, /http:\/\/127\.0\.0\.1:9876\/cb/, 'names the form to send');
      });

      it('takes canonical URIs as sent, and sends the browser to exactly that string', async () => {
        const uris = ['https://app.example/cb?from=cms', 'http://127.0.0.1:9876/cb', 'http://[::1]:9876/cb', 'https://xn--bcher-kva.example/cb'];
        const app = await registerApp(server, maker.key, { redirect_uris: uris });
        assert.deepEqual(app.redirect_uris, uris);
        const person = await server.account();
        const { challenge } = pkce();
        const back = await authorize(new Jar(server.client), person, authorizeUrl(app, { redirect_uri: uris[0], code_challenge: challenge, code_challenge_method: 'S256' }));
        assert.equal(`${back.origin}${back.pathname}`, 'https://app.example/cb');
        assert.equal(back.searchParams.get('from'), 'cms');
      });

      it('lets a loopback URI change its port only when written canonically; otherwise an error page, never a redirect', async () => {
        const app = await registerApp(server, maker.key, { redirect_uris: ['http://127.0.0.1:8123/cb'] });
        const jar = new Jar(server.client);
        for (const redirectUri of ['http://127.0.0.1:08124/cb', 'http://127.0.0.1:80/cb', 'http://127.1:8124/cb']) {
          const res = await jar.get(authorizeUrl(app, { redirect_uri: redirectUri, code_challenge: pkce().challenge, code_challenge_method: 'S256' }));
          assert.equal(res.status, 400, `${redirectUri}: ${res.text.slice(0, 200)}`);
          assert.equal(res.headers.location, undefined);
        }
      });
    });

    describe('P3-9: a grace for a refresh retried at once', () => {
      // A clock of the test's own, shared by two instances of one store, to pass the 10 s grace.
      const time = manualClock(new Date().toISOString());
      let timed: TestServer;
      let other: SecondInstance;
      let owner: TestAccount;
      let app: TestApp;
      before(async () => {
        timed = await startServer(store, { env: { IP_RATE_LIMIT: '1000', ...env }, clock: time.clock });
        other = await startSecondInstance(timed, { env: { IP_RATE_LIMIT: '1000', ...env }, clock: time.clock });
        owner = await timed.account();
        app = await registerApp(timed, owner.key);
      });
      after(async () => {
        await other.close();
        await timed.close();
      });
      const refreshOn = (client: Client, refreshToken: string, as: TestApp = app) =>
        token({ ...timed, client } as TestServer, as, { grant_type: 'refresh_token', refresh_token: refreshToken });
      const read = (client: Client, accessToken: string) => client.get('/v1/content', { key: accessToken });
      const pair = (body: Record<string, unknown>) => ({ access_token: body.access_token, refresh_token: body.refresh_token, scope: body.scope, token_type: body.token_type });

      it('gives a retry of the same refresh the same new pair, here and on another instance, and keeps the chain', async () => {
        const tokens = await tokensFor(timed, new Jar(timed.client), owner, app, 'content:read');
        const first = await refreshOn(timed.client, tokens.refresh_token);
        assert.equal(first.status, 200, first.text);
        time.advance(9_000);
        for (const client of [timed.client, other.client]) {
          const again = await refreshOn(client, tokens.refresh_token);
          assert.equal(again.status, 200, again.text);
          assert.deepEqual(pair(again.body), pair(first.body));
          assert.equal(again.headers['cache-control'], 'no-store');
        }
        assert.equal((await read(other.client, first.body.access_token)).status, 200);
        const next = await refreshOn(timed.client, first.body.refresh_token);
        assert.equal(next.status, 200, 'the chain lives on');
        assert.notEqual(next.body.refresh_token, first.body.refresh_token);
      });

      it('answers five parallel refreshes of one token with one pair', async () => {
        const tokens = await tokensFor(timed, new Jar(timed.client), owner, app, 'content:read');
        const answers = await Promise.all([0, 1, 2, 3, 4].map((i) => refreshOn(i % 2 ? other.client : timed.client, tokens.refresh_token)));
        for (const res of answers) assert.equal(res.status, 200, res.text);
        for (const res of answers) assert.deepEqual(pair(res.body), pair(answers[0]!.body));
        assert.equal((await read(timed.client, answers[0]!.body.access_token)).status, 200);
        assert.equal((await refreshOn(timed.client, answers[0]!.body.refresh_token)).status, 200);
      });

      it('revokes the chain on reuse past the grace, on every instance', async () => {
        const tokens = await tokensFor(timed, new Jar(timed.client), owner, app, 'content:read');
        const first = await refreshOn(timed.client, tokens.refresh_token);
        assert.equal(first.status, 200, first.text);
        assert.equal((await read(other.client, first.body.access_token)).status, 200);
        time.advance(10_500);
        const late = await refreshOn(other.client, tokens.refresh_token);
        assert.equal(late.status, 400, late.text);
        assert.equal(late.body.error, 'invalid_grant');
        time.advance(1_100); // past the credential caches' second
        assert.equal((await read(timed.client, first.body.access_token)).status, 401);
        assert.equal((await read(other.client, first.body.access_token)).status, 401);
        assert.equal((await refreshOn(timed.client, first.body.refresh_token)).body.error, 'invalid_grant');
      });

      it('gives the grace to the same client only', async () => {
        const tokens = await tokensFor(timed, new Jar(timed.client), owner, app, 'content:read');
        const first = await refreshOn(timed.client, tokens.refresh_token);
        const stranger = await registerApp(timed, owner.key);
        const stolen = await refreshOn(timed.client, tokens.refresh_token, stranger);
        assert.equal(stolen.status, 400, stolen.text);
        assert.equal(stolen.body.error, 'invalid_grant');
        assert.equal(stolen.body.access_token, undefined);
        assert.equal((await read(timed.client, first.body.access_token)).status, 200);
      });
    });

    describe('P3-10: client authentication failures and implicit-flow errors', () => {
      const basicOf = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
      function assertInvalidClient(res: Response, what: string): void {
        assert.equal(res.status, 401, `${what}: ${res.text}`);
        assert.equal(res.body.error, 'invalid_client', what);
        assert.match(String(res.headers['www-authenticate']), /^Basic realm="[^"]+"/, what);
        assert.equal(res.body.access_token, undefined);
      }

      it('answers every failed client authentication 401 invalid_client with WWW-Authenticate: Basic, at the token, revocation and introspection endpoints', async () => {
        const app = await registerApp(server, maker.key);
        const publicApp = await registerApp(server, maker.key, { type: 'public' });
        const grant = { grant_type: 'client_credentials' };
        const attempts: [string, Record<string, string>, Record<string, string>][] = [
          ['an empty Basic secret', grant, { authorization: basicOf(app.id, '') }],
          ['a wrong Basic secret', grant, { authorization: basic(app, 'cms_cs_wrong') }],
          ['a malformed Basic header', grant, { authorization: 'Basic !!!not-base64' }],
          ['a Basic header without a colon', grant, { authorization: `Basic ${Buffer.from(app.id).toString('base64')}` }],
          ['a wrong client_secret_post', { ...grant, client_id: app.id, client_secret: 'cms_cs_wrong' }, {}],
          ['an empty client_secret_post', { ...grant, client_id: app.id, client_secret: '' }, {}],
          ['a confidential app without its secret', { ...grant, client_id: app.id }, {}],
          ['an unknown client', { ...grant, client_id: 'app_00000000000000000000000000', client_secret: 'x' }, {}],
          ['no client at all', grant, {}],
          ['a public app sending a secret', { ...grant, client_id: publicApp.id, client_secret: 'anything' }, {}],
        ];
        for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/introspect']) {
          for (const [what, form, headers] of attempts) {
            const extra: Record<string, string> = path === '/oauth/token' ? {} : { token: 'cms_oat_whatever' };
            assertInvalidClient(await postForm(server.client, path, { ...form, ...extra }, headers), `${path}, ${what}`);
          }
        }
        // Two methods at once is a malformed request (RFC 6749 §5.2: invalid_request).
        const both = await postForm(server.client, '/oauth/token', { ...grant, client_id: app.id, client_secret: app.client_secret! }, { authorization: basic(app) });
        assert.equal(both.status, 400, both.text);
        assert.equal(both.body.error, 'invalid_request');
        // And the right secret still works.
        assert.equal((await postForm(server.client, '/oauth/token', grant, { authorization: basic(app) })).status, 200);
      });

      it('is understood by openid-client as a Basic challenge', async () => {
        const app = await registerApp(server, maker.key);
        const trusted = fetchTrusting(await fs.readFile(path.join(server.dataDir, 'tls-cert.pem'), 'utf8'));
        const config = await oidc.discovery(new URL(server.baseUrl), app.id, undefined, oidc.ClientSecretPost('cms_cs_not_the_secret'), { algorithm: 'oauth2', [oidc.customFetch]: trusted });
        config[oidc.customFetch] = trusted;
        await assert.rejects(oidc.clientCredentialsGrant(config, { scope: 'content:read' }), (error: { status?: number; cause?: unknown }) => {
          assert.equal(error.status, 401);
          const challenges = error.cause as { scheme: string; parameters: Record<string, string> }[];
          assert.equal(challenges[0]!.scheme, 'basic');
          assert.equal(challenges[0]!.parameters.error, 'invalid_client');
          return true;
        });
      });

      it('sends errors for response_type=token back in the fragment, as docs/oauth.md says', async () => {
        const app = await registerApp(server, maker.key);
        const res = await server.client.get(authorizeUrl(app, { response_type: 'token', state: 'st8', code_challenge: pkce().challenge, code_challenge_method: 'S256' }));
        assert.ok(res.status === 303 || res.status === 302, res.text);
        const back = new URL(String(res.headers.location));
        assert.equal(`${back.origin}${back.pathname}`, app.redirect_uris[0]);
        assert.equal(back.search, '');
        const fragment = new URLSearchParams(back.hash.slice(1));
        assert.equal(fragment.get('error'), 'unsupported_response_type');
        assert.equal(fragment.get('state'), 'st8');
      });
    });
  });
}
