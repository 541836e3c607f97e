// The next number of a slug made from a common title ("Untitled", "Hello world") is found by a seek
// to the title's last slug, not by reading every slug made from it: the lookup ran on every create,
// and with thousands of items of one title each create read thousands of index entries. Checked
// from the outside (the numbers items get, through a batch and one by one) and on the statement
// the repository sends, in both stores: SQLite's program steps through no index range (no `Next`
// loop), PostgreSQL's plan reads the index backwards to its first entry (no aggregate over a range).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type LogEvent } from 'kysely';
import pg from 'pg';
import { ContentSlugRepository } from '../src/storage/content-slug-repository.js';
import type { Database } from '../src/storage/schema.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

for (const store of testStores()) {
  describe(`slug numbers of a common title (${store})`, () => {
    let server: TestServer;
    let account: TestAccount;

    before(async () => {
      server = await startServer(store);
      account = await server.account();
    });
    after(() => server.close());

    it('number the slugs of one title in order, in batches and one by one', async () => {
      const create = (n: number) => Array.from({ length: n }, () => ({ op: 'create', data: { title: 'Hello world', type: 'blog', content: 'x' } }));
      const slugs: string[] = [];
      for (const n of [100, 50]) {
        const res = await server.client.post('/v1/content/batch', { key: account.key, json: { operations: create(n) } });
        assert.equal(res.status, 200, res.text);
        slugs.push(...res.body.data.map((result: { data: { slug: string } }) => result.data.slug));
      }
      const one = await server.client.post('/v1/content', { key: account.key, json: { title: 'Hello world', type: 'blog', content: 'x' } });
      assert.equal(one.status, 201, one.text);
      slugs.push(one.body.data.slug);
      assert.deepEqual(slugs, Array.from({ length: 151 }, (_, i) => (i === 0 ? 'hello-world' : `hello-world-${i + 1}`)));
    });

    it('look up each title’s last number with a seek, not a read of its slugs', async () => {
      const statements: { sql: string; parameters: readonly unknown[] }[] = [];
      const log = (event: LogEvent) => void (event.level === 'query' && statements.push({ sql: event.query.sql, parameters: event.query.parameters }));
      let db: Kysely<Database>;
      if (store === 'postgres') {
        db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: (server.app.config.store as { url: string }).url, max: 1 }) }), log });
        await sql`ANALYZE content_slugs`.execute(db);
        // A few hundred rows make a scan cheapest; what is checked is that the index can serve it.
        await sql`SET enable_seqscan = off`.execute(db);
      } else {
        db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite((server.app.config.store as { file: string }).file) }), log });
      }
      try {
        statements.length = 0;
        const last = await new ContentSlugRepository().lastNumbers(db, account.accountId, 'blog', ['hello-world', 'no-such-title']);
        assert.deepEqual([...last], [['hello-world', 151]]);
        assert.equal(statements.length, 1);
        const [{ sql: text, parameters }] = statements as [{ sql: string; parameters: readonly unknown[] }];
        if (store === 'sqlite') {
          const { rows } = await db.executeQuery<{ opcode: string }>(CompiledQuery.raw(`EXPLAIN ${text}`, [...parameters]));
          const opcodes = rows.map((row) => row.opcode);
          assert.ok(opcodes.includes('SeekLE'), opcodes.join(' '));
          assert.ok(!opcodes.includes('Next'), opcodes.join(' '));
        } else {
          const { rows } = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`EXPLAIN ${text}`, [...parameters]));
          const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
          assert.match(plan, /Index Only Scan Backward using content_slugs_base/, plan);
          assert.doesNotMatch(plan, /GroupAggregate|HashAggregate/, plan);
        }
      } finally {
        await db.destroy();
      }
    });
  });
}
