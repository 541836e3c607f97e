// The OAuth security properties of CONTRACT.md §15 and RFC 9700, each tried from outside: exact
// redirect URI matching (no prefix, no open redirect, the loopback port rule), code replay revoking
// what the code gave, PKCE required and bound, codes bound to their app and redirect URI, refresh
// reuse revoking the chain, client authentication failures, CSRF on the forms, pages that cannot be
// framed and load nothing from elsewhere, constant-time secret comparison, and secrets and tokens
// stored only as hashes (looked for in the database itself).
import assert from 'node:assert/strict';
import crypto, { createHash } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { after, before, describe, it, mock } from 'node:test';
import { sql } from 'kysely';
import type { Response } from './helpers/client.js';
import { authorize, authorizeUrl, basic, clientCredentials, hidden, Jar, pkce, postForm, registerApp, token, tokensFor, type TestApp } from './helpers/oauth.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { manualClock } from './helpers/limits.js';
import { testStores } from './helpers/stores.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function assertOAuthError(res: Response, status: number, error: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.error, error, res.text);
}

/** The 400 HTML page for a request that must not be sent back to the app. */
function assertErrorPage(res: Response, text: RegExp): void {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.headers.location, undefined, 'never redirected');
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
  assert.match(res.text, text);
}

for (const store of testStores()) {
  describe(`OAuth security (${store})`, () => {
    let server: TestServer;
    let maker: TestAccount;
    let person: TestAccount;
    let app: TestApp;
    /** The person's browser: signed in once (the session is reused, as the dashboard's would be). */
    let personJar: Jar;
    before(async () => {
      // Every sign-in here comes from 127.0.0.1: lift the per-address limit (the throttling test counts per e-mail).
      server = await startServer(store, { env: { IP_RATE_LIMIT: '1000' } });
      maker = await server.account();
      person = await server.account();
      app = await registerApp(server, maker.key, { redirect_uris: ['https://app.example.com/callback', 'http://127.0.0.1:8123/cb', 'https://app.example.com:8443/cb'] });
      personJar = new Jar(server.client);
    });
    after(() => server.close());

    /** A code for `person`, and its PKCE verifier. */
    async function code(target: TestApp = app, redirectUri = target.redirect_uris[0]!): Promise<{ code: string; verifier: string }> {
      const { verifier, challenge } = pkce();
      const back = await authorize(personJar, person, authorizeUrl(target, { redirect_uri: redirectUri, scope: 'content:read', code_challenge: challenge, code_challenge_method: 'S256' }));
      return { code: back.searchParams.get('code')!, verifier };
    }
    const exchange = (target: TestApp, c: { code: string; verifier: string }, redirectUri = target.redirect_uris[0]!) =>
      token(server, target, { grant_type: 'authorization_code', code: c.code, redirect_uri: redirectUri, code_verifier: c.verifier });

    it('compares redirect URIs as exact strings: a prefix, a longer path, another host or a query is an error page, never a redirect', async () => {
      const jar = new Jar(server.client);
      for (const redirectUri of [
        'https://app.example.com/callback/extra',
        'https://app.example.com/callbackx',
        'https://app.example.com/callback?next=https://evil.example',
        'https://app.example.com/callback/',
        'https://app.example.com/',
        'https://evil.example/callback',
        'https://app.example.com.evil.example/callback',
        'HTTPS://APP.EXAMPLE.COM/callback',
        'https://app.example.com:8444/cb',
      ]) {
        const res = await jar.get(authorizeUrl(app, { redirect_uri: redirectUri, code_challenge: pkce().challenge, code_challenge_method: 'S256' }));
        assertErrorPage(res, /redirect_uri did not match/);
      }
      assertErrorPage(await jar.get(authorizeUrl(app, { redirect_uri: undefined, code_challenge: pkce().challenge, code_challenge_method: 'S256' })), /redirect_uri/);
      assertErrorPage(await jar.get(authorizeUrl({ ...app, id: 'app_00000000000000000000000000' }, { code_challenge: pkce().challenge })), /client is invalid|client not found|invalid_client/);
    });

    it('lets a loopback redirect URI use any port (RFC 8252), and nothing else about it vary', async () => {
      const { verifier, challenge } = pkce();
      const back = await authorize(personJar, person, authorizeUrl(app, { redirect_uri: 'http://127.0.0.1:50999/cb', scope: 'content:read', code_challenge: challenge, code_challenge_method: 'S256' }));
      assert.equal(back.origin, 'http://127.0.0.1:50999');
      assert.ok(back.searchParams.get('code'));
      // The code is bound to the port it was sent to.
      assertOAuthError(await exchange(app, { code: back.searchParams.get('code')!, verifier }, 'http://127.0.0.1:8123/cb'), 400, 'invalid_grant');

      const jar = new Jar(server.client);
      for (const redirectUri of ['http://127.0.0.1:50999/cb2', 'http://localhost:8123/cb', 'http://[::1]:8123/cb', 'https://127.0.0.1:8123/cb', 'http://127.0.0.1.evil.example:8123/cb']) {
        assertErrorPage(await jar.get(authorizeUrl(app, { redirect_uri: redirectUri, code_challenge: pkce().challenge, code_challenge_method: 'S256' })), /redirect_uri did not match/);
      }
    });

    it('requires PKCE with S256 for every app: missing or plain is refused, a wrong or missing verifier gets nothing', async () => {
      const pub = await registerApp(server, maker.key, { type: 'public' });
      for (const target of [app, pub]) {
        const jar = new Jar(server.client);
        for (const params of [{}, { code_challenge: pkce().verifier, code_challenge_method: 'plain' }]) {
          const res = await jar.get(authorizeUrl(target, { state: 'p', ...params }));
          assert.equal(res.status, 303, res.text);
          const back = new URL(String(res.headers.location));
          assert.equal(back.searchParams.get('error'), 'invalid_request');
          assert.equal(back.searchParams.get('state'), 'p');
          assert.equal(back.searchParams.get('code'), null);
        }
      }
      const c = await code();
      assertOAuthError(await exchange(app, { ...c, verifier: pkce().verifier }), 400, 'invalid_grant');
      assertOAuthError(await token(server, app, { grant_type: 'authorization_code', code: c.code, redirect_uri: app.redirect_uris[0]! }), 400, 'invalid_grant');
    });

    it('revokes the tokens a code gave when the code is used again', async () => {
      const c = await code();
      const first = await exchange(app, c);
      assert.equal(first.status, 200, first.text);
      assert.equal((await server.client.get('/v1/content', { key: first.body.access_token })).status, 200);
      assertOAuthError(await exchange(app, c), 400, 'invalid_grant');
      assert.equal((await server.client.get('/v1/content', { key: first.body.access_token })).status, 401);
      assertOAuthError(await token(server, app, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token }), 400, 'invalid_grant');
    });

    it('refuses two simultaneous exchanges of one code: at most one succeeds, and nothing it gave survives', async () => {
      const c = await code();
      const answers = await Promise.all([exchange(app, c), exchange(app, c), exchange(app, c)]);
      const won = answers.filter((res) => res.status === 200);
      assert.ok(won.length <= 1, `${won.length} exchanges succeeded`);
      for (const res of answers.filter((r) => r.status !== 200)) assertOAuthError(res, 400, 'invalid_grant');
      for (const res of won) assert.equal((await server.client.get('/v1/content', { key: res.body.access_token })).status, 401);
    });

    it('binds a code to its app: another app (even with valid credentials) cannot redeem it', async () => {
      const other = await registerApp(server, (await server.account()).key, { redirect_uris: app.redirect_uris });
      const c = await code();
      assertOAuthError(await exchange(other, c), 400, 'invalid_grant');
      // Nor the right app with the other's secret.
      assertOAuthError(await postForm(server.client, '/oauth/token', { grant_type: 'authorization_code', code: c.code, redirect_uri: app.redirect_uris[0]!, code_verifier: c.verifier }, { authorization: basic(app, other.client_secret) }), 401, 'invalid_client');
    });

    it('revokes the whole chain when a used refresh token comes back past the grace (RFC 9700 §4.14.2)', async () => {
      // The grace (10 s after a rotation, issue 21 P3-9) is passed on a clock of the test's own.
      const time = manualClock(new Date().toISOString());
      const timed = await startServer(store, { env: { IP_RATE_LIMIT: '1000' }, clock: time.clock });
      try {
        const owner = await timed.account();
        const own = await registerApp(timed, owner.key);
        const first = await tokensFor(timed, new Jar(timed.client), owner, own, 'content:read');
        const second = await token(timed, own, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
        assert.equal(second.status, 200, second.text);
        assert.equal((await timed.client.get('/v1/content', { key: second.body.access_token })).status, 200);
        time.advance(11_000);
        // The first refresh token again: an attacker (or a confused client) holds a copy.
        assertOAuthError(await token(timed, own, { grant_type: 'refresh_token', refresh_token: first.refresh_token }), 400, 'invalid_grant');
        assertOAuthError(await token(timed, own, { grant_type: 'refresh_token', refresh_token: second.body.refresh_token }), 400, 'invalid_grant');
        assert.equal((await timed.client.get('/v1/content', { key: second.body.access_token })).status, 401);
        assert.equal((await timed.client.get('/v1/content', { key: first.access_token })).status, 401);
      } finally {
        await timed.close();
      }
    });

    it('never lets a token of account B read or change account A', async () => {
      const itemOfMaker = await server.content(maker.key, { title: 'Private to the maker' });
      const tokens = await tokensFor(server, personJar, person, app, 'content:read content:write');
      const key = tokens.access_token;
      assert.equal((await server.client.get(`/v1/content/${itemOfMaker.id}`, { key })).status, 404);
      assert.equal((await server.client.put(`/v1/content/${itemOfMaker.id}`, { key, json: { title: 'Mine' } })).status, 404);
      assert.equal((await server.client.delete(`/v1/content/${itemOfMaker.id}`, { key })).status, 404);
      const listed = await server.client.get('/v1/content?limit=100', { key });
      assert.ok(!listed.body.data.some((c: { id: string }) => c.id === itemOfMaker.id));
      assert.equal((await server.client.get(`/v1/users/${maker.userId}`, { key: (await clientCredentials(server, app)).body.access_token })).status, 200, 'the app acting in its own account');
      assert.equal((await server.client.get(`/v1/users/${maker.userId}`, { key: (await tokensFor(server, personJar, person, app, 'users:read')).access_token })).status, 404);
    });

    it('fails client authentication with 401 invalid_client, and never says which part was wrong', async () => {
      const wrong = await postForm(server.client, '/oauth/token', { grant_type: 'client_credentials' }, { authorization: basic(app, `cms_cs_${'x'.repeat(40)}`) });
      assertOAuthError(wrong, 401, 'invalid_client');
      assert.match(String(wrong.headers['www-authenticate']), /^Basic /);
      assertOAuthError(await postForm(server.client, '/oauth/token', { grant_type: 'client_credentials' }, { authorization: basic({ ...app, id: 'app_00000000000000000000000000' }) }), 401, 'invalid_client');
      assertOAuthError(await postForm(server.client, '/oauth/token', { grant_type: 'client_credentials', client_id: app.id }), 401, 'invalid_client');
      assertOAuthError(await postForm(server.client, '/oauth/token', { grant_type: 'client_credentials', client_id: app.id, client_secret: 'wrong' }), 401, 'invalid_client');
      // The stored hash is not the secret.
      const [row] = (await sql<{ secret_hash: string }>`select secret_hash from oauth_apps where id = ${app.id}`.execute(server.app.store.db)).rows;
      assertOAuthError(await postForm(server.client, '/oauth/token', { grant_type: 'client_credentials' }, { authorization: basic(app, row!.secret_hash) }), 401, 'invalid_client');
      // client_secret_post works as well as client_secret_basic; both at once is refused.
      assert.equal((await postForm(server.client, '/oauth/token', { grant_type: 'client_credentials', client_id: app.id, client_secret: app.client_secret! })).status, 200);
      assertOAuthError(await postForm(server.client, '/oauth/token', { grant_type: 'client_credentials', client_id: app.id, client_secret: app.client_secret! }, { authorization: basic(app) }), 400, 'invalid_request');
      // A public app has no secret to present.
      const pub = await registerApp(server, maker.key, { type: 'public' });
      assertOAuthError(await postForm(server.client, '/oauth/token', { grant_type: 'authorization_code', code: 'x', redirect_uri: pub.redirect_uris[0]!, code_verifier: 'y', client_id: pub.id, client_secret: 'anything' }), 401, 'invalid_client');
    });

    it('compares client secrets in constant time: the hash of what is presented against the stored hash, with timingSafeEqual', async () => {
      const calls: [Buffer, Buffer][] = [];
      const spy = mock.method(crypto, 'timingSafeEqual', (a: Buffer, b: Buffer) => {
        calls.push([Buffer.from(a), Buffer.from(b)]);
        return a.length === b.length && a.equals(b);
      });
      syncBuiltinESMExports();
      try {
        assert.equal((await clientCredentials(server, app)).status, 200);
        assertOAuthError(await clientCredentials(server, { ...app, client_secret: 'not the secret' }), 401, 'invalid_client');
      } finally {
        spy.mock.restore();
        syncBuiltinESMExports();
      }
      const [stored] = (await sql<{ secret_hash: string }>`select secret_hash from oauth_apps where id = ${app.id}`.execute(server.app.store.db)).rows;
      const comparisons = calls.filter(([, b]) => b.toString('hex') === stored!.secret_hash);
      assert.equal(comparisons.length, 2, 'one constant-time comparison per authentication');
      assert.deepEqual(comparisons[0]![0], Buffer.from(sha256(app.client_secret!), 'hex'));
      assert.deepEqual(comparisons[1]![0], Buffer.from(sha256('not the secret'), 'hex'));
    });

    it('checks CSRF on the consent form (session token and Origin) and on the sign-in form (form token and Origin)', async () => {
      const person = await server.account();
      const jar = new Jar(server.client);
      const start = await jar.follow(await jar.get(authorizeUrl(app, { scope: 'content:read', prompt: 'consent', code_challenge: pkce().challenge, code_challenge_method: 'S256' })));
      const signIn = /action="([^"]+)"/.exec(start.text)![1]!;
      const formToken = hidden(start.text, 'form_token');
      const credentials = { email: person.email, password: person.password };
      assert.equal((await jar.post(signIn, credentials)).status, 403, 'no form token');
      assert.equal((await jar.post(signIn, { ...credentials, form_token: formToken }, { origin: 'https://evil.example' })).status, 403, 'another site');
      const consentPage = await jar.follow(await jar.post(signIn, { ...credentials, form_token: formToken }));
      assert.equal(consentPage.status, 200);
      const consent = /action="([^"]+)"/.exec(consentPage.text)![1]!;
      const csrf = hidden(consentPage.text, 'csrf_token');

      for (const [form, headers, why] of [
        [{ decision: 'allow' }, {}, 'no CSRF token'],
        [{ decision: 'allow', csrf_token: 'x'.repeat(csrf.length) }, {}, 'a wrong CSRF token'],
        [{ decision: 'allow', csrf_token: csrf }, { origin: 'https://evil.example' }, 'another site'],
      ] as const) {
        const res = await jar.post(consent, form, headers);
        assert.equal(res.status, 403, why);
        assert.equal(res.headers.location, undefined, why);
        assert.match(String(res.headers['content-type']), /^text\/html/);
      }
      // Without the session cookie (another site's form cannot send it), nothing is granted: back to sign-in.
      const interactionCookies = ['cms_oauth_interaction', 'cms_oauth_interaction.sig'].map((name) => `${name}=${jar.cookie(name)}`).join('; ');
      const bare = await postForm(server.client, consent, { decision: 'allow', csrf_token: csrf }, { origin: server.baseUrl, cookie: interactionCookies });
      assert.equal(bare.status, 303);
      assert.equal(new URL(String(bare.headers.location), server.baseUrl).origin, server.baseUrl);
      assert.deepEqual((await server.client.get('/v1/oauth/authorizations', { key: person.key })).body.data.filter((g: { app: { id: string } }) => g.app.id === app.id).length, 0);
      // The real thing still works.
      const done = await jar.post(consent, { decision: 'allow', csrf_token: csrf });
      assert.equal(done.status, 303);
      assert.ok(new URL(String((await jar.follow(done)).headers.location)).searchParams.get('code'));
    });

    it('serves pages that cannot be framed, run no script and load nothing from another origin; the consent page lets its form lead only to the app', async () => {
      const person = await server.account();
      const jar = new Jar(server.client);
      const signIn = await jar.follow(await jar.get(authorizeUrl(app, { scope: 'content:read', prompt: 'consent', code_challenge: pkce().challenge, code_challenge_method: 'S256' })));
      const consent = await jar.follow(await jar.post(/action="([^"]+)"/.exec(signIn.text)![1]!, { form_token: hidden(signIn.text, 'form_token'), email: person.email, password: person.password }));
      for (const page of [signIn, consent]) {
        assert.equal(page.status, 200);
        const csp = String(page.headers['content-security-policy']);
        assert.match(csp, /frame-ancestors 'none'/);
        assert.match(csp, /default-src 'none'/);
        assert.doesNotMatch(csp, /script-src/);
        assert.match(csp, /form-action 'self' https:\/\/app\.example\.com(;|$)/);
        assert.equal(page.headers['x-frame-options'], 'DENY');
        assert.equal(page.headers['cache-control'], 'no-store');
        assert.doesNotMatch(page.text, /<script/i);
        assert.doesNotMatch(page.text, /(src|href)="(https?:)?\/\//i, 'nothing from another origin');
      }
      assert.match(signIn.text, /<label for="field-email">Email<\/label>/);
      assert.match(signIn.text, /<label for="field-password">Password<\/label>/);
      assert.match(signIn.text, />Sign in<\/button>/);
      assert.match(signIn.text, /<a href="\/password\/forgot">Forgot password\?<\/a>/);
      assert.match(consent.text, />Allow<\/button>/);
      assert.match(consent.text, />Deny<\/button>/);
      assert.match(consent.text, /Read your content items/);
    });

    it('sends a browser that arrives from another site without the session cookie back to the same page from here (SameSite=Strict)', async () => {
      const jar = new Jar(server.client);
      const first = await jar.get(authorizeUrl(app, { code_challenge: pkce().challenge, code_challenge_method: 'S256' }), { 'sec-fetch-site': 'cross-site' });
      assert.equal(first.status, 303);
      const page = await jar.get(String(first.headers.location), { 'sec-fetch-site': 'cross-site' });
      assert.equal(page.status, 200);
      assert.match(page.text, new RegExp(`<meta http-equiv="refresh" content="0;url=${first.headers.location}"/>`));
      assert.doesNotMatch(page.text, /name="password"/);
    });

    it('throttles sign-in on these pages like the dashboard: 429 with Retry-After after ten wrong passwords', async () => {
      const victim = await server.account();
      const jar = new Jar(server.client);
      const start = await jar.follow(await jar.get(authorizeUrl(app, { code_challenge: pkce().challenge, code_challenge_method: 'S256' })));
      const action = /action="([^"]+)"/.exec(start.text)![1]!;
      const formToken = hidden(start.text, 'form_token');
      for (let i = 0; i < 10; i++) {
        const res = await jar.post(action, { form_token: formToken, email: victim.email, password: 'wrong wrong wrong' });
        assert.equal(res.status, 401, res.text);
        assert.match(res.text, /The e-mail address or the password is not right/);
      }
      const refused = await jar.post(action, { form_token: formToken, email: victim.email, password: victim.password });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      assert.equal(jar.cookie('__Host-cms_session'), undefined);
    });

    it('stores secrets, tokens and codes only as SHA-256 hashes: none of them is anywhere in the database', async () => {
      const secretApp = await registerApp(server, maker.key);
      const machine = (await clientCredentials(server, secretApp)).body.access_token as string;
      const c = await code(secretApp);
      const tokens = (await exchange(secretApp, c)).body;
      const db = server.app.store.db;
      const [appRow] = (await sql<{ secret_hash: string }>`select secret_hash from oauth_apps where id = ${secretApp.id}`.execute(db)).rows;
      assert.equal(appRow!.secret_hash, sha256(secretApp.client_secret!));
      for (const value of [machine, tokens.access_token, tokens.refresh_token, c.code]) {
        const rows = (await sql<{ kind: string }>`select kind from oauth_tokens where hash = ${sha256(value)}`.execute(db)).rows;
        assert.equal(rows.length, 1, `${value.slice(0, 8)} stored by its hash`);
      }
      // Every table the server writes, as text: the plain values appear nowhere.
      const everything: string[] = [];
      for (const table of ['oauth_apps', 'oauth_grants', 'oauth_tokens', 'oauth_records', 'settings', 'api_keys', 'sessions']) {
        everything.push(JSON.stringify((await sql`select * from ${sql.table(table)}`.execute(db)).rows));
      }
      const dump = everything.join('\n');
      for (const value of [secretApp.client_secret!, machine, tokens.access_token, tokens.refresh_token, c.code]) {
        assert.ok(!dump.includes(value), `${value.slice(0, 8)}… is stored in plain text`);
      }
      assert.ok(dump.includes(sha256(tokens.refresh_token)), 'the dump did cover the tokens');
    });
  });
}
