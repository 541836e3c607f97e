// Delivery keys behind a real caching proxy (Debian's nginx with proxy_cache, started by the test,
// in front of the test server's HTTPS): a second read is a cache hit; each key gets its own cached
// answer (Vary: Authorization); a conditional read is answered 304; a publish shows once the account's
// delivery_cache_seconds have passed; and management keys' answers are never cached.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCachingProxy, type CachingProxy } from './helpers/nginx.js';
import { addKey } from './helpers/people.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

/** A plain GET through the proxy (nginx speaks HTTP on loopback, and HTTPS to the service). */
async function viaProxy(proxy: CachingProxy, path: string, key: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${proxy.url}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
  const text = await res.text();
  return { status: res.status, cache: res.headers.get('x-cache-status'), etag: res.headers.get('etag'), cacheControl: res.headers.get('cache-control'), text, body: text ? JSON.parse(text) : undefined };
}

for (const store of testStores()) {
  describe(`delivery keys through a caching proxy (${store})`, { timeout: 120_000 }, () => {
    let server: TestServer;
    let proxy: CachingProxy;
    before(async () => {
      server = await startServer(store);
      proxy = await startCachingProxy(server.port, path.join(server.dataDir, 'tls-cert.pem'));
    });
    after(async () => {
      await proxy?.close();
      await server?.close();
    });

    it('serves a second read from the cache, each key its own, and a conditional read 304', async () => {
      const owner = await server.account();
      const delivery = await addKey(server, owner.key, { name: 'Site', kind: 'delivery' });
      const item = await server.content(owner.key, { title: 'Cached post', status: 'published' });
      const url = `/v1/content?slug=${item.slug}`;

      const first = await viaProxy(proxy, url, delivery.key);
      assert.equal(first.status, 200, `${first.text} ${await proxy.errors()}`);
      assert.equal(first.cache, 'MISS');
      assert.equal(first.body.data[0].id, item.id);
      const second = await viaProxy(proxy, url, delivery.key);
      assert.equal(second.cache, 'HIT');
      assert.equal(second.text, first.text, 'the stored answer, request id and all');

      // Another delivery key (another site) has its own entry: never the first key's answer.
      const other = await server.account();
      const otherKey = await addKey(server, other.key, { name: 'Other site', kind: 'delivery' });
      const theirs = await viaProxy(proxy, url, otherKey.key);
      assert.equal(theirs.cache, 'MISS');
      assert.deepEqual(theirs.body.data, []);

      const conditional = await viaProxy(proxy, url, delivery.key, { 'if-none-match': first.etag! });
      assert.equal(conditional.status, 304);
      assert.equal(conditional.text, '');
      const single = await viaProxy(proxy, `/v1/content/${item.id}`, delivery.key);
      assert.equal(single.status, 200);
      assert.equal((await viaProxy(proxy, `/v1/content/${item.id}`, delivery.key, { 'if-none-match': single.etag! })).status, 304);

      // A management key's answers say no-store: the proxy keeps none.
      for (let i = 0; i < 2; i++) {
        const managed = await viaProxy(proxy, url, owner.key);
        assert.equal(managed.cacheControl, 'no-store');
        assert.notEqual(managed.cache, 'HIT');
      }
    });

    it('shows a publish once the account\'s delivery_cache_seconds have passed', async () => {
      const owner = await server.account();
      await server.app.accounts.setDeliveryCacheSeconds(owner.accountId, 2);
      const delivery = await addKey(server, owner.key, { name: 'Site', kind: 'delivery' });
      await server.content(owner.key, { title: 'Already out', status: 'published' });
      const draft = await server.content(owner.key, { title: 'Coming soon' });
      const first = await viaProxy(proxy, '/v1/content', delivery.key);
      assert.equal(first.cacheControl, 'public, max-age=2, stale-while-revalidate=600');
      assert.deepEqual(first.body.data.map((i: { title: string }) => i.title), ['Already out']);

      assert.equal((await server.client.put(`/v1/content/${draft.id}`, { key: owner.key, json: { status: 'published' } })).status, 200);
      const soon = await viaProxy(proxy, '/v1/content', delivery.key);
      assert.equal(soon.cache, 'HIT', 'within max-age the cache answers, as the site asked');
      assert.deepEqual(soon.body.data.map((i: { title: string }) => i.title), ['Already out']);

      // nginx counts max-age in whole seconds from the second it stored the answer: 2 s means up to 3.
      await sleep(3500);
      const later = await viaProxy(proxy, '/v1/content', delivery.key);
      assert.notEqual(later.cache, 'HIT');
      assert.deepEqual(later.body.data.map((i: { title: string }) => i.title), ['Coming soon', 'Already out']);
      assert.equal((await viaProxy(proxy, '/v1/content', delivery.key)).cache, 'HIT');
    });
  });
}
