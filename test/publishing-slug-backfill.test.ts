// The slug backfill (migration 015): items that existed before slugs (no slug, none reserved) get one
// in batches in the background, once across instances, without a new version or an event; clashes
// with slugs given meanwhile take the next suffix; an item written meanwhile keeps the slug its
// write gave it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../src/domain/ids.js';
import { ContentRepository, type NewContentRow } from '../src/storage/content-repository.js';
import { startSecondInstance, type SecondInstance } from './helpers/instance.js';
import { eventually } from './helpers/limits.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const ITEMS = 1200;

for (const store of testStores()) {
  describe(`slug backfill (${store})`, { timeout: 180_000 }, () => {
    let server: TestServer;
    let later: SecondInstance | undefined;
    before(async () => {
      server = await startServer(store);
    });
    after(async () => {
      await later?.close();
      await server.close();
    });

    it('gives every item written before slugs one, in batches, once, without a version or an event', async () => {
      const owner = await server.account();
      const other = await server.account();
      const db = server.app.store.db;
      // Items as the migration finds them: written before slugs existed.
      const rows: NewContentRow[] = Array.from({ length: ITEMS }, (_, i) => {
        const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
        // Item 4's title makes a slug one of the "Weekly notes" numbers would read as.
        const title = i === 4 ? 'Weekly notes 6' : i % 3 === 0 ? 'Weekly notes' : `Item ${i}: Crème Brûlée`;
        return { id: newId('content'), title, type: 'blog', content: `Body ${i}`, status: 'draft', author: owner.userId, created_at: at, updated_at: at, published_at: null, version: 1 };
      });
      const repo = new ContentRepository(server.app.store.dialect);
      await server.app.store.transaction(async (tx) => {
        await repo.insertMany(tx, owner.accountId, rows.slice(0, ITEMS - 10));
        await repo.insertMany(tx, other.accountId, rows.slice(ITEMS - 10));
      });
      // Meanwhile a slug given by hand stands in the way of one the backfill will make, and one old item is written to.
      await server.content(owner.key, { title: 'Taken', slug: 'weekly-notes' });
      await server.content(owner.key, { title: 'Taken too', slug: 'weekly-notes-4' });
      const touched = await server.client.put(`/v1/content/${rows[3]!.id}`, { key: owner.key, json: { content: 'Edited' } });
      assert.equal(touched.body.data.slug, 'weekly-notes-2');
      const sequence = async (accountId: string) => Number((await db.selectFrom('event_sequences').select('seq').where('account_id', '=', accountId).executeTakeFirstOrThrow()).seq);
      const eventsBefore = await sequence(owner.accountId);
      await db.updateTable('background_tasks').set({ status: 'pending', position: null, done: 0 }).where('id', '=', 'slug-backfill').execute();

      // The instances running found nothing to do when they started; one started after the migration does it.
      later = await startSecondInstance(server);
      const task = await eventually(async () => {
        const row = await db.selectFrom('background_tasks').selectAll().where('id', '=', 'slug-backfill').executeTakeFirstOrThrow();
        return row.status === 'done' && row;
      }, 'the backfill to finish', 120_000);
      assert.equal(Number(task.done), ITEMS - 1, 'every item without a slug, once (the one written meanwhile had one)');
      assert.ok(task.position! >= rows.map((r) => r.id).sort().at(-1)!, 'it went through the last item');

      const missing = await db.selectFrom('content').select('id').where('slug', 'is', null).execute();
      assert.deepEqual(missing, []);
      const weekly = await db.selectFrom('content').select(['id', 'slug']).where('account_id', '=', owner.accountId).where('title', '=', 'Weekly notes').orderBy('id').execute();
      const slugs = weekly.map((r) => r.slug);
      assert.equal(new Set(slugs).size, weekly.length, 'unique');
      assert.ok(!slugs.includes('weekly-notes') && !slugs.includes('weekly-notes-4'), 'the given slugs are not taken');
      assert.equal(weekly.find((r) => r.id === rows[3]!.id)!.slug, 'weekly-notes-2', 'the written item keeps its slug');
      assert.deepEqual(slugs.filter((s) => s !== 'weekly-notes-2').slice(0, 3), ['weekly-notes-3', 'weekly-notes-5', 'weekly-notes-7']);
      assert.equal((await db.selectFrom('content').select('slug').where('id', '=', rows[1]!.id).executeTakeFirstOrThrow()).slug, 'item-1-creme-brulee');
      assert.equal((await db.selectFrom('content').select('slug').where('id', '=', rows[4]!.id).executeTakeFirstOrThrow()).slug, 'weekly-notes-6');
      assert.equal((await db.selectFrom('content').select('slug').where('id', '=', rows[ITEMS - 1]!.id).executeTakeFirstOrThrow()).slug, `item-${ITEMS - 1}-creme-brulee`);

      // Found by slug like any other; no new version, no event.
      const found = await server.client.get('/v1/content?slug=item-1-creme-brulee', { key: owner.key });
      assert.deepEqual(found.body.data.map((i: { id: string }) => i.id), [rows[1]!.id]);
      assert.equal((await server.client.get(`/v1/content/${rows[1]!.id}`, { key: owner.key })).body.data.version, 1);
      assert.equal(await sequence(owner.accountId), eventsBefore);
    });
  });
}
