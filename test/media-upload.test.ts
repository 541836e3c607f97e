// Uploading media: 201 with the record, the type read from the bytes, dimensions, sha256, events,
// storage in GET /v1/usage, listing, changing and deleting (CONTRACT.md §18).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { multipart, PDF, png, type Part } from './helpers/multipart.js';

const FIELDS = ['alt', 'content_type', 'created_at', 'created_by', 'filename', 'height', 'id', 'public', 'sha256', 'size', 'title', 'updated_at', 'url', 'used_by', 'version', 'width'];

for (const store of testStores()) {
  describe(`media upload (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
    });
    after(() => server.close());

    const upload = (parts: Part[], key = owner.key) => {
      const { body, headers } = multipart(parts);
      return server.client.post('/v1/media', { key, raw: body, headers });
    };

    it('stores a PNG: 201, Location, ETag, the record with its real type, size, sha256 and dimensions', async () => {
      const bytes = await png(64, 48);
      const res = await upload([{ name: 'file', value: bytes, filename: 'chart.png', type: 'application/octet-stream' }, { name: 'alt', value: 'A chart' }, { name: 'title', value: 'Chart' }]);
      assert.equal(res.status, 201, res.text);
      const record = res.body.data;
      assert.deepEqual(Object.keys(record).sort(), FIELDS);
      assert.match(record.id, /^media_[0-9a-z]{26}$/);
      assert.equal(res.headers.location, `/v1/media/${record.id}`);
      assert.equal(res.headers.etag, '"1"');
      assert.equal(record.content_type, 'image/png');
      assert.equal(record.size, bytes.length);
      assert.equal(record.sha256, createHash('sha256').update(bytes).digest('hex'));
      assert.deepEqual([record.width, record.height], [64, 48]);
      assert.equal(record.alt, 'A chart');
      assert.equal(record.title, 'Chart');
      assert.equal(record.public, false);
      assert.equal(record.url, null);
      assert.deepEqual(record.used_by, []);
      assert.equal(record.created_by, owner.userId);
      const got = await server.client.get(`/v1/media/${record.id}`, { key: owner.key });
      assert.equal(got.status, 200);
      assert.deepEqual(got.body.data, record);
      const events = await server.client.get('/v1/events', { key: owner.key });
      const created = events.body.data.find((e: { type: string }) => e.type === 'media.created');
      assert.deepEqual(created.data, record);
    });

    it('reads a PDF, plain text and an SVG with its viewBox size; document and image kinds filter the list', async () => {
      const pdf = await upload([{ name: 'file', value: PDF, filename: 'paper.pdf', type: 'image/png' }]);
      assert.equal(pdf.status, 201, pdf.text);
      assert.equal(pdf.body.data.content_type, 'application/pdf');
      assert.equal(pdf.body.data.width, null);
      const text = await upload([{ name: 'file', value: 'Hello, wörld\n', filename: 'notes.txt' }]);
      assert.equal(text.body.data.content_type, 'text/plain');
      const svg = await upload([{ name: 'file', value: '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 80"><rect width="10" height="10"/></svg>', filename: 'logo.svg' }]);
      assert.equal(svg.status, 201, svg.text);
      assert.equal(svg.body.data.content_type, 'image/svg+xml');
      assert.deepEqual([svg.body.data.width, svg.body.data.height], [120, 80]);
      const documents = await server.client.get('/v1/media?type=document', { key: owner.key });
      assert.deepEqual(documents.body.data.map((m: { id: string }) => m.id), [text.body.data.id, pdf.body.data.id]);
      const found = await server.client.get('/v1/media?q=LOGO', { key: owner.key });
      assert.deepEqual(found.body.data.map((m: { id: string }) => m.id), [svg.body.data.id]);
    });

    it('pages newest first by offset and by cursor', async () => {
      const account = await server.account();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.unshift((await upload([{ name: 'file', value: `file ${i}\n`, filename: `f${i}.txt` }], account.key)).body.data.id);
      const first = await server.client.get('/v1/media?limit=2', { key: account.key });
      assert.equal(first.body.pagination.total, 5);
      assert.equal(first.body.pagination.has_more, true);
      assert.deepEqual(first.body.data.map((m: { id: string }) => m.id), ids.slice(0, 2));
      const second = await server.client.get(`/v1/media?limit=2&cursor=${first.body.pagination.next_cursor}`, { key: account.key });
      assert.equal(second.body.pagination.offset, null);
      assert.deepEqual(second.body.data.map((m: { id: string }) => m.id), ids.slice(2, 4));
      const byOffset = await server.client.get('/v1/media?limit=2&offset=4', { key: account.key });
      assert.deepEqual(byOffset.body.data.map((m: { id: string }) => m.id), ids.slice(4));
      assert.equal(byOffset.body.pagination.has_more, false);
      const both = await server.client.get(`/v1/media?offset=0&cursor=${first.body.pagination.next_cursor}`, { key: account.key });
      assert.equal(both.status, 400);
    });

    it('counts storage in GET /v1/usage; a deletion frees its bytes at once', async () => {
      const account = await server.account({ plan: 'free' });
      const before = await server.client.get('/v1/usage', { key: account.key });
      assert.deepEqual(before.body.data.storage, { used_bytes: 0, quota_bytes: 100 * 1024 * 1024 });
      const bytes = await png(10, 10);
      const res = await upload([{ name: 'file', value: bytes, filename: 'a.png' }], account.key);
      const usage = await server.client.get('/v1/usage', { key: account.key });
      assert.equal(usage.body.data.storage.used_bytes, bytes.length);
      const deleted = await server.client.delete(`/v1/media/${res.body.data.id}`, { key: account.key });
      assert.equal(deleted.status, 204);
      const after = await server.client.get('/v1/usage', { key: account.key });
      assert.equal(after.body.data.storage.used_bytes, 0);
      assert.equal((await server.client.get(`/v1/media/${res.body.data.id}`, { key: account.key })).status, 404);
    });

    it('changes alt, title, filename and public with If-Match; public media get a url', async () => {
      const res = await upload([{ name: 'file', value: await png(8, 8), filename: 'x.png' }]);
      const id = res.body.data.id;
      const stale = await server.client.put(`/v1/media/${id}`, { key: owner.key, json: { alt: 'new' }, headers: { 'if-match': '"9"' } });
      assert.equal(stale.status, 412);
      const changed = await server.client.put(`/v1/media/${id}`, { key: owner.key, json: { alt: 'new', public: true, filename: 'y.png' }, headers: { 'if-match': '"1"' } });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(changed.headers.etag, '"2"');
      assert.equal(changed.body.data.url, `${server.baseUrl}/media/${id}/y.png`);
      const empty = await server.client.put(`/v1/media/${id}`, { key: owner.key, json: {} });
      assert.equal(empty.status, 422);
      assert.equal(empty.body.errors[0].code, 'empty_update');
    });

    it('keeps accounts apart and follows the roles: viewers read, authors change only their own', async () => {
      const res = await upload([{ name: 'file', value: 'mine\n', filename: 'm.txt' }]);
      const other = await server.account();
      assert.equal((await server.client.get(`/v1/media/${res.body.data.id}`, { key: other.key })).status, 404);
      const author = await server.client.post('/v1/users', { key: owner.key, json: { email: `a${Date.now()}@example.com`, name: 'Au', role: 'author' } });
      assert.equal(author.status, 201, author.text);
      const viewer = await server.client.post('/v1/users', { key: owner.key, json: { email: `v${Date.now()}@example.com`, name: 'Vi', role: 'viewer' } });
      const authorKey = (await server.app.accounts.createKeyForUser(author.body.data.id, 'k')).api_key;
      const viewerKey = (await server.app.accounts.createKeyForUser(viewer.body.data.id, 'k')).api_key;
      assert.equal((await server.client.get(`/v1/media/${res.body.data.id}`, { key: viewerKey })).status, 200);
      assert.equal((await upload([{ name: 'file', value: 'v\n', filename: 'v.txt' }], viewerKey)).status, 403);
      assert.equal((await server.client.put(`/v1/media/${res.body.data.id}`, { key: authorKey, json: { alt: 'x' } })).status, 403);
      const own = await upload([{ name: 'file', value: 'a\n', filename: 'a.txt' }], authorKey);
      assert.equal(own.status, 201);
      assert.equal((await server.client.put(`/v1/media/${own.body.data.id}`, { key: authorKey, json: { alt: 'x' } })).status, 200);
    });
  });
}
