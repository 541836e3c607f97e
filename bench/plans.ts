// How the store answers each read of the scale benchmark: the repository runs once per scenario on a
// second, logging connection, and each statement it sends is EXPLAINed (the plan's scan and sort
// steps are kept). Printed and written beside the figures, so a slow row can be told from a bad plan.
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import type { StoreConfig } from '../src/storage/db.js';
import { ContentRepository } from '../src/storage/content-repository.js';
import type { ListQuery } from '../src/storage/content-list.js';
import type { SearchWords } from '../src/storage/content-search.js';
import type { Database } from '../src/storage/schema.js';

export interface PlanCase {
  name: string;
  query: Omit<ListQuery, 'search'>;
  words?: SearchWords;
}

/** A second, read-only connection to the store (beside the server's own), with an optional query log. */
export function connect(store: StoreConfig, log?: (event: LogEvent) => void): Kysely<Database> {
  return store.kind === 'sqlite'
    ? new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(store.file, { readonly: true }) }), log })
    : new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: store.url, max: 1 }) }), log });
}

/** Per case, the steps of its statements' plans that read or order rows. */
export async function explain(store: StoreConfig, accountId: string, cases: PlanCase[]): Promise<Map<string, string>> {
  const sent: { sql: string; parameters: readonly unknown[] }[] = [];
  const log = (event: LogEvent) => void (event.level === 'query' && sent.push({ sql: event.query.sql, parameters: event.query.parameters }));
  const db = connect(store, log);
  const repo = new ContentRepository(store.kind);
  const plans = new Map<string, string>();
  try {
    for (const c of cases) {
      sent.length = 0;
      const search = c.words && (await repo.prepareSearch(db, accountId, c.words));
      await repo.list(db, accountId, { ...c.query, search });
      const steps: string[] = [];
      for (const statement of sent.filter((s) => /from "content(_counts|_keys|_fts)?"/i.test(s.sql))) {
        const text = store.kind === 'sqlite' ? `EXPLAIN QUERY PLAN ${statement.sql}` : `EXPLAIN ${statement.sql}`;
        const { rows } = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(text, [...statement.parameters]));
        for (const row of rows) {
          const step = (row.detail ?? row['QUERY PLAN'] ?? '').replace(/^[\s>-]+/, '').replace(/\s+\(cost=.*$/, '');
          if (/scan|search|sort|b-tree/i.test(step) && !steps.includes(step)) steps.push(step);
        }
      }
      plans.set(c.name, steps.join('; '));
    }
  } finally {
    await db.destroy();
  }
  return plans;
}
