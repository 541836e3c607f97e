// SQLite's content_keys (storage/dialect/sqlite-content-keys.ts): the narrow copy of each item's list
// keys that the typed fields' indexes live on, kept by triggers, and rebuilt with a new index in
// chunks (each its own write turn) while the service keeps writing: afterwards the copy holds
// exactly what content holds, the index exists, and no build is left behind. A build left by a
// crash is dropped by the next one; a build under way elsewhere is waited for, not disturbed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store } from '../src/storage/db.js';
import { ContentFieldIndexes, type WantedIndex } from '../src/storage/content-field-indexes.js';
import { KEYS, NEXT, OLD, createTable, triggers } from '../src/storage/dialect/sqlite-content-keys.js';
import { startServer, type TestServer } from './helpers/server.js';

const PAGES: WantedIndex = { type: 'manual', name: 'pages', list: false };
const COLUMNS = ['id', 'account_id', 'type', 'status', 'created_at', 'updated_at', 'published_at', 'publish_at', 'title_sort', 'fields'];

describe('content_keys (sqlite)', () => {
  let server: TestServer;
  let key: string;
  let store: Store;
  const ids: string[] = [];

  before(async () => {
    server = await startServer('sqlite');
    ({ key } = await server.account());
    const model = await server.client.put('/v1/content-types/manual', { key, json: { fields: [{ name: 'pages', kind: 'integer' }] } });
    assert.equal(model.status, 200, model.text);
    for (let b = 0; b < 6; b++) {
      const operations = Array.from({ length: 100 }, (_, i) => ({ op: 'create', data: { title: `Manual ${b * 100 + i}`, type: 'manual', content: 'A manual.', fields: { pages: b * 100 + i } } }));
      const res = await server.client.post('/v1/content/batch', { key, json: { operations } });
      assert.equal(res.status, 200, res.text);
      ids.push(...(res.body.data as { data: { id: string } }[]).map((r) => r.data.id));
    }
    // A second connection to the same file, as a second process would have.
    store = openStore(server.app.config.store);
  });
  after(async () => {
    await store.close();
    await server.close();
  });

  /** Rows where content and content_keys differ (or one lacks the other's): none when in step. */
  const differences = async () => {
    const differs = COLUMNS.map((c) => `k.${c} IS NOT c.${c}`).join(' OR ');
    const { rows } = await sql<{ n: number }>`
      SELECT (SELECT count(*) FROM content c LEFT JOIN content_keys k ON k.item = c.rowid WHERE k.item IS NULL OR ${sql.raw(differs)})
           + (SELECT count(*) FROM content_keys k LEFT JOIN content c ON c.rowid = k.item WHERE c.rowid IS NULL) AS n`.execute(store.db);
    return Number(rows[0]!.n);
  };
  const tables = async () => (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'content\\_keys%' ESCAPE '\\' ORDER BY name`.execute(store.db)).rows.map((r) => r.name);
  const lease = async () => (await store.db.selectFrom('settings').select('value').where('key', '=', 'content_keys_build').executeTakeFirst())?.value;
  const pagesIndex = async () => (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ${KEYS} AND name LIKE 'cf\\_manual\\_pages\\_\\_%' ESCAPE '\\'`.execute(store.db)).rows.map((r) => r.name);

  it('holds every item as content does, through creates, updates and deletes', async () => {
    const item = await server.content(key, { title: 'Kept', type: 'manual', fields: { pages: 7 } });
    const changed = await server.client.put(`/v1/content/${String(item.id)}`, { key, json: { title: 'Kept, changed', status: 'published', fields: { pages: 8 } } });
    assert.equal(changed.status, 200, changed.text);
    const gone = await server.content(key, { title: 'Gone', type: 'blog' });
    assert.equal((await server.client.delete(`/v1/content/${String(gone.id)}`, { key })).status, 204);
    assert.equal(await differences(), 0);
    const { rows } = await sql<{ fields: string; status: string }>`SELECT fields, status FROM content_keys WHERE id = ${item.id}`.execute(store.db);
    assert.deepEqual(rows.map((r) => [JSON.parse(r.fields), r.status]), [[{ pages: 8 }, 'published']]);
  });

  it('builds an index in chunks while the service writes, then swaps the copy in', async () => {
    const indexes = new ContentFieldIndexes('sqlite', 20);
    const before = await pagesIndex();
    assert.deepEqual(before, []);
    // Writes through the API while the build copies 20 rows per turn: new items, changed ones, deleted ones.
    let building = true;
    let written = 0;
    const writes = (async () => {
      while (building || written < 30) {
        const n = written;
        const created = await server.content(key, { title: `Written during the build ${n}`, type: 'manual', fields: { pages: 10_000 + n } });
        assert.ok(created.id);
        const updated = await server.client.put(`/v1/content/${ids[n]!}`, { key, json: { fields: { pages: 20_000 + n } } });
        assert.equal(updated.status, 200, updated.text);
        assert.equal((await server.client.delete(`/v1/content/${ids[300 + n]!}`, { key })).status, 204);
        written++;
      }
    })();
    const made = await indexes.make(store, [PAGES], [PAGES]);
    building = false;
    const duringBuild = written;
    await writes;
    // Some of the writes landed between the build's turns (each turn copies 20 of 600 rows).
    assert.ok(duringBuild >= 1, `writes during the build: ${duringBuild}`);
    assert.equal(made, true);
    // The new copy, with the index, is the table now; no copy and no lease left behind.
    assert.deepEqual(await pagesIndex(), ['cf_manual_pages__b']);
    assert.deepEqual(await tables(), [KEYS]);
    assert.equal(await lease(), undefined);
    assert.deepEqual(await indexes.existing(store.db), [{ name: 'cf_manual_pages', valid: true }]);
    assert.equal(await differences(), 0);
    // The index answers what a scan of content answers.
    const count = async (table: string) =>
      Number((await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE type = 'manual' AND json_extract(fields, '$.pages') >= 150`.execute(store.db)).rows[0]!.n);
    assert.equal(await count(KEYS), await count('content'));
    const { rows: plan } = await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT id FROM content_keys WHERE account_id = 'x' AND type = 'manual' AND json_extract(fields, '$.pages') >= 150`.execute(store.db);
    assert.match(plan.map((r) => r.detail).join('\n'), /USING COVERING INDEX cf_manual_pages__b/);
    // The triggers write the one table again.
    await server.content(key, { title: 'After the build', type: 'manual', fields: { pages: 1 } });
    assert.equal(await differences(), 0);
  });

  it('drops a build left by a crash once its lease has run out, and builds again', async () => {
    // What a process killed in the middle of a build leaves: the table replaced last time, not yet
    // emptied; the copy, with rows; triggers writing to both; its lease.
    await store.transaction(async (tx) => {
      for (const [table, generation] of [[OLD, 'a'], [NEXT, 'b']] as const) {
        for (const statement of createTable(table, generation)) await sql.raw(statement.replace(/ck_account_type__/, `ck_${table}__`)).execute(tx);
        await sql.raw(`INSERT INTO ${table} SELECT * FROM ${KEYS} LIMIT 300`).execute(tx);
      }
      for (const statement of triggers([KEYS, NEXT])) await sql.raw(statement).execute(tx);
      await tx.insertInto('settings').values({ key: 'content_keys_build', value: JSON.stringify({ owner: 'killed', until: Date.now() - 1 }) }).execute();
    });
    await server.content(key, { title: 'Written while the build was stopped', type: 'manual', fields: { pages: 3 } });
    const indexes = new ContentFieldIndexes('sqlite', 200);
    assert.equal(await indexes.make(store, [PAGES], [PAGES]), true);
    assert.deepEqual(await tables(), [KEYS]);
    assert.deepEqual(await pagesIndex(), ['cf_manual_pages__a']);
    assert.equal(await lease(), undefined);
    assert.equal(await differences(), 0);
  });

  it('leaves a build that another process is running alone, and says so', async () => {
    const value = JSON.stringify({ owner: 'another process', until: Date.now() + 60_000 });
    await store.transaction((tx) => tx.insertInto('settings').values({ key: 'content_keys_build', value }).execute());
    try {
      const indexes = new ContentFieldIndexes('sqlite', 200);
      assert.equal(await indexes.make(store, [PAGES], [PAGES]), false);
      assert.equal(await lease(), value);
      assert.deepEqual(await pagesIndex(), ['cf_manual_pages__a']);
    } finally {
      await store.transaction((tx) => tx.deleteFrom('settings').where('key', '=', 'content_keys_build').execute());
    }
  });

  it('is made by the upgrade (migration 021): every item copied, the field indexes moved off content', async () => {
    // The store as it was before the migration: no content_keys, a field index on content.
    await store.transaction(async (tx) => {
      for (const statement of ['DROP TRIGGER content_keys_insert', 'DROP TRIGGER content_keys_update', 'DROP TRIGGER content_keys_delete', `DROP TABLE ${KEYS}`]) await sql.raw(statement).execute(tx);
      await sql.raw(`CREATE INDEX cf_manual_pages ON content (account_id, type, json_extract(fields, '$.pages'), id, created_at) WHERE type = 'manual'`).execute(tx);
      await sql`DELETE FROM kysely_migration WHERE name = '021-content-keys'`.execute(tx);
    });
    const upgraded = openStore(server.app.config.store);
    try {
      assert.deepEqual(await upgraded.migrate(), ['021-content-keys']);
    } finally {
      await upgraded.close();
    }
    assert.deepEqual(await tables(), [KEYS]);
    assert.equal(await differences(), 0);
    const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'content' AND name LIKE 'cf\\_%' ESCAPE '\\'`.execute(store.db);
    assert.deepEqual(rows, []);
    // The field indexer makes the index again, on content_keys.
    assert.equal(await new ContentFieldIndexes('sqlite').make(store, [PAGES], [PAGES]), true);
    assert.deepEqual(await pagesIndex(), ['cf_manual_pages__b']);
    await server.content(key, { title: 'After the upgrade', type: 'manual', fields: { pages: 2 } });
    assert.equal(await differences(), 0);
  });
});
