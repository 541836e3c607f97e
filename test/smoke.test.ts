// The walk-through a newcomer runs: create, get, list, update, archive, delete, over real HTTPS.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

for (const store of testStores()) {
  describe(`content walk-through (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
    });
    after(() => server.close());

    it('creates, reads, lists, updates, archives and deletes an item', async () => {
      const { client } = server;
      const created = await client.post('/v1/content', { key: owner.key, json: { title: 'Launch plan', type: 'strategy', content: '# Q1' } });
      assert.equal(created.status, 201);
      const id = created.body.data.id as string;
      assert.match(id, /^content_[0-9a-z]{26}$/);
      assert.equal(created.headers.location, `/v1/content/${id}`);
      assert.equal(created.headers.etag, '"1"');
      assert.equal(created.body.data.status, 'draft');
      assert.equal(created.body.data.author, owner.userId);
      assert.equal(created.body.meta.request_id, created.headers['x-request-id']);

      const got = await client.get(`/v1/content/${id}`, { key: owner.key });
      assert.equal(got.status, 200);
      assert.deepEqual(got.body.data, created.body.data);

      const listed = await client.get('/v1/content?type=strategy', { key: owner.key });
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.body.pagination, { total: 1, limit: 10, offset: 0, has_more: false, next_cursor: null });
      assert.deepEqual(Object.keys(listed.body.data[0]).sort(), ['author', 'created_at', 'fields', 'id', 'slug', 'status', 'title', 'type', 'updated_at']);

      const updated = await client.put(`/v1/content/${id}`, { key: owner.key, json: { status: 'published' }, headers: { 'if-match': '"1"' } });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.data.version, 2);
      assert.equal(updated.body.data.title, 'Launch plan');
      assert.ok(updated.body.data.published_at);

      const archived = await client.post(`/v1/content/${id}/archive`, { key: owner.key });
      assert.equal(archived.status, 200);
      assert.equal(archived.body.data.status, 'archived');

      const deleted = await client.delete(`/v1/content/${id}`, { key: owner.key });
      assert.equal(deleted.status, 204);
      assert.equal(deleted.text, '');
      assert.equal((await client.get(`/v1/content/${id}`, { key: owner.key })).status, 404);
      assert.equal((await client.delete(`/v1/content/${id}`, { key: owner.key })).status, 404);
    });
  });
}
