// Typed-field lists (CONTRACT.md §20): fields.<name> filters (=, gt, gte, lt, lte, in, contains) and
// sort=fields.<name> on indexed fields of the type given, items without the field last in both
// directions, cursors carrying them, exact totals; 400 naming the parameter for a non-indexed or
// unknown field, no type, a range on a boolean; and the statements seek the expression indexes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type LogEvent } from 'kysely';
import pg from 'pg';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { ContentRepository } from '../src/storage/content-repository.js';
import type { ListQuery } from '../src/storage/content-list.js';
import type { Database } from '../src/storage/schema.js';

const MODEL = [
  { name: 'version', kind: 'string', indexed: true },
  { name: 'pages', kind: 'integer', indexed: true },
  { name: 'released', kind: 'date', indexed: true },
  { name: 'beta', kind: 'boolean', indexed: true },
  { name: 'tags', kind: 'list', of: 'string', indexed: true },
  { name: 'summary', kind: 'text' },
];

interface Listed {
  id: string;
  fields: { pages?: number; version?: string; released?: string; tags?: string[] };
}

for (const store of testStores()) {
  describe(`content model lists (${store})`, () => {
    let server: TestServer;
    let key: string;
    let accountId: string;
    const ids: string[] = [];
    before(async () => {
      server = await startServer(store);
      ({ key, accountId } = await server.account());
      const put = await server.client.put('/v1/content-types/manual', { key, json: { fields: MODEL } });
      assert.equal(put.status, 200, put.text);
      for (let i = 0; i < 14; i++) {
        const fields = i % 5 === 4 ? { version: `1.${i}` } : { version: `1.${i}`, pages: (i * 37) % 100, released: `2026-0${(i % 9) + 1}-15`, beta: i % 2 === 0, tags: i % 3 === 0 ? ['api', 'cli'] : ['ui'] };
        ids.push((await server.content(key, { title: `Manual ${i}`, type: 'manual', fields })).id as string);
      }
      await server.content(key, { title: 'A blog post', type: 'blog' });
      await server.app.fieldIndexesSettled();
    });
    after(() => server.close());

    const list = async (query: string) => {
      const res = await server.client.get(`/v1/content?${query}`, { key });
      assert.equal(res.status, 200, `${query}: ${res.text}`);
      return res.body as { data: Listed[]; pagination: { total: number; next_cursor: string | null } };
    };
    const all = async () => (await list('type=manual&limit=100')).data;

    it('filters by each operator with an exact total', async () => {
      const items = await all();
      const expect = async (query: string, keep: (item: Listed) => boolean) => {
        const page = await list(`type=manual&limit=100&${query}`);
        const wanted = items.filter(keep).map((i) => i.id).sort();
        assert.deepEqual(page.data.map((i) => i.id).sort(), wanted, query);
        assert.equal(page.pagination.total, wanted.length, query);
      };
      await expect('fields.pages[gt]=40', (i) => (i.fields.pages ?? -1) > 40);
      await expect('fields.pages[gte]=48', (i) => (i.fields.pages ?? -1) >= 48);
      await expect('fields.pages[lt]=20', (i) => i.fields.pages !== undefined && i.fields.pages < 20);
      await expect('fields.pages[lte]=11&fields.beta=true', (i) => i.fields.pages !== undefined && i.fields.pages <= 11 && i.fields.pages % 1 === 0 && items.indexOf(i) >= 0 && (i.fields as { beta?: boolean }).beta === true);
      await expect('fields.version=1.3', (i) => i.fields.version === '1.3');
      await expect('fields.version[in]=1.1,1.2,1.9', (i) => ['1.1', '1.2', '1.9'].includes(i.fields.version!));
      await expect('fields.released[gte]=2026-05-01', (i) => (i.fields.released ?? '') >= '2026-05-01');
      await expect('fields.tags[contains]=api', (i) => (i.fields.tags ?? []).includes('api'));
      await expect('fields.pages[gt]=10&status=draft', (i) => (i.fields.pages ?? -1) > 10);
      await expect('fields.pages[gt]=1000', () => false);
    });

    it('gives the same exact total on every page of a filter: first, by cursor, and past the end by offset', async () => {
      const matching = (await all()).filter((i) => (i.fields.pages ?? -1) > 10).length;
      assert.ok(matching > 4, `${matching} matches`);
      const first = await list('type=manual&fields.pages[gt]=10&limit=3');
      assert.equal(first.pagination.total, matching);
      assert.ok(first.pagination.next_cursor);
      const second = await list(`type=manual&fields.pages[gt]=10&limit=3&cursor=${encodeURIComponent(first.pagination.next_cursor!)}`);
      assert.equal(second.data.length, 3);
      assert.equal(second.pagination.total, matching);
      const past = await list('type=manual&fields.pages[gt]=10&limit=3&offset=100');
      assert.deepEqual([past.data.length, past.pagination.total], [0, matching]);
      const sorted = await list('type=manual&fields.pages[gt]=10&limit=3&sort=fields.pages');
      assert.equal(sorted.pagination.total, matching);
    });

    it('sorts by a field, items without it last in both directions, paging by cursor', async () => {
      const items = await all();
      const withPages = items.filter((i) => i.fields.pages !== undefined);
      const without = items.filter((i) => i.fields.pages === undefined);
      for (const desc of [false, true]) {
        const seen: Listed[] = [];
        let cursor: string | null = null;
        do {
          const page: Awaited<ReturnType<typeof list>> = await list(cursor ? `cursor=${cursor}&limit=4` : `type=manual&sort=${desc ? '-' : ''}fields.pages&limit=4`);
          assert.equal(page.pagination.total, 14);
          seen.push(...page.data);
          cursor = page.pagination.next_cursor;
        } while (cursor);
        assert.equal(new Set(seen.map((i) => i.id)).size, 14);
        const pages = seen.slice(0, withPages.length).map((i) => i.fields.pages!);
        const sorted = [...pages].sort((a, b) => (desc ? b - a : a - b));
        assert.deepEqual(pages, sorted);
        assert.deepEqual(seen.slice(withPages.length).map((i) => i.id).sort(), without.map((i) => i.id).sort());
      }
      // A cursor carries the field filter too; repeating it is fine, changing it is not.
      const first = await list('type=manual&fields.pages[gt]=10&sort=fields.released&limit=2');
      const next = await list(`cursor=${first.pagination.next_cursor}&fields.pages[gt]=10`);
      assert.ok(next.data.every((i) => i.fields.pages! > 10));
      const changed = await server.client.get(`/v1/content?cursor=${first.pagination.next_cursor}&fields.pages[gt]=11`, { key });
      assert.equal(changed.status, 400);
    });

    it('refuses what it cannot serve from an index, naming the parameter as sent', async () => {
      const cases: [string, string, string][] = [
        ['type=manual&fields.summary=x', 'fields.summary', 'invalid_value'],
        ['type=manual&fields.colour=red', 'fields.colour', 'unknown_field'],
        ['fields.pages[gt]=3', 'fields.pages[gt]', 'invalid_value'],
        ['type=manual&fields.beta[gt]=true', 'fields.beta[gt]', 'invalid_value'],
        ['type=manual&fields.pages[gt]=ten', 'fields.pages[gt]', 'invalid_type'],
        ['type=manual&fields.tags=api', 'fields.tags', 'invalid_value'],
        ['type=manual&fields.pages[near]=3', 'fields.pages[near]', 'unknown_field'],
        ['type=manual&sort=fields.summary', 'sort', 'invalid_value'],
        ['sort=-fields.pages', 'sort', 'invalid_value'],
      ];
      for (const [query, field, code] of cases) {
        const res = await server.client.get(`/v1/content?${query}`, { key });
        assert.equal(res.status, 400, query);
        assert.equal(res.body.code, 'invalid_parameter', query);
        assert.deepEqual(res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]), [[field, code]], query);
      }
    });

    it('seeks the expression index for a filter and a sort', async () => {
      const repo = new ContentRepository(server.app.store.dialect);
      // Enough rows that an index is worth it.
      await server.app.store.transaction(async (tx) => {
        for (let batch = 0; batch < 3000; batch += 500) {
          await repo.insertMany(tx, accountId, Array.from({ length: 500 }, (_, j) => {
            const i = batch + j;
            const at = new Date(Date.parse('2035-01-01T00:00:00.000Z') + i * 1000).toISOString();
            return { id: `content_z${String(i).padStart(25, '0')}`, title: `Bulk ${i}`, type: 'manual', content: 'x', status: 'draft', author: 'user_x', created_at: at, updated_at: at, published_at: null, version: 1, fields: { pages: i, released: at.slice(0, 10) } };
          }));
        }
      });
      const statements: { sql: string; parameters: readonly unknown[] }[] = [];
      const log = (event: LogEvent) => void (event.level === 'query' && statements.push({ sql: event.query.sql, parameters: event.query.parameters }));
      let db: Kysely<Database>;
      if (store === 'postgres') {
        await sql`ANALYZE`.execute(server.app.store.db);
        db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: (server.app.config.store as { url: string }).url, max: 1 }) }), log });
        await sql`SET enable_seqscan = off`.execute(db);
      } else {
        db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite((server.app.config.store as { file: string }).file) }), log });
      }
      try {
        const queries: [string, ListQuery][] = [
          ['filter', { filter: { type: 'manual', fields: [{ name: 'pages', op: 'gt', values: [2990] }] }, order: [{ field: 'created_at', desc: true }], limit: 10, offset: 0 }],
          ['sort', { filter: { type: 'manual' }, order: [{ field: 'fields.released', desc: true }], limit: 10, offset: 0 }],
          // A cursor among the items lacking the field: they are read from the field's index (its NULLs, by id), not by walking every id.
          ['sort, items without the field', { filter: { type: 'manual' }, order: [{ field: 'fields.released', desc: true }], after: { values: [null], id: 'content_zzzzzzzzzzzzzzzzzzzzzzzzzz' }, limit: 10, offset: 0 }],
        ];
        for (const [label, query] of queries) {
          statements.length = 0;
          const listed = await repo.list(db, accountId, query);
          if (label === 'filter') {
            assert.deepEqual([listed.total, listed.exact], [9, true]);
            // On PostgreSQL the first page of a filter counts its matches in its own statement (the
            // expression index cannot count alone, so a second statement would read every match again).
            const counts = statements.filter((s) => /count\(\*\)/i.test(s.sql)).map((s) => /over \(\)/i.test(s.sql));
            assert.deepEqual(counts, store === 'postgres' ? [true] : [false], statements.map((s) => s.sql).join('\n'));
          }
          // The other indexes of content are hidden (in a transaction rolled back at once): what is
          // shown is that the field's index serves the statement, whatever a small table makes cheapest.
          await sql`BEGIN`.execute(db);
          try {
            for (const index of ['content_account_created', 'content_account_type_status', 'content_account_status', 'content_account_updated', 'content_account_published', 'content_account_title', 'ck_account_type__a', 'ck_account_type__b']) {
              await sql.raw(`DROP INDEX IF EXISTS ${index}`).execute(db);
            }
            // Among the items without the field the order is by id alone: the field's index must
            // give it with no sort (where a sort is dear, PostgreSQL would otherwise walk every id).
            const unsorted = label.includes('without the field');
            if (unsorted && store === 'postgres') await sql`SET LOCAL enable_sort = off`.execute(db);
            // On SQLite the list's keys are read from content_keys, where the field indexes are.
            for (const statement of statements.filter((s) => /from "content(_keys)?"/.test(s.sql))) {
              const explain = store === 'sqlite' ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN';
              const { rows } = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${explain} ${statement.sql}`, [...statement.parameters]));
              const plan = rows.map((r) => r.detail ?? r['QUERY PLAN']).join('\n');
              if (/"id" in \(/.test(statement.sql)) {
                // The page's shown columns, read by id after the page is cut: a primary key lookup.
                assert.match(plan, store === 'sqlite' ? /sqlite_autoindex_content_1 \(id=\?\)/ : /content_pkey/, `${label}\n${statement.sql}\n${plan}`);
                continue;
              }
              assert.match(plan, /cf_manual_(pages|released)/, `${label}\n${statement.sql}\n${plan}`);
              if (unsorted) assert.doesNotMatch(plan, /TEMP B-TREE|(^|->)\s*Sort\b/m, `${label}\n${statement.sql}\n${plan}`);
              // On SQLite the field's index holds every column the filter, the count and the order read.
              if (store === 'sqlite') assert.match(plan, /USING COVERING INDEX cf_manual_(pages|released)/, `${label}\n${statement.sql}\n${plan}`);
              assert.doesNotMatch(plan, store === 'sqlite' ? /^SCAN content\b/m : /Seq Scan on content\b/, `${label}\n${plan}`);
            }
          } finally {
            await sql`ROLLBACK`.execute(db);
          }
        }
      } finally {
        await db.destroy();
      }
    });

    if (store === 'sqlite') {
      it('rebuilds a field index of the older shape (without type and created_at) at the next model change', async () => {
        const file = new SQLite((server.app.config.store as { file: string }).file);
        // The field indexes are on content_keys, each name ending in the table's generation (a or b).
        const index = () => file.prepare(`select name, sql from sqlite_master where tbl_name = 'content_keys' and name like 'cf\\_manual\\_pages\\_\\_%' escape '\\'`).get() as { name: string; sql: string } | undefined;
        try {
          const before = index()!.name;
          file.exec(`drop index ${before}; create index ${before} on content_keys (account_id, json_extract(fields, '$.pages'), id) where type = 'manual'`);
          assert.doesNotMatch(index()!.sql, /created_at/);
          const put = await server.client.put('/v1/content-types/manual', { key, json: { fields: [...MODEL, { name: 'note', kind: 'string' }] } });
          assert.equal(put.status, 200, put.text);
          await server.app.fieldIndexesSettled();
          // Built on a new copy of the table, swapped in: the other generation.
          assert.equal(index()!.name, before.endsWith('__a') ? 'cf_manual_pages__b' : 'cf_manual_pages__a');
          assert.match(index()!.sql, /\(account_id, type, json_extract\(fields, '\$\.pages'\), id, created_at\) where type = 'manual'$/);
          // The 3,000 items of the test above have pages 0–2999: ten of them from 2990, newest first.
          const page = await list('type=manual&fields.pages[gte]=2990&limit=100');
          assert.equal(page.pagination.total, 10);
          assert.deepEqual(page.data.map((item) => item.fields.pages), [2999, 2998, 2997, 2996, 2995, 2994, 2993, 2992, 2991, 2990]);
        } finally {
          file.close();
        }
      });
    } else {
      it('keeps an expression statistics object per scalar field index, made and dropped with it', async () => {
        const names = async () =>
          (await sql<{ name: string }>`select stxname as name from pg_statistic_ext where stxnamespace = to_regnamespace(current_schema())::oid order by 1`.execute(server.app.store.db)).rows.map((row) => row.name);
        assert.deepEqual(await names(), ['cfs_manual_beta', 'cfs_manual_pages', 'cfs_manual_released', 'cfs_manual_version']);
        const unindexed = MODEL.map((field) => (field.name === 'pages' ? { name: 'pages', kind: 'integer' } : field));
        const put = await server.client.put('/v1/content-types/manual', { key, json: { fields: unindexed } });
        assert.equal(put.status, 200, put.text);
        await server.app.fieldIndexesSettled();
        assert.deepEqual(await names(), ['cfs_manual_beta', 'cfs_manual_released', 'cfs_manual_version']);
      });
    }
  });
}
