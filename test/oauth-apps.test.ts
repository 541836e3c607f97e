// /v1/oauth/apps and /v1/oauth/authorizations as a client sees them (CONTRACT.md §15): the record and
// its secret shown once, redirect URI rules, who sees and changes which apps, rotation, deletion
// taking every token with it, connected apps, and a token never managing keys, apps or connections.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { basic, clientCredentials, Jar, postForm, registerApp, tokensFor, type TestApp } from './helpers/oauth.js';
import { addKey, addUser } from './helpers/people.js';
import { startSecondInstance } from './helpers/instance.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const RECORD_FIELDS = ['created_at', 'id', 'name', 'redirect_uris', 'scopes', 'type', 'updated_at', 'user_id'];
const GRANTABLE = ['content:read', 'content:write', 'users:read', 'users:write', 'webhooks:write', 'events:read'];
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function assertError(res: Response, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code);
}

function fieldCodes(res: Response): Record<string, string> {
  return Object.fromEntries((res.body.errors as { field: string; code: string }[]).map((e) => [e.field, e.code]));
}

for (const store of testStores()) {
  describe(`OAuth apps API (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store);
    });
    after(() => server.close());

    const get = (path: string, key: string) => server.client.get(path, { key });
    const post = (path: string, key: string, json?: unknown) => server.client.post(path, { key, json });
    const put = (path: string, key: string, json: unknown) => server.client.put(path, { key, json });
    const del = (path: string, key: string) => server.client.delete(path, { key });

    it('registers a confidential app: 201 with Location, the client secret shown this once, every grantable scope by default', async () => {
      const account = await server.account();
      const res = await post('/v1/oauth/apps', account.key, { name: 'Publisher', redirect_uris: ['https://publisher.example/cb', 'http://127.0.0.1:8123/cb'] });
      assert.equal(res.status, 201, res.text);
      const app = res.body.data;
      assert.deepEqual(Object.keys(app).sort(), [...RECORD_FIELDS, 'client_secret'].sort());
      assert.match(app.id, /^app_[0-9a-z]{26}$/);
      assert.equal(res.headers.location, `/v1/oauth/apps/${app.id}`);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.match(app.client_secret, /^cms_cs_[0-9A-Za-z]{40}$/);
      assert.equal(app.type, 'confidential');
      assert.deepEqual(app.scopes, GRANTABLE);
      assert.deepEqual(app.redirect_uris, ['https://publisher.example/cb', 'http://127.0.0.1:8123/cb']);
      assert.equal(app.user_id, account.userId);
      assert.match(app.created_at, ISO_MS);
      assert.equal(app.updated_at, app.created_at);

      // Afterwards the secret appears nowhere.
      const read = await get(`/v1/oauth/apps/${app.id}`, account.key);
      assert.deepEqual(Object.keys(read.body.data).sort(), RECORD_FIELDS);
      const list = await get('/v1/oauth/apps', account.key);
      assert.ok(!list.text.includes(app.client_secret) && !read.text.includes(app.client_secret));
      assert.deepEqual(list.body.data, [read.body.data]);
    });

    it('registers a public app without a secret, with the scopes it names', async () => {
      const account = await server.account();
      const res = await post('/v1/oauth/apps', account.key, { name: 'CLI', type: 'public', redirect_uris: ['http://[::1]:9000/done'], scopes: ['events:read', 'content:read'] });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.data.type, 'public');
      assert.equal(res.body.data.client_secret, undefined);
      assert.deepEqual(res.body.data.scopes, ['content:read', 'events:read']);
    });

    it('refuses bad registrations with 422, every bad field listed', async () => {
      const account = await server.account();
      const bad = async (body: unknown) => {
        const res = await post('/v1/oauth/apps', account.key, body);
        assertError(res, 422, 'validation_failed');
        return fieldCodes(res);
      };
      assert.deepEqual(await bad({}), { name: 'required', redirect_uris: 'required' });
      assert.deepEqual(await bad({ name: ' ', redirect_uris: [] }), { name: 'too_short', redirect_uris: 'too_short' });
      assert.deepEqual(await bad({ name: 'x'.repeat(101), redirect_uris: Array(11).fill('https://a.example/') }), { name: 'too_long', redirect_uris: 'too_long' });
      assert.deepEqual(
        await bad({
          name: 'Bad URIs',
          redirect_uris: [
            'http://app.example/cb', // plain http off loopback
            'https://app.example/cb#frag',
            'not a url',
            'http://localhost:3000/cb', // "localhost" may resolve elsewhere: only literal loopback addresses
            'https://user:pw@app.example/cb',
            'https://ok.example/cb',
            'https://ok.example/cb',
            'javascript:alert(1)',
          ],
        }),
        {
          'redirect_uris[0]': 'invalid_value',
          'redirect_uris[1]': 'invalid_value',
          'redirect_uris[2]': 'invalid_format',
          'redirect_uris[3]': 'invalid_value',
          'redirect_uris[4]': 'invalid_value',
          'redirect_uris[6]': 'invalid_value',
          'redirect_uris[7]': 'invalid_value',
        },
      );
      // keys:write is never grantable: a token never mints keys or apps.
      assert.deepEqual(await bad({ name: 'K', redirect_uris: ['https://a.example/'], scopes: ['content:read', 'keys:write', 'nope'] }), {
        'scopes[1]': 'invalid_value',
        'scopes[2]': 'invalid_value',
      });
      assert.deepEqual(await bad({ name: 'T', redirect_uris: ['https://a.example/'], type: 'secretive', id: 'app_x', client_secret: 'x', extra: 1 }), {
        type: 'invalid_value',
        id: 'read_only',
        client_secret: 'read_only',
        extra: 'unknown_field',
      });
    });

    it('changes name, redirect URIs and scopes; type is read-only; an empty change is 422', async () => {
      const account = await server.account();
      const app = await registerApp(server, account.key);
      const res = await put(`/v1/oauth/apps/${app.id}`, account.key, { name: 'Renamed', redirect_uris: ['https://new.example/cb'], scopes: ['content:read'] });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.name, 'Renamed');
      assert.deepEqual(res.body.data.redirect_uris, ['https://new.example/cb']);
      assert.deepEqual(res.body.data.scopes, ['content:read']);
      assert.ok(res.body.data.updated_at >= res.body.data.created_at);
      assert.equal(res.body.data.client_secret, undefined);
      assert.deepEqual(fieldCodes(await put(`/v1/oauth/apps/${app.id}`, account.key, { type: 'public' })), { type: 'read_only' });
      assert.deepEqual(fieldCodes(await put(`/v1/oauth/apps/${app.id}`, account.key, {})), { '': 'empty_update' });
      assert.deepEqual(fieldCodes(await put(`/v1/oauth/apps/${app.id}`, account.key, { redirect_uris: ['ftp://x.example/'] })), { 'redirect_uris[0]': 'invalid_value' });
      assertError(await put('/v1/oauth/apps/app_unknown', account.key, { name: 'x' }), 404, 'not_found');
    });

    describe('who sees which apps', () => {
      let account: TestAccount;
      let admin: { id: string; key: string };
      let editor: { id: string; key: string };
      let ownerApp: TestApp;
      let editorApp: TestApp;
      before(async () => {
        account = await server.account();
        const adminUser = await addUser(server, account.key, 'admin');
        admin = { id: adminUser.id, key: (await addKey(server, account.key, { user_id: adminUser.id })).key };
        const editorUser = await addUser(server, account.key, 'editor');
        editor = { id: editorUser.id, key: (await addKey(server, account.key, { user_id: editorUser.id })).key };
        ownerApp = await registerApp(server, account.key, { name: 'Owner app' });
        editorApp = await registerApp(server, editor.key, { name: 'Editor app' });
        // Another account's app never shows up.
        await registerApp(server, (await server.account()).key);
      });

      it('shows everyone their own apps, and admins and owners every app of the account', async () => {
        const ids = async (key: string, query = '') => (await get(`/v1/oauth/apps${query}`, key)).body.data.map((a: TestApp) => a.id);
        assert.deepEqual(await ids(editor.key), [editorApp.id]);
        assert.deepEqual(await ids(account.key), [editorApp.id, ownerApp.id]);
        assert.deepEqual(await ids(admin.key), [editorApp.id, ownerApp.id]);
        assert.deepEqual(await ids(admin.key, `?user_id=${editor.id}`), [editorApp.id]);
        assert.deepEqual(await ids(editor.key, `?user_id=${account.userId}`), []);
        const page = await get('/v1/oauth/apps?limit=1&offset=1', account.key);
        assert.deepEqual(page.body.pagination, { total: 2, limit: 1, offset: 1, has_more: false });
      });

      it("answers 404 for another user's app to a non-admin, and lets an admin manage it", async () => {
        assertError(await get(`/v1/oauth/apps/${ownerApp.id}`, editor.key), 404, 'not_found');
        assertError(await put(`/v1/oauth/apps/${ownerApp.id}`, editor.key, { name: 'Mine now' }), 404, 'not_found');
        assertError(await post(`/v1/oauth/apps/${ownerApp.id}/rotate-secret`, editor.key), 404, 'not_found');
        assertError(await del(`/v1/oauth/apps/${ownerApp.id}`, editor.key), 404, 'not_found');
        assert.equal((await get(`/v1/oauth/apps/${editorApp.id}`, admin.key)).status, 200);
        assert.equal((await put(`/v1/oauth/apps/${editorApp.id}`, admin.key, { name: 'Renamed by admin' })).body.data.name, 'Renamed by admin');
      });

      it("answers 404 for another account's app, even to its owner", async () => {
        const other = await server.account();
        assertError(await get(`/v1/oauth/apps/${ownerApp.id}`, other.key), 404, 'not_found');
        assertError(await del(`/v1/oauth/apps/${ownerApp.id}`, other.key), 404, 'not_found');
      });

      it('needs keys:write: a key without it gets 403', async () => {
        const reader = await addKey(server, account.key, { scopes: ['content:read'] });
        assertError(await get('/v1/oauth/apps', reader.key), 403, 'forbidden');
        assertError(await post('/v1/oauth/apps', reader.key, { name: 'x', redirect_uris: ['https://a.example/'] }), 403, 'forbidden');
        assertError(await get('/v1/oauth/authorizations', reader.key), 403, 'forbidden');
      });
    });

    it('rotates the secret: the new one is shown once, the old one stops working at once; a public app has none (409)', async () => {
      const account = await server.account();
      const app = await registerApp(server, account.key);
      assert.equal((await clientCredentials(server, app)).status, 200);
      const res = await post(`/v1/oauth/apps/${app.id}/rotate-secret`, account.key);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.match(res.body.data.client_secret, /^cms_cs_[0-9A-Za-z]{40}$/);
      assert.notEqual(res.body.data.client_secret, app.client_secret);
      const old = await clientCredentials(server, app);
      assert.equal(old.status, 401, old.text);
      assert.equal(old.body.error, 'invalid_client');
      assert.equal((await clientCredentials(server, { ...app, client_secret: res.body.data.client_secret })).status, 200);

      const pub = await registerApp(server, account.key, { type: 'public' });
      assertError(await post(`/v1/oauth/apps/${pub.id}/rotate-secret`, account.key), 409, 'conflict');
      assert.deepEqual(fieldCodes(await post(`/v1/oauth/apps/${app.id}/rotate-secret`, account.key, { client_secret: 'mine' })), { client_secret: 'unknown_field' });
    });

    it('deletes an app: 204, and every token of it stops working on the very next request', async () => {
      const account = await server.account();
      const app = await registerApp(server, account.key);
      const person = await server.account();
      const machine = (await clientCredentials(server, app, 'content:read')).body.access_token as string;
      const granted = await tokensFor(server, new Jar(server.client), person, app, 'content:read');
      assert.equal((await get('/v1/content', machine)).status, 200);
      assert.equal((await get('/v1/content', granted.access_token)).status, 200);

      assert.equal((await del(`/v1/oauth/apps/${app.id}`, account.key)).status, 204);
      for (const token of [machine, granted.access_token]) {
        const res = await get('/v1/content', token);
        assertError(res, 401, 'unauthorized');
        assert.equal(res.headers['www-authenticate'], 'Bearer error="invalid_token"');
      }
      // The app is gone for the authorization server too.
      const refresh = await postForm(server.client, '/oauth/token', { grant_type: 'refresh_token', refresh_token: granted.refresh_token }, { authorization: basic(app) });
      assert.equal(refresh.status, 401, refresh.text);
      assert.equal(refresh.body.error, 'invalid_client');
      assert.deepEqual((await get('/v1/oauth/authorizations', person.key)).body.data, []);
      assertError(await del(`/v1/oauth/apps/${app.id}`, account.key), 404, 'not_found');
    });

    it('answers a token 403 on /v1/api-keys, /v1/oauth/apps and /v1/oauth/authorizations: it never manages credentials', async () => {
      const account = await server.account();
      const app = await registerApp(server, account.key);
      const token = (await clientCredentials(server, app)).body.access_token as string;
      assert.equal((await get('/v1/content', token)).status, 200);
      for (const res of [
        await get('/v1/api-keys', token),
        await post('/v1/api-keys', token, { name: 'minted' }),
        await get('/v1/oauth/apps', token),
        await post('/v1/oauth/apps', token, { name: 'minted', redirect_uris: ['https://a.example/'] }),
        await get('/v1/oauth/authorizations', token),
      ]) {
        assertError(res, 403, 'forbidden');
      }
    });
  });

  describe(`connected apps (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store);
    });
    after(() => server.close());

    it("lists the caller's own grants with the app's name, and revoking one kills its tokens at once", async () => {
      const maker = await server.account();
      const app = await registerApp(server, maker.key, { name: 'Reader' });
      const person = await server.account();
      const colleague = await addUser(server, person.key, 'editor', { password: 'a long enough password' });
      const colleagueKey = (await addKey(server, person.key, { user_id: colleague.id })).key;
      const jar = new Jar(server.client);
      const tokens = await tokensFor(server, jar, person, app, 'content:read events:read');
      await tokensFor(server, new Jar(server.client), { email: colleague.email, password: 'a long enough password' }, app, 'content:read');

      const list = await server.client.get('/v1/oauth/authorizations', { key: person.key });
      assert.equal(list.status, 200, list.text);
      assert.equal(list.body.data.length, 1, 'only the caller’s own grants, not a colleague’s');
      const grant = list.body.data[0];
      assert.deepEqual(Object.keys(grant).sort(), ['app', 'created_at', 'id', 'last_used_at', 'scopes']);
      assert.match(grant.id, /^grant_[0-9a-z]{26}$/);
      assert.deepEqual(grant.app, { id: app.id, name: 'Reader' });
      assert.deepEqual(grant.scopes, ['content:read', 'events:read']);
      assert.match(grant.created_at, ISO_MS);
      assert.deepEqual(list.body.pagination, { total: 1, limit: 10, offset: 0, has_more: false });

      // The colleague cannot revoke it (their own list does not have it).
      assertError(await server.client.delete(`/v1/oauth/authorizations/${grant.id}`, { key: colleagueKey }), 404, 'not_found');
      assert.equal((await server.client.get('/v1/content', { key: tokens.access_token })).status, 200);
      assert.equal((await server.client.delete(`/v1/oauth/authorizations/${grant.id}`, { key: person.key })).status, 204);
      assertError(await server.client.get('/v1/content', { key: tokens.access_token }), 401, 'unauthorized');
      const refresh = await postForm(server.client, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, { authorization: basic(app) });
      assert.equal(refresh.body.error, 'invalid_grant', refresh.text);
      assert.deepEqual((await server.client.get('/v1/oauth/authorizations', { key: person.key })).body.data, []);
      assertError(await server.client.delete(`/v1/oauth/authorizations/${grant.id}`, { key: person.key }), 404, 'not_found');
    });

    it("records when an app last used a grant (written in batches, at an instance's shutdown at the latest)", async () => {
      const maker = await server.account();
      const app = await registerApp(server, maker.key);
      const person = await server.account();
      const tokens = await tokensFor(server, new Jar(server.client), person, app, 'content:read');
      const grant = async () => (await server.client.get('/v1/oauth/authorizations', { key: person.key })).body.data[0];
      assert.equal((await grant()).last_used_at, null);
      const second = await startSecondInstance(server);
      try {
        const before = new Date().toISOString();
        assert.equal((await second.client.get('/v1/content', { key: tokens.access_token })).status, 200);
        const usedBy = new Date().toISOString();
        await second.close();
        const lastUsed = (await grant()).last_used_at as string;
        assert.match(lastUsed, ISO_MS);
        assert.ok(lastUsed >= before && lastUsed <= usedBy, `${before} <= ${lastUsed} <= ${usedBy}`);
      } finally {
        await second.close();
      }
    });
  });
}
