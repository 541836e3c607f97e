// Delivery keys (CONTRACT.md §19): `kind: "delivery"` makes a read-only `cms_live_dlv_…` key that
// sees published items only (lists forced to published, a draft's id is 404), is refused everywhere
// else (403, the WebSocket upgrade included), gets public caching headers with Vary: Authorization
// (max-age from the account's delivery_cache_seconds), and has its own line in GET /v1/usage.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addKey } from './helpers/people.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { refusedUpgrade } from './helpers/ws.js';

for (const store of testStores()) {
  describe(`delivery keys (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store);
    });
    after(() => server.close());

    async function site() {
      const owner = await server.account();
      const delivery = await addKey(server, owner.key, { name: 'Website', kind: 'delivery' });
      const published = await server.content(owner.key, { title: 'Live post', status: 'published' });
      const draft = await server.content(owner.key, { title: 'Draft post' });
      const archived = await server.content(owner.key, { title: 'Old post', status: 'published' });
      assert.equal((await server.client.post(`/v1/content/${archived.id}/archive`, { key: owner.key })).status, 200);
      return { owner, delivery, published, draft, archived };
    }

    it('makes a read-only cms_live_dlv_ key whose record says its kind', async () => {
      const owner = await server.account();
      const created = await server.client.post('/v1/api-keys', { key: owner.key, json: { name: 'Website', kind: 'delivery' } });
      assert.equal(created.status, 201, created.text);
      const key = created.body.data;
      assert.match(key.key, /^cms_live_dlv_[0-9A-Za-z]{40}$/);
      assert.equal(key.kind, 'delivery');
      assert.deepEqual(key.scopes, ['content:read']);
      assert.equal(key.prefix, key.key.slice(0, 16), 'the prefix shows three characters past cms_live_dlv_');
      const listed = await server.client.get('/v1/api-keys', { key: owner.key });
      const kinds = Object.fromEntries(listed.body.data.map((k: { id: string; kind: string }) => [k.id, k.kind]));
      assert.equal(kinds[key.id], 'delivery');
      assert.ok(Object.values(kinds).includes('management'), 'other keys are management keys');
      // Revoked like any other key.
      assert.equal((await server.client.delete(`/v1/api-keys/${key.id}`, { key: owner.key })).status, 204);
      assert.equal((await server.client.get('/v1/content', { key: key.key })).status, 401);
    });

    it('refuses a delivery key any scope but content:read', async () => {
      const owner = await server.account();
      const res = await server.client.post('/v1/api-keys', { key: owner.key, json: { name: 'Website', kind: 'delivery', scopes: ['content:read', 'content:write'] } });
      assert.equal(res.status, 422, res.text);
      assert.deepEqual(res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]), [['scopes[1]', 'invalid_value']]);
      const kind = await server.client.post('/v1/api-keys', { key: owner.key, json: { name: 'Website', kind: 'reader' } });
      assert.equal(kind.status, 422);
      assert.equal(kind.body.errors[0].field, 'kind');
    });

    it('shows published items only, whatever status is asked for', async () => {
      const { owner, delivery, published, draft, archived } = await site();
      for (const query of ['', '?status=draft', '?status=archived', '?status=published']) {
        const res = await server.client.get(`/v1/content${query}`, { key: delivery.key });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.data.map((i: { id: string }) => i.id), [published.id], query);
        assert.equal(res.body.pagination.total, 1);
      }
      assert.equal((await server.client.get(`/v1/content/${published.id}`, { key: delivery.key })).status, 200);
      for (const hidden of [draft, archived]) {
        const res = await server.client.get(`/v1/content/${hidden.id}`, { key: delivery.key });
        assert.equal(res.status, 404);
        assert.equal(res.body.code, 'not_found');
      }
      // Once published, it is there (no cache of this service hides it).
      assert.equal((await server.client.put(`/v1/content/${draft.id}`, { key: owner.key, json: { status: 'published' } })).status, 200);
      assert.equal((await server.client.get(`/v1/content/${draft.id}`, { key: delivery.key })).status, 200);
      assert.equal((await server.client.get('/v1/content', { key: delivery.key })).body.pagination.total, 2);
    });

    it('is refused everywhere else with 403, the WebSocket upgrade included', async () => {
      const { delivery, published } = await site();
      const refused = [
        await server.client.post('/v1/content', { key: delivery.key, json: { title: 'x', type: 'blog', content: 'x' } }),
        await server.client.put(`/v1/content/${published.id}`, { key: delivery.key, json: { title: 'x' } }),
        await server.client.delete(`/v1/content/${published.id}`, { key: delivery.key }),
        await server.client.post(`/v1/content/${published.id}/preview`, { key: delivery.key }),
        await server.client.get(`/v1/content/${published.id}/revisions`, { key: delivery.key }),
        await server.client.get('/v1/users', { key: delivery.key }),
        await server.client.get('/v1/api-keys', { key: delivery.key }),
        await server.client.get('/v1/usage', { key: delivery.key }),
        await server.client.get('/v1/events', { key: delivery.key }),
        await server.client.get('/v1/webhooks', { key: delivery.key }),
      ];
      for (const res of refused) {
        assert.equal(res.status, 403, res.text);
        assert.equal(res.body.code, 'forbidden');
        assert.match(res.body.message, /delivery key/);
      }
      const upgrade = await refusedUpgrade(server, delivery.key);
      assert.equal(upgrade.status, 403);
      assert.equal(upgrade.body.code, 'forbidden');
    });

    it('sends public caching headers with Vary: Authorization, max-age from the account', async () => {
      const { owner, delivery, published } = await site();
      const item = await server.client.get(`/v1/content/${published.id}`, { key: delivery.key });
      assert.equal(item.headers['cache-control'], 'public, max-age=60, stale-while-revalidate=600');
      assert.equal(item.headers.vary, 'Authorization');
      const list = await server.client.get('/v1/content', { key: delivery.key });
      assert.equal(list.headers['cache-control'], 'public, max-age=60, stale-while-revalidate=600');
      const notModified = await server.client.get(`/v1/content/${published.id}`, { key: delivery.key, headers: { 'if-none-match': item.headers.etag as string } });
      assert.equal(notModified.status, 304);
      assert.equal(notModified.headers['cache-control'], 'public, max-age=60, stale-while-revalidate=600');
      assert.equal(notModified.headers.vary, 'Authorization');
      // Errors and management keys' answers are never stored.
      assert.equal((await server.client.get('/v1/content/content_01jd2x3m4n5p6q7r8s9t0v1w2x', { key: delivery.key })).headers['cache-control'], 'no-store');
      assert.equal((await server.client.get(`/v1/content/${published.id}`, { key: owner.key })).headers['cache-control'], 'no-store');

      await server.app.accounts.setDeliveryCacheSeconds(owner.accountId, 5);
      // The account's terms come with the key, re-read within a second.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const shorter = await server.client.get(`/v1/content/${published.id}`, { key: delivery.key });
      assert.equal(shorter.headers['cache-control'], 'public, max-age=5, stale-while-revalidate=600');
    });

    it('has its own line in the account usage', async () => {
      const { owner, delivery } = await site();
      for (let i = 0; i < 3; i++) assert.equal((await server.client.get('/v1/content', { key: delivery.key })).status, 200);
      const usage = await server.client.get('/v1/usage', { key: owner.key });
      const line = usage.body.data.keys.find((k: { key_id: string }) => k.key_id === delivery.id);
      assert.deepEqual(line, { key_id: delivery.id, name: 'Website', used: 3 });
    });
  });
}
