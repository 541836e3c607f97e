// Authentication and scopes on every content route: 401 for missing or bad keys, 403 for keys without the scope.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const UNKNOWN_ID = 'content_01jd2x3m4n5p6q7r8s9t0v1w2x';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A key in the right shape that the service never issued. */
function unissuedKey(): string {
  return `cms_live_${[...randomBytes(40)].map((b) => BASE62[b % 62]).join('')}`;
}

function assertError(res: Response, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code);
  assert.ok(typeof res.body.message === 'string' && res.body.message.length > 0);
  assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
  assert.match(res.body.meta.response_time, /^\d+(\.\d{1,2})?ms$/);
}

function assertUnauthorized(res: Response): void {
  assertError(res, 401, 'unauthorized');
  assert.equal(res.headers['www-authenticate'], 'Bearer');
}

for (const store of testStores()) {
  describe(`content auth (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    let item: Record<string, unknown>;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
      item = await server.content(owner.key, { title: 'Guarded', status: 'published' });
    });
    after(() => server.close());

    /** Every content operation, sent with the given headers (and a valid body where one is needed). */
    function everyRoute(headers: Record<string, string>, id = String(item.id)) {
      const { client } = server;
      return {
        list: () => client.get('/v1/content', { headers }),
        create: () => client.post('/v1/content', { headers, json: { title: 'New', type: 'blog', content: 'x' } }),
        get: () => client.get(`/v1/content/${id}`, { headers }),
        update: () => client.put(`/v1/content/${id}`, { headers, json: { title: 'Changed' } }),
        archive: () => client.post(`/v1/content/${id}/archive`, { headers }),
        remove: () => client.delete(`/v1/content/${id}`, { headers }),
      };
    }

    /** The owner still sees exactly one item, unchanged. */
    async function assertUntouched() {
      const list = await server.client.get('/v1/content', { key: owner.key });
      assert.equal(list.body.pagination.total, 1);
      assert.deepEqual((await server.client.get(`/v1/content/${String(item.id)}`, { key: owner.key })).body.data, item);
    }

    it('answers 401 with WWW-Authenticate: Bearer when Authorization is missing, on every route', async () => {
      for (const [name, send] of Object.entries(everyRoute({}))) {
        const res = await send();
        assertUnauthorized(res);
        assert.match(res.body.message, /Bearer/, name);
      }
      await assertUntouched();
    });

    it('answers 401 to malformed Authorization headers, on every route', async () => {
      const malformed = [
        'Basic dXNlcjpwYXNzd29yZA==',
        'Bearer',
        'Bearer ',
        `Token ${owner.key}`,
        `${owner.key}`,
        `Bearer ${owner.key} extra`,
        'Bearer not-a-key',
        `Bearer ${owner.key.slice(0, -1)}`,
      ];
      for (const authorization of malformed) {
        for (const send of Object.values(everyRoute({ authorization }))) assertUnauthorized(await send());
      }
      await assertUntouched();
    });

    it('answers 401 to a well-formed key that was never issued, on every route', async () => {
      const authorization = `Bearer ${unissuedKey()}`;
      for (const send of Object.values(everyRoute({ authorization }))) assertUnauthorized(await send());
      await assertUntouched();
    });

    it('accepts the Bearer scheme in any letter case', async () => {
      const res = await server.client.get(`/v1/content/${String(item.id)}`, { headers: { authorization: `bearer ${owner.key}` } });
      assert.equal(res.status, 200);
      assert.equal(res.body.data.id, item.id);
    });

    describe('a key with scope content:read only', () => {
      let readKey: string;
      before(async () => {
        readKey = (await server.app.accounts.createKeyForUser(owner.userId, 'read only', ['content:read'])).api_key;
      });

      it('can list and read', async () => {
        const routes = everyRoute({ authorization: `Bearer ${readKey}` });
        const list = await routes.list();
        assert.equal(list.status, 200);
        assert.deepEqual(list.body.data.map((i: { id: string }) => i.id), [item.id]);
        const got = await routes.get();
        assert.equal(got.status, 200);
        assert.deepEqual(got.body.data, item);
      });

      it('gets 403 forbidden on create, update, archive and delete, and changes nothing', async () => {
        const routes = everyRoute({ authorization: `Bearer ${readKey}` });
        for (const send of [routes.create, routes.update, routes.archive, routes.remove]) assertError(await send(), 403, 'forbidden');
        await assertUntouched();
      });

      it('gets 403 before body validation and before the existence check', async () => {
        const headers = { authorization: `Bearer ${readKey}` };
        assertError(await server.client.post('/v1/content', { headers, json: { title: '' } }), 403, 'forbidden');
        assertError(await server.client.put(`/v1/content/${String(item.id)}`, { headers, json: {} }), 403, 'forbidden');
        const unknown = everyRoute(headers, UNKNOWN_ID);
        for (const send of [unknown.update, unknown.archive, unknown.remove]) assertError(await send(), 403, 'forbidden');
        await assertUntouched();
      });

      it('still gets 415 and 400 for a bad body before the permission check', async () => {
        const headers = { authorization: `Bearer ${readKey}` };
        assertError(await server.client.post('/v1/content', { raw: 'x', headers: { ...headers, 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
        assertError(await server.client.post('/v1/content', { raw: '{', headers: { ...headers, 'content-type': 'application/json' } }), 400, 'invalid_json');
      });
    });

    describe('a key without content:read', () => {
      it('gets 403 on list and read, before query validation', async () => {
        const { api_key: key } = await server.app.accounts.createKeyForUser(owner.userId, 'users only', ['users:read']);
        assertError(await server.client.get('/v1/content', { key }), 403, 'forbidden');
        assertError(await server.client.get('/v1/content?limit=0&bogus=1', { key }), 403, 'forbidden');
        assertError(await server.client.get(`/v1/content/${String(item.id)}`, { key }), 403, 'forbidden');
      });
    });

    it('gives a key created without scopes every scope of its role', async () => {
      const { api_key: key } = await server.app.accounts.createKeyForUser(owner.userId, 'full');
      const created = await server.client.post('/v1/content', { key, json: { title: 'Via second key', type: 'blog', content: 'x' } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.data.author, owner.userId);
      assert.equal((await server.client.delete(`/v1/content/${String(created.body.data.id)}`, { key })).status, 204);
      await assertUntouched();
    });
  });
}
