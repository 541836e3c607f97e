// The list queries read indexes, never the whole table (CONTRACT.md §17: search "indexed in both
// stores: never a scan"; sorted and deep pages seek rather than count past rows). The repository
// runs against a second, logging connection to a real store; each statement it sends is EXPLAINed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type LogEvent } from 'kysely';
import pg from 'pg';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { ContentRepository } from '../src/storage/content-repository.js';
import type { ListQuery } from '../src/storage/content-list.js';
import { searchWords, type SearchWords } from '../src/storage/content-search.js';
import type { Database } from '../src/storage/schema.js';

const WORDS = ['amber', 'birch', 'cedar', 'dune', 'ember', 'fjord', 'grove', 'heath'];
const relevance = [{ field: 'relevance', desc: true }, { field: 'created_at', desc: true }] as ListQuery['order'];
const at = (i: number) => new Date(Date.parse('2035-01-01T00:00:00.000Z') + i * 1000).toISOString();

for (const store of testStores()) {
  describe(`content list query plans (${store})`, () => {
    let server: TestServer;
    let account: TestAccount;
    let db: Kysely<Database>;
    let close: () => Promise<void>;
    const statements: { sql: string; parameters: readonly unknown[] }[] = [];
    const log = (event: LogEvent) => void (event.level === 'query' && statements.push({ sql: event.query.sql, parameters: event.query.parameters }));

    before(async () => {
      server = await startServer(store);
      account = await server.account();
      const other = await server.account();
      const repo = new ContentRepository(server.app.store.dialect);
      await server.app.store.transaction(async (tx) => {
        for (const [owner, prefix] of [[account, 'a'], [other, 'b']] as const) {
          for (let batch = 0; batch < 3000; batch += 500) {
            await repo.insertMany(tx, owner.accountId, Array.from({ length: 500 }, (_, j) => {
              const i = batch + j;
              return {
                id: `content_${prefix}${String(i).padStart(25, '0')}`, title: `${WORDS[i % 8]} title ${i}`, type: ['blog', 'manual'][i % 2]!,
                content: `${WORDS[(i * 3) % 8]} body text tag${i}`, status: ['draft', 'published', 'archived'][i % 3]!, author: owner.userId,
                created_at: at(i), updated_at: at(i), published_at: i % 3 === 1 ? at(i) : null, version: 1,
              };
            }));
          }
        }
      });
      if (store === 'postgres') {
        await sql`ANALYZE`.execute(server.app.store.db);
        const url = (server.app.config.store as { url: string }).url;
        const pool = new pg.Pool({ connectionString: url, max: 1 });
        db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
        // With a few thousand rows a sequential scan is rightly cheaper; what is checked here is that
        // an index can serve each query (at a million rows the planner then has no other choice).
        await sql`SET enable_seqscan = off`.execute(db);
      } else {
        const file = new SQLite((server.app.config.store as { file: string }).file);
        db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }), log });
      }
      close = () => db.destroy();
    });
    after(async () => {
      await close();
      await server.close();
    });

    /**
     * The plan of every statement `run` sent that reads content, one line per step. `alone` hides
     * the other indexes of content (in a transaction rolled back at once), so what is shown is
     * whether the search index can serve the statement, whatever a small table makes cheapest.
     */
    async function plans(run: (repo: ContentRepository) => Promise<unknown>, alone = false): Promise<string[]> {
      statements.length = 0;
      await run(new ContentRepository(server.app.store.dialect));
      const sent = statements.filter((statement) => /from "?content(_counts|_fts)?"?\s/i.test(statement.sql));
      assert.ok(sent.length > 0);
      const result: string[] = [];
      if (alone) await sql`BEGIN`.execute(db);
      try {
        if (alone) {
          for (const index of ['content_account_created', 'content_account_type_status', 'content_account_status', 'content_account_updated', 'content_account_published', 'content_account_title']) {
            await sql.raw(`DROP INDEX ${index}`).execute(db);
          }
        }
        for (const statement of sent) {
          const explain = store === 'sqlite' ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN';
          const { rows } = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${explain} ${statement.sql}`, [...statement.parameters]));
          result.push(rows.map((r) => r.detail ?? r['QUERY PLAN']).join('\n'));
        }
      } finally {
        if (alone) await sql`ROLLBACK`.execute(db);
      }
      return result;
    }

    const query = (changes: Partial<ListQuery>): ListQuery => ({ filter: {}, order: [{ field: 'created_at', desc: true }], limit: 10, offset: 0, ...changes });

    /** A table scan of content, or a sort of everything a plain list reads. */
    function assertIndexed(plan: string, sorts: boolean, label: string): void {
      if (store === 'sqlite') {
        assert.doesNotMatch(plan, /^SCAN content(?!_fts)\b/m, `${label}\n${plan}`);
        assert.doesNotMatch(plan, /^SCAN content_counts\b/m, `${label}\n${plan}`);
        if (!sorts) assert.doesNotMatch(plan, /TEMP B-TREE FOR ORDER BY/, `${label}\n${plan}`);
      } else {
        assert.doesNotMatch(plan, /Seq Scan on content\b/, `${label}\n${plan}`);
        // Incremental Sort orders only the ties of an index's leading key (id within one title, say).
        if (!sorts) assert.doesNotMatch(plan, /(^|->)\s*Sort\s+\(/m, `${label}\n${plan}`);
      }
    }

    const keyed = (order: ListQuery['order'], values: (string | number | null)[], id = 'content_a0000000000000000000001500') => query({ order, after: { values, id } });
    const lists: [string, ListQuery][] = [
      ['newest first', query({})],
      ['filtered', query({ filter: { type: 'blog', status: 'published' } })],
      ['deep page by cursor', keyed([{ field: 'created_at', desc: true }], [at(1500)])],
      ['filtered deep page', { ...keyed([{ field: 'created_at', desc: true }], [at(1500)]), filter: { type: 'blog', status: 'published' } }],
      ['created_at ascending', keyed([{ field: 'created_at', desc: false }], [at(1500)])],
      ['updated_at descending', keyed([{ field: 'updated_at', desc: true }], [at(1500)])],
      ['title', keyed([{ field: 'title', desc: false }], ['ember title 1500'])],
      ['-title', keyed([{ field: 'title', desc: true }], ['ember title 1500'])],
      ['published_at among dated', keyed([{ field: 'published_at', desc: false }], [at(1500)])],
      ['-published_at among dated', keyed([{ field: 'published_at', desc: true }], [at(1500)])],
      ['published_at among undated', keyed([{ field: 'published_at', desc: false }], [null])],
    ];
    for (const [label, list] of lists) {
      it(`${label}: an index walk, no sort, no scan`, async () => {
        for (const plan of await plans((repo) => repo.page(db, account.accountId, list))) assertIndexed(plan, false, label);
        for (const plan of await plans((repo) => repo.total(db, account.accountId, list.filter))) assertIndexed(plan, false, `${label} total`);
      });
    }

    const searches: [string, SearchWords, Partial<ListQuery>][] = [
      // Selective words, as searches mostly are: for a word in a quarter of all items the planner
      // rightly reads the account's rows instead (docs/content.md).
      ['one word', searchWords('tag1234')!, { order: relevance }],
      ['two words, a prefix', searchWords('body tag12')!, { order: relevance }],
      ['with a cursor', searchWords('tag12')!, { order: relevance, after: { values: [0, at(1500)], id: 'content_a0000000000000000000001500' } }],
      ['sorted by title, filtered', searchWords('tag15')!, { order: [{ field: 'title', desc: false }], filter: { type: 'manual' } }],
    ];
    for (const [label, words, changes] of searches) {
      it(`search, ${label}: read through the search index`, async () => {
        const list = query(changes);
        // PostgreSQL weighs the search index against the account's btree rows by the table's size:
        // at a few thousand rows either may win, so there the other indexes are set aside.
        const alone = store === 'postgres';
        const found = await plans(async (repo) => repo.page(db, account.accountId, { ...list, search: await repo.prepareSearch(db, account.accountId, words) }), alone);
        const counted = await plans(async (repo) => repo.total(db, account.accountId, list.filter, await repo.prepareSearch(db, account.accountId, words)), alone);
        if (store === 'sqlite' && !list.filter.type) {
          // A search's total with no other filter is counted in the search index alone: no item's row is read.
          assert.equal(counted.length, 1);
          assert.match(counted[0]!, /SCAN content_fts VIRTUAL TABLE INDEX/, `${label} total\n${counted[0]}`);
          assert.doesNotMatch(counted[0]!, /SEARCH content\b|SCAN content\b/, `${label} total\n${counted[0]}`);
          counted.length = 0;
        }
        for (const plan of [...found, ...counted]) {
          assertIndexed(plan, true, label);
          if (/^SEARCH content USING INDEX sqlite_autoindex_content_1 \(id=\?\)$|^Index Scan using content_pkey on content\b/.test(plan)) continue; // the page's shown columns, by id
          // The keys of the window's matches the page needs, by rowid.
          if (store === 'sqlite' && /^SEARCH content(_keys)? USING INTEGER PRIMARY KEY \(rowid=\?\)$/m.test(plan) && !/content_fts|SCAN content/.test(plan)) continue;
          if (store === 'sqlite' && /MATERIALIZE matches/.test(plan)) {
            // A first page's count and window (rowids and tiers): the search index alone; only the
            // matches' rowids are ordered.
            assert.match(plan, /SCAN content_fts VIRTUAL TABLE INDEX/, `${label}\n${plan}`);
            assert.doesNotMatch(plan, /SEARCH content\b|SCAN content\b/, `${label}\n${plan}`);
          } else if (store === 'sqlite') {
            // The matches drive the statement (rows fetched by rowid), not a walk of the account's items.
            assert.match(plan, /SCAN content_fts VIRTUAL TABLE INDEX/, `${label}\n${plan}`);
            assert.match(plan, /SEARCH content USING INTEGER PRIMARY KEY \(rowid=\?\)/, `${label}\n${plan}`);
            assert.doesNotMatch(plan, /SEARCH content USING (COVERING )?INDEX/, `${label}\n${plan}`);
          } else {
            assert.match(plan, /Bitmap Index Scan on content_search/, `${label}\n${plan}`);
          }
        }
      });
    }
  });
}
