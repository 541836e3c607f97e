// Single items are served from a per-instance cache (ITEM_CACHE_MB), validated like the list page
// cache by the account's event sequence: a client never reads an item older than a change made on
// any instance, never another account's item, and /metrics shows the hits and misses.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config.js';
import { startSecondInstance, type SecondInstance } from './helpers/instance.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

/** The value of `name{cache="<cache>"}` in the Prometheus text of /metrics. */
async function cacheSample(server: TestServer, name: string, cache: string): Promise<number> {
  const text = (await server.client.get('/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{cache="${cache}"}`));
  assert.ok(line, `${name}{cache="${cache}"} is in /metrics`);
  return Number(line.split(' ').at(-1));
}

for (const store of testStores()) {
  describe(`single-item read cache (${store})`, () => {
    let server: TestServer;
    let second: SecondInstance;
    before(async () => {
      server = await startServer(store);
      second = await startSecondInstance(server);
    });
    after(async () => {
      await second.close();
      await server.close();
    });

    it('serves a repeated read from the cache, and counts it in /metrics', async () => {
      const { key } = await server.account();
      const item = await server.content(key, { title: 'Cached' });
      const hitsBefore = await cacheSample(server, 'cms_cache_hits_total', 'content_item');
      const missesBefore = await cacheSample(server, 'cms_cache_misses_total', 'content_item');
      for (let i = 0; i < 3; i++) {
        const res = await server.client.get(`/v1/content/${String(item.id)}`, { key });
        assert.equal(res.status, 200);
        assert.equal(res.body.data.title, 'Cached');
        assert.equal(res.headers.etag, '"1"');
        assert.equal(res.body.meta.request_id, res.headers['x-request-id'], 'each answer has its own meta');
        assert.match(res.body.meta.response_time, /^\d+\.\d{2}ms$/);
        assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/);
      }
      assert.equal(await cacheSample(server, 'cms_cache_misses_total', 'content_item'), missesBefore + 1);
      assert.equal(await cacheSample(server, 'cms_cache_hits_total', 'content_item'), hitsBefore + 2);
      assert.ok((await cacheSample(server, 'cms_cache_entries', 'content_item')) >= 1);
      assert.ok((await cacheSample(server, 'cms_cache_bytes', 'content_item')) > 0);
    });

    it('gives every answer from a cached list page its own meta, and the same data', async () => {
      const { key } = await server.account();
      await server.content(key, { title: 'Listed' });
      const first = await server.client.get('/v1/content?limit=5', { key });
      const second = await server.client.get('/v1/content?limit=5', { key });
      for (const res of [first, second]) {
        assert.equal(res.status, 200);
        assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
      }
      assert.notEqual(first.body.meta.request_id, second.body.meta.request_id);
      assert.deepEqual(second.body.data, first.body.data);
      assert.deepEqual(second.body.pagination, first.body.pagination);
      assert.deepEqual(Object.keys(second.body), ['data', 'pagination', 'meta']);
    });

    it('never answers with an item older than a change made on this instance', async () => {
      const { key } = await server.account();
      const item = await server.content(key, { title: 'Before' });
      const id = String(item.id);
      assert.equal((await server.client.get(`/v1/content/${id}`, { key })).body.data.title, 'Before');
      assert.equal((await server.client.put(`/v1/content/${id}`, { key, json: { title: 'After' } })).status, 200);
      const res = await server.client.get(`/v1/content/${id}`, { key });
      assert.equal(res.body.data.title, 'After');
      assert.equal(res.body.data.version, 2);
      assert.equal(res.headers.etag, '"2"');
      assert.equal((await server.client.delete(`/v1/content/${id}`, { key })).status, 204);
      assert.equal((await server.client.get(`/v1/content/${id}`, { key })).status, 404);
    });

    it('never answers with an item older than a change made on another instance', async () => {
      const { key } = await server.account();
      const item = await server.content(key, { title: 'Here' });
      const id = String(item.id);
      assert.equal((await server.client.get(`/v1/content/${id}`, { key })).body.data.title, 'Here');
      assert.equal((await second.client.put(`/v1/content/${id}`, { key, json: { title: 'There' } })).status, 200);
      assert.equal((await server.client.get(`/v1/content/${id}`, { key })).body.data.title, 'There');
      assert.equal((await second.client.post(`/v1/content/${id}/archive`, { key })).status, 200);
      assert.equal((await server.client.get(`/v1/content/${id}`, { key })).body.data.status, 'archived');
    });

    it("never serves one account's cached item to another", async () => {
      const a = await server.account();
      const b = await server.account();
      const item = await server.content(a.key);
      assert.equal((await server.client.get(`/v1/content/${String(item.id)}`, { key: a.key })).status, 200);
      const res = await server.client.get(`/v1/content/${String(item.id)}`, { key: b.key });
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'not_found');
    });
  });
}

describe('single-item read cache turned off (ITEM_CACHE_MB=0)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite', { env: { ITEM_CACHE_MB: '0' } });
  });
  after(() => server.close());

  it('reads the store every time', async () => {
    const { key } = await server.account();
    const item = await server.content(key);
    for (let i = 0; i < 3; i++) assert.equal((await server.client.get(`/v1/content/${String(item.id)}`, { key })).status, 200);
    assert.equal(await cacheSample(server, 'cms_cache_hits_total', 'content_item'), 0);
    assert.equal(await cacheSample(server, 'cms_cache_entries', 'content_item'), 0);
  });

  it('refuses a size that is not a whole number of megabytes, in one clear line', () => {
    assert.throws(() => loadConfig({ DATA_DIR: server.dataDir, ITEM_CACHE_MB: 'lots' }), /ITEM_CACHE_MB/);
  });
});
