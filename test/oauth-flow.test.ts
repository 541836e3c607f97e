// The OAuth 2.0 protocol as an app sees it (CONTRACT.md §15), walked over HTTPS through the real
// sign-in and consent pages: discovery, the authorization code flow with PKCE and RFC 9207's iss,
// remembered consent, refresh rotation, client credentials, introspection and revocation; and the
// tokens as principals: acting in the approving person's account with granted scopes narrowed to
// their current role, like a key (limits, usage, the WebSocket channel).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Response } from './helpers/client.js';
import { assertNoRateHeaders, manualClock, rateHeaders } from './helpers/limits.js';
import {
  authorize,
  authorizeUrl,
  basic,
  clientCredentials,
  Jar,
  pkce,
  postForm,
  registerApp,
  token,
  tokensFor,
  type TestApp,
} from './helpers/oauth.js';
import { addKey, addUser } from './helpers/people.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { refusedUpgrade, WsClient } from './helpers/ws.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const GRANTABLE = ['content:read', 'content:write', 'users:read', 'users:write', 'webhooks:write', 'events:read'];

function assertOAuthError(res: Response, status: number, error: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.error, error, res.text);
  assert.equal(typeof res.body.error_description, 'string');
  assert.equal(res.body.meta, undefined, 'RFC 6749 errors, not the API envelope');
}

for (const store of testStores()) {
  describe(`OAuth protocol (${store})`, () => {
    const time = manualClock(new Date().toISOString());
    let server: TestServer;
    let maker: TestAccount;
    let app: TestApp;
    before(async () => {
      server = await startServer(store, { clock: time.clock });
      maker = await server.account();
      app = await registerApp(server, maker.key, { name: 'Third-party publisher' });
    });
    after(() => server.close());

    const introspect = (target: TestApp, value: string) => postForm(server.client, '/oauth/introspect', { token: value }, { authorization: basic(target) });
    const revoke = (target: TestApp, value: string) => postForm(server.client, '/oauth/revoke', { token: value }, { authorization: basic(target) });

    it('publishes RFC 8414 metadata with exactly the contract’s fields, without a key or rate-limit headers', async () => {
      const res = await server.client.get('/.well-known/oauth-authorization-server');
      assert.equal(res.status, 200, res.text);
      assertNoRateHeaders(res);
      const issuer = server.baseUrl;
      assert.deepEqual(res.body, {
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        revocation_endpoint: `${issuer}/oauth/revoke`,
        introspection_endpoint: `${issuer}/oauth/introspect`,
        scopes_supported: GRANTABLE,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        authorization_response_iss_parameter_supported: true,
      });
    });

    it('lets a person of another account authorize the app; its tokens act in that account, as that person, within the scopes', async () => {
      const person = await server.account();
      const theirs = await server.content(person.key, { title: 'Their draft' });
      const makers = await server.content(maker.key, { title: 'The maker’s own' });
      const { verifier, challenge } = pkce();
      const state = 'xyz-123';
      const jar = new Jar(server.client);
      const back = await authorize(jar, person, authorizeUrl(app, { scope: 'content:read content:write', state, code_challenge: challenge, code_challenge_method: 'S256' }));
      assert.equal(`${back.origin}${back.pathname}`, app.redirect_uris[0]);
      assert.deepEqual([...back.searchParams.keys()].sort(), ['code', 'iss', 'state']);
      assert.equal(back.searchParams.get('state'), state);
      assert.equal(back.searchParams.get('iss'), server.baseUrl, 'RFC 9207');

      const res = await token(server, app, { grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: app.redirect_uris[0]!, code_verifier: verifier });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers['cache-control'], 'no-store');
      assertNoRateHeaders(res);
      // The security headers of every answer reach the library's own answers too (CONTRACT.md §1, issue 15 D7).
      assert.equal(res.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.match(String(res.headers['x-request-id']), /^req_/);
      assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
      assert.match(res.body.access_token, /^cms_oat_[0-9A-Za-z]{32,}$/);
      assert.match(res.body.refresh_token, /^cms_ort_[0-9A-Za-z]{32,}$/);
      assert.equal(res.body.token_type, 'Bearer');
      assert.equal(res.body.expires_in, 3600);
      assert.equal(res.body.scope, 'content:read content:write');

      const at = res.body.access_token as string;
      const listed = await server.client.get('/v1/content', { key: at });
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.body.data.map((c: { id: string }) => c.id), [theirs.id], "the approving person's account, never the app's own");
      assert.equal(rateHeaders(listed).limit, 10_000, 'counted against the account like a key');
      const created = await server.client.post('/v1/content', { key: at, json: { title: 'Written by the app', type: 'blog', content: 'x' } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.data.author, person.userId);
      assert.equal((await server.client.get(`/v1/content/${makers.id}`, { key: at })).status, 404);
      assert.equal((await server.client.get('/v1/users', { key: at })).status, 403, 'users:read was not granted');
    });

    it('gives access tokens an hour, refresh tokens 30 days and codes 60 seconds (as stored)', async () => {
      const person = await server.account();
      const { verifier, challenge } = pkce();
      const back = await authorize(new Jar(server.client), person, authorizeUrl(app, { scope: 'content:read', code_challenge: challenge, code_challenge_method: 'S256' }));
      const code = back.searchParams.get('code')!;
      const expiresIn = async (value: string) => {
        const [row] = (await sql<{ expires_at: string }>`select expires_at from oauth_tokens where hash = ${sha256(value)}`.execute(server.app.store.db)).rows;
        return Math.round((Date.parse(row!.expires_at) - Date.now()) / 1000);
      };
      const codeLeft = await expiresIn(code);
      assert.ok(codeLeft > 50 && codeLeft <= 60, `code: ${codeLeft} s`);
      const res = await token(server, app, { grant_type: 'authorization_code', code, redirect_uri: app.redirect_uris[0]!, code_verifier: verifier });
      const accessLeft = await expiresIn(res.body.access_token);
      assert.ok(accessLeft > 3590 && accessLeft <= 3600, `access token: ${accessLeft} s`);
      const refreshLeft = await expiresIn(res.body.refresh_token);
      assert.ok(refreshLeft > 30 * 86_400 - 10 && refreshLeft <= 30 * 86_400, `refresh token: ${refreshLeft} s`);
      // A refresh issues a new refresh token with a new 30 days: 30 days since last use.
      const refreshed = await token(server, app, { grant_type: 'refresh_token', refresh_token: res.body.refresh_token });
      assert.ok((await expiresIn(refreshed.body.refresh_token)) > 30 * 86_400 - 10);
    });

    it("grants the app's own scopes when none are named", async () => {
      const narrow = await registerApp(server, maker.key, { scopes: ['events:read', 'content:read'] });
      const person = await server.account();
      const tokens = await tokensFor(server, new Jar(server.client), person, narrow);
      assert.equal(tokens.scope, 'content:read events:read');
    });

    it('remembers consent for the same or fewer scopes, asks again for more, and always with prompt=consent', async () => {
      const person = await server.account();
      const jar = new Jar(server.client);
      await tokensFor(server, jar, person, app, 'content:read events:read');
      const consentShown = async (params: Record<string, string>) => {
        const res = await jar.follow(await jar.get(authorizeUrl(app, { code_challenge: pkce().challenge, code_challenge_method: 'S256', ...params })));
        if (res.status === 303) return false;
        assert.equal(res.status, 200, res.text);
        assert.match(res.text, /name="decision" value="allow"/);
        return true;
      };
      assert.equal(await consentShown({ scope: 'content:read' }), false, 'fewer scopes: straight back to the app');
      assert.equal(await consentShown({ scope: 'events:read content:read' }), false);
      assert.equal(await consentShown({ scope: 'content:read users:read' }), true, 'a new scope');
      assert.equal(await consentShown({ scope: 'content:read', prompt: 'consent' }), true);
    });

    it('sends Deny back as access_denied with state and iss, and no code', async () => {
      const person = await server.account();
      const back = await authorize(new Jar(server.client), person, authorizeUrl(app, { state: 's1', code_challenge: pkce().challenge, code_challenge_method: 'S256' }), 'deny');
      assert.equal(back.searchParams.get('error'), 'access_denied');
      assert.equal(back.searchParams.get('state'), 's1');
      assert.equal(back.searchParams.get('iss'), server.baseUrl);
      assert.equal(back.searchParams.get('code'), null);
      assert.deepEqual((await server.client.get('/v1/oauth/authorizations', { key: person.key })).body.data, []);
    });

    it('refuses unknown-only and ungrantable scopes with invalid_scope, redirected to the app before anyone signs in', async () => {
      const jar = new Jar(server.client);
      for (const scope of ['nonsense', 'keys:write', 'content:read keys:write']) {
        const res = await jar.follow(await jar.get(authorizeUrl(app, { scope, state: 's2', code_challenge: pkce().challenge, code_challenge_method: 'S256' })));
        assert.equal(res.status, 303, `${scope}: ${res.text}`);
        const back = new URL(String(res.headers.location));
        assert.equal(back.searchParams.get('error'), 'invalid_scope', scope);
        assert.equal(back.searchParams.get('state'), 's2');
      }
    });

    it('answers prompt=none with login_required: every authorization is decided on the service’s own pages', async () => {
      const res = await new Jar(server.client).get(authorizeUrl(app, { prompt: 'none', state: 'n', code_challenge: pkce().challenge, code_challenge_method: 'S256' }));
      assert.equal(res.status, 303);
      const back = new URL(String(res.headers.location));
      assert.equal(back.searchParams.get('error'), 'login_required');
      assert.equal(back.searchParams.get('state'), 'n');
    });

    it('rotates refresh tokens: a new pair each time, the old refresh token dead; scope may narrow, never widen', async () => {
      const person = await server.account();
      const first = await tokensFor(server, new Jar(server.client), person, app, 'content:read content:write');
      const narrowed = await token(server, app, { grant_type: 'refresh_token', refresh_token: first.refresh_token, scope: 'content:read' });
      assert.equal(narrowed.status, 200, narrowed.text);
      assert.equal(narrowed.headers['cache-control'], 'no-store');
      assert.equal(narrowed.body.scope, 'content:read');
      assert.notEqual(narrowed.body.refresh_token, first.refresh_token);
      assert.notEqual(narrowed.body.access_token, first.access_token);
      assert.equal((await server.client.get('/v1/content', { key: narrowed.body.access_token })).status, 200);
      const write = await server.client.post('/v1/content', { key: narrowed.body.access_token, json: { title: 't', type: 'blog', content: 'c' } });
      assert.equal(write.status, 403, 'the narrowed token');

      const widened = await token(server, app, { grant_type: 'refresh_token', refresh_token: narrowed.body.refresh_token, scope: 'content:read users:read' });
      assertOAuthError(widened, 400, 'invalid_scope');
      // The rotated refresh token still holds the original scopes.
      const again = await token(server, app, { grant_type: 'refresh_token', refresh_token: narrowed.body.refresh_token });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body.scope, 'content:read content:write');
    });

    it('issues client credentials to confidential apps only: the app’s scopes by default, acting as its registering user, no refresh token', async () => {
      const res = await clientCredentials(server, app);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
      assert.equal(res.body.scope, GRANTABLE.join(' '));
      assert.equal(res.body.expires_in, 3600);
      const created = await server.client.post('/v1/content', { key: res.body.access_token, json: { title: 'Machine', type: 'blog', content: 'x' } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.data.author, maker.userId);

      assert.equal((await clientCredentials(server, app, 'content:read')).body.scope, 'content:read');
      assertOAuthError(await clientCredentials(server, app, 'keys:write'), 400, 'invalid_scope');
      assertOAuthError(await clientCredentials(server, app, 'nonsense'), 400, 'invalid_scope');
      const pub = await registerApp(server, maker.key, { type: 'public' });
      assertOAuthError(await clientCredentials(server, pub), 400, 'unauthorized_client');
    });

    it('introspects for the app that holds the token only; others learn nothing', async () => {
      const person = await server.account();
      const tokens = await tokensFor(server, new Jar(server.client), person, app, 'content:read');
      const res = await introspect(app, tokens.access_token);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['active', 'client_id', 'exp', 'iat', 'iss', 'scope', 'sub', 'token_type']);
      assert.equal(res.body.active, true);
      assert.equal(res.body.scope, 'content:read');
      assert.equal(res.body.client_id, app.id);
      assert.equal(res.body.sub, person.userId);
      assert.equal(res.body.token_type, 'Bearer');
      assert.equal(res.body.iss, server.baseUrl);
      assert.equal(res.body.exp - res.body.iat, 3600);
      const machine = await introspect(app, (await clientCredentials(server, app, 'content:read')).body.access_token);
      assert.equal(machine.body.sub, maker.userId, 'client credentials act as the registering user');

      const other = await registerApp(server, (await server.account()).key);
      assert.deepEqual((await introspect(other, tokens.access_token)).body, { active: false });
      assert.deepEqual((await introspect(app, 'cms_oat_unknownunknownunknownunknownunknownunk')).body, { active: false });
      // No client authentication at all is a failed one (RFC 6749 §5.2, issue 21 P3-10).
      const anonymous = await postForm(server.client, '/oauth/introspect', { token: tokens.access_token });
      assertOAuthError(anonymous, 401, 'invalid_client');
      assert.match(String(anonymous.headers['www-authenticate']), /^Basic /);
    });

    it('revokes (RFC 7009): 200 for any token; a refresh token takes its chain’s access tokens with it; another app’s token is left alone', async () => {
      const person = await server.account();
      const tokens = await tokensFor(server, new Jar(server.client), person, app, 'content:read');
      const other = await registerApp(server, (await server.account()).key);
      const byOther = await revoke(other, tokens.refresh_token);
      assert.equal(byOther.status, 200, byOther.text);
      assert.equal((await server.client.get('/v1/content', { key: tokens.access_token })).status, 200, 'not its token: nothing happened');

      assert.equal((await revoke(app, 'cms_ort_neverissuedneverissuedneverissuedneve')).status, 200);
      const res = await revoke(app, tokens.refresh_token);
      assert.equal(res.status, 200, res.text);
      const after = await server.client.get('/v1/content', { key: tokens.access_token });
      assert.equal(after.status, 401);
      assert.equal(after.headers['www-authenticate'], 'Bearer error="invalid_token"');
      assert.equal(after.body.code, 'unauthorized');
      assert.equal(typeof after.body.meta.request_id, 'string', 'the API envelope');
      assertOAuthError(await token(server, app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }), 400, 'invalid_grant');
      assert.deepEqual((await introspect(app, tokens.access_token)).body, { active: false });
      // Revoking a refresh token ends the grant: the app is no longer connected.
      assert.deepEqual((await server.client.get('/v1/oauth/authorizations', { key: person.key })).body.data, []);
    });

    it('revokes an access token together with the other tokens of its grant, but keeps the grant (the remembered consent)', async () => {
      const person = await server.account();
      const jar = new Jar(server.client);
      const tokens = await tokensFor(server, jar, person, app, 'content:read');
      assert.equal((await revoke(app, tokens.access_token)).status, 200);
      assert.equal((await server.client.get('/v1/content', { key: tokens.access_token })).status, 401);
      assertOAuthError(await token(server, app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }), 400, 'invalid_grant');
      assert.equal((await server.client.get('/v1/oauth/authorizations', { key: person.key })).body.data.length, 1);
      // Asking again needs no consent: the grant is remembered.
      const again = await jar.follow(await jar.get(authorizeUrl(app, { scope: 'content:read', code_challenge: pkce().challenge, code_challenge_method: 'S256' })));
      assert.equal(again.status, 303);
      assert.ok(new URL(String(again.headers.location)).searchParams.get('code'));
    });

    it('narrows a token to the person’s current role at once: a viewer’s grant of content:write cannot write until promoted', async () => {
      const person = await server.account();
      const viewer = await addUser(server, person.key, 'viewer', { password: 'viewer password 123' });
      const tokens = await tokensFor(server, new Jar(server.client), { email: viewer.email, password: 'viewer password 123' }, app, 'content:read content:write');
      assert.equal(tokens.scope, 'content:read content:write', 'granted as asked');
      const write = () => server.client.post('/v1/content', { key: tokens.access_token, json: { title: 't', type: 'blog', content: 'c' } });
      assert.equal((await write()).status, 403);
      assert.equal((await server.client.put(`/v1/users/${viewer.id}`, { key: person.key, json: { role: 'author' } })).status, 200);
      assert.equal((await write()).status, 201, 'promoted: the grant now counts');
      assert.equal((await server.client.put(`/v1/users/${viewer.id}`, { key: person.key, json: { role: 'viewer' } })).status, 200);
      assert.equal((await write()).status, 403, 'demoted: narrowed on the very next request');
      assert.equal((await server.client.get('/v1/content', { key: tokens.access_token })).status, 200);
    });

    it("kills a person's tokens when the person is deleted", async () => {
      const person = await server.account();
      const editor = await addUser(server, person.key, 'editor', { password: 'editor password 123' });
      const tokens = await tokensFor(server, new Jar(server.client), { email: editor.email, password: 'editor password 123' }, app, 'content:read');
      assert.equal((await server.client.get('/v1/content', { key: tokens.access_token })).status, 200);
      assert.equal((await server.client.delete(`/v1/users/${editor.id}`, { key: person.key })).status, 204);
      assert.equal((await server.client.get('/v1/content', { key: tokens.access_token })).status, 401);
      assertOAuthError(await token(server, app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }), 400, 'invalid_grant');
    });

    it('refuses an expired access token with invalid_token', async () => {
      const person = await server.account();
      const tokens = await tokensFor(server, new Jar(server.client), person, app, 'content:read');
      time.set(new Date().toISOString());
      assert.equal((await server.client.get('/v1/content', { key: tokens.access_token })).status, 200);
      time.advance(3601_000);
      try {
        const res = await server.client.get('/v1/content', { key: tokens.access_token });
        assert.equal(res.status, 401);
        assert.equal(res.headers['www-authenticate'], 'Bearer error="invalid_token"');
      } finally {
        time.set(new Date().toISOString());
      }
    });

    it('counts requests made with an app’s tokens as that app’s usage in the account, shown to admins and to the person', async () => {
      const maker = await server.account();
      const app = await registerApp(server, maker.key, { name: 'Third-party publisher' });
      const person = await server.account();
      const editor = await addUser(server, person.key, 'editor', { password: 'editor password 123' });
      const editorKey = (await addKey(server, person.key, { user_id: editor.id })).key;
      const ownerTokens = await tokensFor(server, new Jar(server.client), person, app, 'content:read');
      const editorTokens = await tokensFor(server, new Jar(server.client), { email: editor.email, password: 'editor password 123' }, app, 'content:read');
      for (let i = 0; i < 3; i++) assert.equal((await server.client.get('/v1/content', { key: ownerTokens.access_token })).status, 200);
      assert.equal((await server.client.get('/v1/content', { key: editorTokens.access_token })).status, 200);
      assert.equal((await server.client.get('/v1/users', { key: ownerTokens.access_token })).status, 403, 'a 4xx counts toward nothing');

      const asOwner = (await server.client.get('/v1/usage', { key: person.key })).body.data;
      assert.deepEqual(asOwner.apps, [{ app_id: app.id, name: 'Third-party publisher', used: 4 }]);
      assert.ok(!asOwner.keys.some((k: { key_id: string }) => k.key_id.includes(app.id)), 'apps are not keys');
      const asEditor = (await server.client.get('/v1/usage', { key: editorKey })).body.data;
      assert.deepEqual(asEditor.apps, [{ app_id: app.id, name: 'Third-party publisher', used: 1 }]);
      assert.deepEqual((await server.client.get('/v1/usage', { key: maker.key })).body.data.apps.filter((a: { app_id: string }) => a.app_id === app.id), [], "the app's own account saw none of it");
    });

    it('opens the WebSocket channel with a token, refuses a bad one with 401 before any frame, and closes it (1008) when the grant is revoked', async () => {
      const person = await server.account();
      const tokens = await tokensFor(server, new Jar(server.client), person, app, 'content:read events:read');
      const ws = await WsClient.open(server, tokens.access_token);
      try {
        assert.equal((await ws.subscribe('content.*')).type, 'subscribed');
        const item = await server.content(person.key, { title: 'Live' });
        const event = await ws.next((m) => m.type === 'content.created');
        assert.equal(event.data.id, item.id);

        // The token with its last character changed (to one it is not: a token ending in 0 stays valid otherwise).
        const token = tokens.access_token;
        const refused = await refusedUpgrade(server, `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`);
        assert.equal(refused.status, 401);
        assert.equal(refused.headers['www-authenticate'], 'Bearer error="invalid_token"');

        const grants = (await server.client.get('/v1/oauth/authorizations', { key: person.key })).body.data;
        assert.equal((await server.client.delete(`/v1/oauth/authorizations/${grants[0].id}`, { key: person.key })).status, 204);
        assert.equal((await ws.closed).code, 1008);
      } finally {
        ws.socket.terminate();
      }
    });

    it('answers the protocol endpoints in their own terms: no API envelope, no rate-limit headers', async () => {
      const res = await postForm(server.client, '/oauth/token', { grant_type: 'password', username: 'a', password: 'b' }, { authorization: basic(app) });
      assertOAuthError(res, 400, 'unsupported_grant_type');
      assertNoRateHeaders(res);
      assert.match(String(res.headers['x-request-id']), /^req_[0-9a-z]{26}$/);
      const implicit = await new Jar(server.client).get(authorizeUrl(app, { response_type: 'token', code_challenge: pkce().challenge, code_challenge_method: 'S256' }));
      assert.equal(implicit.status, 303);
      // An implicit request's answer goes in the fragment, as that response type would have it.
      const answer = new URLSearchParams(new URL(String(implicit.headers.location)).hash.slice(1));
      assert.equal(answer.get('error'), 'unsupported_response_type', 'no implicit grant');
    });
  });
}
