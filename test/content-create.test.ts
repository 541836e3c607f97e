// Creating content items: status 201, Location, ETag, the exact fields of the item, defaults and limits that pass.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const FULL_FIELDS = ['author', 'content', 'created_at', 'fields', 'id', 'publish_at', 'published_at', 'slug', 'status', 'title', 'type', 'unpublish_at', 'updated_at', 'version'];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MiB = 1024 * 1024;

/** Asserts a 201 create response and returns its item. */
function created(res: Response): Record<string, unknown> {
  assert.equal(res.status, 201, res.text);
  assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/);
  const item = res.body.data as Record<string, unknown>;
  assert.equal(res.headers.location, `/v1/content/${String(item.id)}`);
  assert.equal(res.headers.etag, '"1"');
  assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
  assert.match(res.body.meta.response_time, /^\d+(\.\d{1,2})?ms$/);
  return item;
}

for (const store of testStores()) {
  describe(`content create (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
    });
    after(() => server.close());

    const create = (json: unknown) => server.client.post('/v1/content', { key: owner.key, json });
    const get = (id: unknown) => server.client.get(`/v1/content/${String(id)}`, { key: owner.key });

    it('returns 201 with Location, ETag "1" and exactly the full item', async () => {
      const before = new Date().toISOString();
      const res = await create({ title: 'Launch plan', type: 'strategy', content: '# Q1\n\nShip it.' });
      const after = new Date().toISOString();
      const item = created(res);

      assert.deepEqual(Object.keys(item).sort(), FULL_FIELDS);
      assert.match(String(item.id), /^content_[0-9a-z]{26}$/);
      assert.equal(item.title, 'Launch plan');
      assert.equal(item.type, 'strategy');
      assert.equal(item.content, '# Q1\n\nShip it.');
      assert.equal(item.status, 'draft');
      assert.equal(item.author, owner.userId);
      assert.match(String(item.created_at), TIMESTAMP);
      assert.ok(String(item.created_at) >= before && String(item.created_at) <= after, `${String(item.created_at)} not in [${before}, ${after}]`);
      assert.equal(item.updated_at, item.created_at);
      assert.equal(item.published_at, null);
      assert.equal(item.version, 1);

      const got = await get(item.id);
      assert.equal(got.status, 200);
      assert.equal(got.headers.etag, '"1"');
      assert.deepEqual(got.body.data, item);
    });

    it('gives every new item its own id', async () => {
      const ids = new Set<unknown>();
      for (let i = 0; i < 5; i++) ids.add(created(await create({ title: `Item ${i}`, type: 'blog', content: 'x' })).id);
      assert.equal(ids.size, 5);
    });

    it('defaults status to draft and accepts an explicit draft', async () => {
      const implicit = created(await create({ title: 'Implicit', type: 'blog', content: 'x' }));
      const explicit = created(await create({ title: 'Explicit', type: 'blog', content: 'x', status: 'draft' }));
      for (const item of [implicit, explicit]) {
        assert.equal(item.status, 'draft');
        assert.equal(item.published_at, null);
      }
    });

    it('sets published_at to the creation time when created published', async () => {
      const item = created(await create({ title: 'Out now', type: 'manual', content: 'x', status: 'published' }));
      assert.equal(item.status, 'published');
      assert.match(String(item.published_at), TIMESTAMP);
      assert.equal(item.published_at, item.created_at);
      assert.deepEqual((await get(item.id)).body.data, item);
    });

    it('accepts each of the four types', async () => {
      for (const type of ['blog', 'manual', 'whitepaper', 'strategy']) {
        const item = created(await create({ title: `A ${type}`, type, content: 'x' }));
        assert.equal(item.type, type);
        assert.equal((await get(item.id)).body.data.type, type);
      }
    });

    it('stores title and Markdown content exactly as sent, Unicode included', async () => {
      const title = '  Ünïcødé — 日本語 🚀  ';
      const content = '# Heading\r\n\n* list\n\t`code` 👩‍💻 "quoted" \\ end';
      const item = created(await create({ title, type: 'blog', content }));
      assert.equal(item.title, title);
      assert.equal(item.content, content);
      const got = await get(item.id);
      assert.equal(got.body.data.title, title);
      assert.equal(got.body.data.content, content);
    });

    it('accepts a title of exactly 200 characters, and of 200 astral code points', async () => {
      const ascii = 'a'.repeat(200);
      const emoji = '😀'.repeat(200); // 400 UTF-16 units, 800 bytes: still 200 characters
      for (const title of [ascii, emoji]) {
        const item = created(await create({ title, type: 'blog', content: 'x' }));
        assert.equal((await get(item.id)).body.data.title, title);
      }
    });

    it('accepts content of exactly 1 MiB of UTF-8, counted in bytes', async () => {
      const ascii = 'a'.repeat(MiB);
      const twoByte = 'é'.repeat(MiB / 2); // 524,288 characters, 1 MiB of UTF-8
      for (const content of [ascii, twoByte]) {
        const item = created(await create({ title: 'Big', type: 'whitepaper', content }));
        const got = await get(item.id);
        assert.equal(Buffer.byteLength(got.body.data.content, 'utf8'), MiB);
        assert.equal(got.body.data.content, content);
      }
    });

    it('accepts a charset parameter on the JSON content type', async () => {
      const res = await server.client.post('/v1/content', {
        key: owner.key,
        raw: JSON.stringify({ title: 'Charset', type: 'blog', content: 'x' }),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      assert.equal(created(res).title, 'Charset');
    });
  });
}
