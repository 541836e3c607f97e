// Revisions (CONTRACT.md §17): every version listed newest first with who made it, read with its
// body, restored at a new version (If-Match, content.updated, published_at set once), kept up to
// REVISIONS_KEEP, gone with their item; reading needs content:read, restoring the right to update.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Response } from './helpers/client.js';
import { addKey, addUser } from './helpers/people.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { manualClock } from './helpers/limits.js';

type Item = Record<string, unknown> & { id: string; version: number };
const LIST_FIELDS = ['changed_by', 'created_at', 'status', 'title', 'type', 'version'];

function ok(res: Response, status = 200) {
  assert.equal(res.status, status, res.text);
  return res.body;
}

for (const store of testStores()) {
  describe(`content revisions (${store})`, () => {
    const time = manualClock('2036-01-01T00:00:00.000Z');
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store, { clock: time.clock, env: { REVISIONS_KEEP: '4' } });
      owner = await server.account();
    });
    after(() => server.close());

    const put = (item: Item, json: object, key = owner.key) => server.client.put(`/v1/content/${item.id}`, { key, json });
    const revisions = (item: Item, query = '', key = owner.key) => server.client.get(`/v1/content/${item.id}/revisions${query}`, { key });
    const restore = (item: Item, version: string | number, options: { key?: string; headers?: Record<string, string> } = {}) =>
      server.client.post(`/v1/content/${item.id}/revisions/${version}/restore`, { key: options.key ?? owner.key, headers: options.headers });

    it('lists every version newest first, with who made it and when, and reads each with its body', async () => {
      const editor = await addUser(server, owner.key, 'editor');
      const editorKey = (await addKey(server, owner.key, { user_id: editor.id })).key;
      time.advance(1000);
      const item = (await server.content(owner.key, { title: 'First', content: 'Body one', type: 'manual' })) as Item;
      time.advance(1000);
      const second = ok(await put(item, { title: 'Second', status: 'published' }, editorKey)).data;
      time.advance(1000);
      const archived = ok(await server.client.post(`/v1/content/${item.id}/archive`, { key: owner.key })).data;

      const page = ok(await revisions(item));
      assert.deepEqual(page.pagination, { total: 3, limit: 10, offset: 0, has_more: false });
      for (const revision of page.data) assert.deepEqual(Object.keys(revision).sort(), LIST_FIELDS);
      assert.deepEqual(page.data, [
        { version: 3, title: 'Second', type: 'manual', status: 'archived', changed_by: owner.userId, created_at: archived.updated_at },
        { version: 2, title: 'Second', type: 'manual', status: 'published', changed_by: editor.id, created_at: second.updated_at },
        { version: 1, title: 'First', type: 'manual', status: 'draft', changed_by: owner.userId, created_at: item.created_at },
      ]);
      const first = ok(await server.client.get(`/v1/content/${item.id}/revisions/1`, { key: owner.key })).data;
      assert.deepEqual(first, { ...page.data[2], content: 'Body one', fields: {} });
      // Archiving an archived item makes no version.
      ok(await server.client.post(`/v1/content/${item.id}/archive`, { key: owner.key }));
      assert.equal(ok(await revisions(item)).pagination.total, 3);
    });

    it('restores a revision at a new version, emits content.updated, and keeps published_at set once', async () => {
      time.advance(1000);
      const item = (await server.content(owner.key, { title: 'Draft title', content: 'Old body', type: 'blog' })) as Item;
      time.advance(1000);
      const published = ok(await put(item, { title: 'Live title', content: 'New body', status: 'published', type: 'strategy' })).data;
      assert.ok(published.published_at);
      time.advance(1000);
      const restored = await restore(item, 1);
      const body = ok(restored).data;
      assert.equal(restored.headers.etag, '"3"');
      assert.deepEqual(
        { title: body.title, type: body.type, content: body.content, status: body.status, version: body.version, published_at: body.published_at },
        { title: 'Draft title', type: 'blog', content: 'Old body', status: 'draft', version: 3, published_at: published.published_at },
      );
      assert.equal(body.created_at, item.created_at);
      assert.notEqual(body.updated_at, published.updated_at);
      // It is the item everyone now reads, and the newest revision.
      assert.deepEqual(ok(await server.client.get(`/v1/content/${item.id}`, { key: owner.key })).data, body);
      const newest = ok(await revisions(item, '?limit=1')).data[0];
      assert.deepEqual(newest, { version: 3, title: 'Draft title', type: 'blog', status: 'draft', changed_by: owner.userId, created_at: body.updated_at });
      // Its event carries the item as restored.
      const events = ok(await server.client.get('/v1/events?limit=100', { key: owner.key })).data as { type: string; data: Item }[];
      const last = events.filter((e) => e.data.id === item.id).at(-1)!;
      assert.equal(last.type, 'content.updated');
      assert.deepEqual(last.data, body);
      // Restoring the published version publishes it again; published_at stays the first one.
      time.advance(1000);
      const again = ok(await restore(item, 2)).data;
      assert.deepEqual([again.status, again.title, again.version, again.published_at], ['published', 'Live title', 4, published.published_at]);
    });

    it('restores an archived revision as archived, and sets published_at when first published by a restore', async () => {
      time.advance(1000);
      const item = (await server.content(owner.key, { title: 'To archive' })) as Item;
      time.advance(1000);
      ok(await server.client.post(`/v1/content/${item.id}/archive`, { key: owner.key }));
      time.advance(1000);
      ok(await put(item, { status: 'draft' }));
      const back = ok(await restore(item, 2)).data;
      assert.deepEqual([back.status, back.version, back.published_at], ['archived', 4, null]);
      // A revision that was published while the item never was (it came before revisions were kept):
      await server.app.store.db.updateTable('content_revisions').set({ status: 'published' }).where('content_id', '=', item.id).where('version', '=', 1).execute();
      time.advance(1000);
      const live = ok(await restore(item, 1)).data;
      assert.equal(live.status, 'published');
      assert.equal(live.published_at, live.updated_at);
    });

    it('honours If-Match', async () => {
      const item = (await server.content(owner.key, { title: 'Guarded' })) as Item;
      ok(await put(item, { title: 'Guarded 2' }));
      const stale = await restore(item, 1, { headers: { 'if-match': '"1"' } });
      assert.equal(stale.status, 412);
      assert.equal(stale.body.code, 'precondition_failed');
      assert.equal(ok(await server.client.get(`/v1/content/${item.id}`, { key: owner.key })).data.version, 2);
      assert.equal(ok(await restore(item, 1, { headers: { 'if-match': '"2"' } })).data.version, 3);
    });

    it('keeps the last REVISIONS_KEEP versions, newest first, paged', async () => {
      const item = (await server.content(owner.key, { title: 'v1' })) as Item;
      for (let v = 2; v <= 6; v++) ok(await put(item, { title: `v${v}` }));
      const page = ok(await revisions(item));
      assert.deepEqual(page.data.map((r: { version: number }) => r.version), [6, 5, 4, 3]);
      assert.equal(page.pagination.total, 4);
      const paged = ok(await revisions(item, '?limit=2&offset=1'));
      assert.deepEqual(paged.data.map((r: { title: string }) => r.title), ['v5', 'v4']);
      assert.deepEqual(paged.pagination, { total: 4, limit: 2, offset: 1, has_more: true });
      for (const gone of [await server.client.get(`/v1/content/${item.id}/revisions/2`, { key: owner.key }), await restore(item, 2)]) {
        assert.equal(gone.status, 404);
        assert.equal(gone.body.code, 'not_found');
      }
      assert.equal(ok(await restore(item, 3)).data.title, 'v3');
    });

    it('answers 404 for a version that is not a positive integer or does not exist, and for unknown items', async () => {
      const item = (await server.content(owner.key)) as Item;
      for (const version of ['0', '-1', 'abc', '1.5', '01', '1e3', '99', '99999999999999999999', '%20']) {
        for (const res of [await server.client.get(`/v1/content/${item.id}/revisions/${version}`, { key: owner.key }), await restore(item, version)]) {
          assert.equal(res.status, 404, `${version}: ${res.text}`);
          assert.equal(res.body.code, 'not_found');
        }
      }
      const unknown = { id: 'content_00000000000000000000000000', version: 1 };
      for (const res of [await revisions(unknown), await server.client.get(`/v1/content/${unknown.id}/revisions/1`, { key: owner.key }), await restore(unknown, 1)]) {
        assert.equal(res.status, 404, res.text);
      }
    });

    it('deletes an item’s revisions with it', async () => {
      const item = (await server.content(owner.key)) as Item;
      ok(await put(item, { title: 'Changed' }));
      const count = async () => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM content_revisions WHERE content_id = ${item.id}`.execute(server.app.store.db)).rows[0]!.n);
      assert.equal(await count(), 2);
      assert.equal((await server.client.delete(`/v1/content/${item.id}`, { key: owner.key })).status, 204);
      assert.equal(await count(), 0);
      assert.equal((await revisions(item)).status, 404);
    });

    it('never shows another account’s revisions', async () => {
      const item = (await server.content(owner.key)) as Item;
      const other = await server.account();
      for (const res of [await revisions(item, '', other.key), await server.client.get(`/v1/content/${item.id}/revisions/1`, { key: other.key }), await restore(item, 1, { key: other.key })]) {
        assert.equal(res.status, 404, res.text);
      }
    });

    it('lets readers read and only those who may update the item restore it', async () => {
      const item = (await server.content(owner.key, { title: 'Owned' })) as Item;
      ok(await put(item, { title: 'Owned 2' }));
      const viewer = (await addKey(server, owner.key, { user_id: (await addUser(server, owner.key, 'viewer')).id })).key;
      const author = (await addKey(server, owner.key, { user_id: (await addUser(server, owner.key, 'author')).id })).key;
      const noRead = (await addKey(server, owner.key, { scopes: ['users:read'] })).key;
      assert.equal((await revisions(item, '', viewer)).status, 200);
      assert.equal((await server.client.get(`/v1/content/${item.id}/revisions/1`, { key: viewer })).status, 200);
      for (const [key, status] of [[viewer, 403], [author, 403], [noRead, 403]] as const) {
        const res = await restore(item, 1, { key });
        assert.equal(res.status, status, res.text);
        assert.equal(res.body.code, 'forbidden');
      }
      assert.equal((await revisions(item, '', noRead)).status, 403);
      // An author restores what they wrote.
      const own = (await server.content(author, { title: 'Mine' })) as Item;
      ok(await put(own, { title: 'Mine 2' }, author));
      assert.equal(ok(await restore(own, 1, { key: author })).data.title, 'Mine');
    });

    it('refuses a body with fields on restore', async () => {
      const item = (await server.content(owner.key)) as Item;
      const res = await server.client.post(`/v1/content/${item.id}/revisions/1/restore`, { key: owner.key, json: { title: 'x' } });
      assert.equal(res.status, 422);
      assert.deepEqual(res.body.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`), ['title:unknown_field']);
    });
  });
}
