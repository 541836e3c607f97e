// Changing content: partial update, versions and published_at, ETag/If-Match preconditions, archive and delete.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

type Item = Record<string, unknown>;
const UNKNOWN_ID = 'content_01jd2x3m4n5p6q7r8s9t0v1w2x';

/** A clock the test moves by hand, so every timestamp the service writes is known exactly. */
function manualClock(start: string) {
  let now = Date.parse(start);
  return {
    clock: () => new Date(now),
    iso: () => new Date(now).toISOString(),
    tick: (ms = 1500) => {
      now += ms;
    },
  };
}

function assertError(res: Response, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code);
  assert.ok(typeof res.body.message === 'string' && res.body.message.length > 0);
  assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
}

/** Asserts a 200 carrying one item whose ETag is its version; returns the item. */
function okItem(res: Response): Item {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.etag, `"${String(res.body.data.version)}"`);
  assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
  return res.body.data as Item;
}

for (const store of testStores()) {
  describe(`content lifecycle (${store})`, () => {
    const time = manualClock('2030-05-01T12:00:00.000Z');
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store, { clock: time.clock });
      owner = await server.account();
    });
    after(() => server.close());

    const path = (id: unknown) => `/v1/content/${String(id)}`;
    const create = (fields: Item = {}) => server.content(owner.key, fields);
    const get = (id: unknown) => server.client.get(path(id), { key: owner.key });
    const update = (id: unknown, json: Item, ifMatch?: string) =>
      server.client.put(path(id), { key: owner.key, json, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });
    const archive = (id: unknown, ifMatch?: string) =>
      server.client.post(`${path(id)}/archive`, { key: owner.key, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });
    const remove = (id: unknown, ifMatch?: string) =>
      server.client.delete(path(id), { key: owner.key, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });

    /** The stored item equals `expected` (read back with GET). */
    async function assertStored(expected: Item) {
      assert.deepEqual(okItem(await get(expected.id)), expected);
    }

    describe('update', () => {
      it('changes only the field sent, bumps version and sets updated_at', async () => {
        const changes: Item[] = [{ title: 'New title' }, { type: 'whitepaper' }, { content: '## Rewritten' }, { status: 'draft' }];
        for (const change of changes) {
          const original = await create({ title: 'Original', type: 'blog', content: 'Original body', status: 'published' });
          time.tick();
          const updated = okItem(await update(original.id, change));
          assert.deepEqual(updated, { ...original, ...change, version: 2, updated_at: time.iso() });
          await assertStored(updated);
        }
      });

      it('changes several fields at once and keeps the rest across successive updates', async () => {
        const original = await create({ title: 'One', type: 'blog', content: 'Body one' });
        const createdAt = time.iso();
        time.tick();
        const first = okItem(await update(original.id, { title: 'Two', content: 'Body two' }));
        time.tick();
        const second = okItem(await update(original.id, { type: 'manual' }));
        assert.equal(second.created_at, createdAt);
        assert.equal(second.author, owner.userId);
        assert.notEqual(second.updated_at, first.updated_at);
        assert.deepEqual(second, { ...original, title: 'Two', content: 'Body two', type: 'manual', version: 3, updated_at: time.iso() });
        await assertStored(second);
      });

      it('counts every accepted update as a change, even with the values already stored', async () => {
        const original = await create({ title: 'Same' });
        time.tick();
        const updated = okItem(await update(original.id, { title: 'Same' }));
        assert.deepEqual(updated, { ...original, version: 2, updated_at: time.iso() });
      });

      it('sets published_at on the first publish only, and keeps it through draft, re-publish and archive', async () => {
        const item = await create({ status: 'draft' });
        assert.equal(item.published_at, null);
        time.tick();
        const published = okItem(await update(item.id, { status: 'published' }));
        const firstPublished = time.iso();
        assert.equal(published.status, 'published');
        assert.equal(published.published_at, firstPublished);

        time.tick();
        const draft = okItem(await update(item.id, { status: 'draft' }));
        assert.equal(draft.status, 'draft');
        assert.equal(draft.published_at, firstPublished);

        time.tick();
        const again = okItem(await update(item.id, { status: 'published' }));
        assert.equal(again.published_at, firstPublished);
        assert.equal(again.updated_at, time.iso());

        time.tick();
        const archived = okItem(await archive(item.id));
        assert.equal(archived.published_at, firstPublished);
        assert.equal(okItem(await update(item.id, { status: 'published' })).published_at, firstPublished);
        assert.equal((await get(item.id)).body.data.version, 6);
      });

      it('brings an archived item back with status draft or published', async () => {
        for (const status of ['draft', 'published']) {
          const item = await create({ status: 'draft' });
          time.tick();
          const archived = okItem(await archive(item.id));
          time.tick();
          const back = okItem(await update(item.id, { status }));
          assert.deepEqual(back, {
            ...archived,
            status,
            version: 3,
            updated_at: time.iso(),
            published_at: status === 'published' ? time.iso() : null,
          });
          await assertStored(back);
        }
      });

      it('applies the last write when no If-Match is sent', async () => {
        const item = await create();
        okItem(await update(item.id, { title: 'First writer' }));
        const last = okItem(await update(item.id, { title: 'Second writer' }));
        assert.equal(last.title, 'Second writer');
        assert.equal(last.version, 3);
        await assertStored(last);
      });

      it('answers 404 for an unknown id', async () => {
        assertError(await update(UNKNOWN_ID, { title: 'x' }), 404, 'not_found');
      });
    });

    describe('ETag and If-Match', () => {
      it('sends ETag "<version>" on create, get, update and archive', async () => {
        const created = await server.client.post('/v1/content', { key: owner.key, json: { title: 't', type: 'blog', content: 'x' } });
        assert.equal(created.headers.etag, '"1"');
        const id = created.body.data.id;
        assert.equal((await get(id)).headers.etag, '"1"');
        assert.equal((await update(id, { title: 'u' })).headers.etag, '"2"');
        assert.equal((await archive(id)).headers.etag, '"3"');
        assert.equal((await get(id)).headers.etag, '"3"');
      });

      it('updates when If-Match names the current version, in a list too, or is *', async () => {
        const item = await create();
        const etag = (await get(item.id)).headers.etag as string;
        assert.equal(okItem(await update(item.id, { title: 'v2' }, etag)).version, 2);
        assert.equal(okItem(await update(item.id, { title: 'v3' }, '"1", "2"')).version, 3);
        assert.equal(okItem(await update(item.id, { title: 'v4' }, '*')).version, 4);
        assert.equal((await get(item.id)).body.data.title, 'v4');
      });

      it('answers 412 to a stale, weak or malformed If-Match and changes nothing', async () => {
        const item = await create();
        const current = okItem(await update(item.id, { title: 'Now at version 2' }));
        for (const ifMatch of ['"1"', '"3"', 'W/"2"', '2', '"abc"', '"1", "3"']) {
          time.tick();
          assertError(await update(item.id, { title: 'Lost update' }, ifMatch), 412, 'precondition_failed');
          assertError(await archive(item.id, ifMatch), 412, 'precondition_failed');
          assertError(await remove(item.id, ifMatch), 412, 'precondition_failed');
          await assertStored(current);
        }
      });

      it('deletes when If-Match matches, or is *', async () => {
        const first = await create();
        assert.equal((await remove(first.id, '"1"')).status, 204);
        assertError(await get(first.id), 404, 'not_found');
        const second = await create();
        assert.equal((await remove(second.id, '*')).status, 204);
        assertError(await get(second.id), 404, 'not_found');
      });

      it('archives when If-Match matches', async () => {
        const item = await create();
        assert.equal(okItem(await archive(item.id, '"1"')).status, 'archived');
      });

      it('checks existence before the precondition: an unknown id is 404 whatever If-Match says', async () => {
        for (const ifMatch of ['"1"', '*', 'W/"1"']) {
          assertError(await update(UNKNOWN_ID, { title: 'x' }, ifMatch), 404, 'not_found');
          assertError(await archive(UNKNOWN_ID, ifMatch), 404, 'not_found');
          assertError(await remove(UNKNOWN_ID, ifMatch), 404, 'not_found');
        }
      });

      it('lets exactly one of two concurrent updates with the same If-Match win', async () => {
        const item = await create();
        const results = await Promise.all(['Writer A', 'Writer B'].map((title) => update(item.id, { title }, '"1"')));
        const statuses = results.map((r) => r.status).sort();
        assert.deepEqual(statuses, [200, 412]);
        const winner = results.find((r) => r.status === 200)!;
        await assertStored(winner.body.data as Item);
        assert.equal(winner.body.data.version, 2);
      });
    });

    describe('archive', () => {
      it('archives with 200, the full item, a new version and updated_at', async () => {
        const item = await create({ status: 'published' });
        time.tick();
        const archived = okItem(await archive(item.id));
        assert.deepEqual(archived, { ...item, status: 'archived', version: 2, updated_at: time.iso() });
        await assertStored(archived);
      });

      it('archiving an archived item is a 200 that changes nothing', async () => {
        const item = await create();
        time.tick();
        const archived = okItem(await archive(item.id));
        time.tick();
        const again = okItem(await archive(item.id));
        assert.deepEqual(again, archived);
        assert.equal(again.version, 2);
        assert.notEqual(again.updated_at, time.iso());
        await assertStored(archived);
      });

      it('is listed under status=archived afterwards', async () => {
        const item = await create({ title: 'To archive' });
        await archive(item.id);
        const list = await server.client.get('/v1/content?status=archived&limit=100', { key: owner.key });
        assert.ok(list.body.data.some((i: Item) => i.id === item.id && i.status === 'archived'));
        assert.ok(list.body.data.every((i: Item) => i.status === 'archived'));
      });

      it('answers 404 for an unknown id', async () => {
        assertError(await archive(UNKNOWN_ID), 404, 'not_found');
      });

      it('accepts no body or an empty JSON object, and rejects any field rather than ignoring it', async () => {
        const item = await create();
        const withField = await server.client.post(`${path(item.id)}/archive`, { key: owner.key, json: { status: 'draft' } });
        assertError(withField, 422, 'validation_failed');
        assert.deepEqual(withField.body.errors.map((e: Item) => [e.field, e.code]), [['status', 'unknown_field']]);
        await assertStored(item);
        const emptyObject = await server.client.post(`${path(item.id)}/archive`, { key: owner.key, json: {} });
        assert.equal(okItem(emptyObject).status, 'archived');
      });
    });

    describe('delete', () => {
      it('answers 204 with no body, then the item is gone for every operation', async () => {
        const item = await create({ title: 'Doomed' });
        const before = (await server.client.get('/v1/content', { key: owner.key })).body.pagination.total as number;
        const res = await remove(item.id);
        assert.equal(res.status, 204);
        assert.equal(res.text, '');
        assert.equal(res.headers['content-length'] ?? '0', '0');
        assert.match(String(res.headers['x-request-id']), /^req_[0-9a-z]{26}$/);

        assertError(await get(item.id), 404, 'not_found');
        assertError(await update(item.id, { title: 'Back?' }), 404, 'not_found');
        assertError(await archive(item.id), 404, 'not_found');
        const list = await server.client.get('/v1/content?limit=100', { key: owner.key });
        assert.equal(list.body.pagination.total, before - 1);
        assert.ok(!list.body.data.some((i: Item) => i.id === item.id));
      });

      it('answers 404 to a second delete', async () => {
        const item = await create();
        assert.equal((await remove(item.id)).status, 204);
        assertError(await remove(item.id), 404, 'not_found');
      });

      it('answers 404 for an id that never existed', async () => {
        assertError(await remove(UNKNOWN_ID), 404, 'not_found');
        assertError(await remove('not-even-an-id'), 404, 'not_found');
      });
    });
  });
}
