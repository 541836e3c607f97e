// Conditional reads (CONTRACT.md §19): If-None-Match on an item and on a list page answers 304 with
// no body and the same ETag; a list's weak ETag changes exactly when its page would; and a 304 counts
// toward the hourly limit but never toward the monthly quota.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { addUser } from './helpers/people.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

function assertNotModified(res: Response, etag: string): void {
  assert.equal(res.status, 304, res.text);
  assert.equal(res.text, '', 'no body');
  assert.equal(res.headers.etag, etag, 'the same ETag');
  assert.equal(res.headers['content-type'], undefined);
}

for (const store of testStores()) {
  describe(`conditional reads (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store);
    });
    after(() => server.close());

    it('answers an item 304 while its ETag still matches, and 200 once it changed', async () => {
      const { key } = await server.account();
      const item = await server.content(key, { title: 'Conditional' });
      const first = await server.client.get(`/v1/content/${item.id}`, { key });
      assert.equal(first.headers.etag, '"1"');
      assertNotModified(await server.client.get(`/v1/content/${item.id}`, { key, headers: { 'if-none-match': '"1"' } }), '"1"');
      // Weak comparison, lists of tags and * (RFC 9110 §13.1.2).
      assertNotModified(await server.client.get(`/v1/content/${item.id}`, { key, headers: { 'if-none-match': 'W/"1"' } }), '"1"');
      assertNotModified(await server.client.get(`/v1/content/${item.id}`, { key, headers: { 'if-none-match': '"7", "1"' } }), '"1"');
      assertNotModified(await server.client.get(`/v1/content/${item.id}`, { key, headers: { 'if-none-match': '*' } }), '"1"');
      assert.equal((await server.client.get(`/v1/content/${item.id}`, { key, headers: { 'if-none-match': '"2"' } })).status, 200);

      assert.equal((await server.client.put(`/v1/content/${item.id}`, { key, json: { title: 'Changed' } })).status, 200);
      const changed = await server.client.get(`/v1/content/${item.id}`, { key, headers: { 'if-none-match': '"1"' } });
      assert.equal(changed.status, 200);
      assert.equal(changed.headers.etag, '"2"');
      assert.equal(changed.body.data.title, 'Changed');
      // Not for writes: If-None-Match is a read's condition here.
      const put = await server.client.put(`/v1/content/${item.id}`, { key, json: { title: 'Again' }, headers: { 'if-none-match': '"2"' } });
      assert.equal(put.status, 200);
    });

    it('gives list pages a weak ETag that changes exactly when the page would', async () => {
      const { key } = await server.account();
      await server.content(key, { title: 'Blog one', type: 'blog' });
      const page = await server.client.get('/v1/content?type=blog', { key });
      const tag = page.headers.etag as string;
      assert.match(tag, /^W\/"[A-Za-z0-9_-]+"$/);
      assertNotModified(await server.client.get('/v1/content?type=blog', { key, headers: { 'if-none-match': tag } }), tag);

      // Changes elsewhere in the account that this page does not show leave its tag alone…
      await server.content(key, { title: 'A manual', type: 'manual' });
      await addUser(server, key, 'viewer');
      assertNotModified(await server.client.get('/v1/content?type=blog', { key, headers: { 'if-none-match': tag } }), tag);
      // …another page of the same list has its own…
      const other = await server.client.get('/v1/content?type=blog&limit=1&offset=1', { key });
      assert.notEqual(other.headers.etag, tag);
      // …and a change the page shows gives it a new one.
      await server.content(key, { title: 'Blog two', type: 'blog' });
      const after = await server.client.get('/v1/content?type=blog', { key, headers: { 'if-none-match': tag } });
      assert.equal(after.status, 200);
      assert.notEqual(after.headers.etag, tag);
      assert.equal(after.body.data.length, 2);
      // The same page gets the same tag from any instance, and whether or not it was cached.
      assert.equal((await server.client.get('/v1/content?type=blog', { key })).headers.etag, after.headers.etag);
    });

    it('counts a 304 toward the hourly limit and never toward the quota', async () => {
      // 3 requests of quota (the item made below spends one), 12 an hour.
      const owner = await server.account({ plan: 'free', quota: 3, rateLimit: 12 });
      const item = await server.content(owner.key);
      const conditional = () => server.client.get(`/v1/content/${item.id}`, { key: owner.key, headers: { 'if-none-match': '"1"' } });
      let remaining = Number((await conditional()).headers['x-ratelimit-remaining']);
      for (let i = 0; i < 6; i++) {
        const res = await conditional();
        assert.equal(res.status, 304);
        const now = Number(res.headers['x-ratelimit-remaining']);
        assert.equal(now, remaining - 1, 'each 304 counts toward the hourly limit');
        remaining = now;
      }
      // Eight requests so far, one of them a 2xx (the create): the quota still has two.
      assert.equal((await server.client.get(`/v1/content/${item.id}`, { key: owner.key })).status, 200);
      assert.equal((await server.client.get('/v1/content', { key: owner.key })).status, 200);
      const spent = await server.client.get('/v1/content', { key: owner.key });
      assert.equal(spent.status, 429);
      assert.equal(spent.body.code, 'quota_exceeded');
    });
  });
}
