// The expression indexes of indexed typed fields (CONTRACT.md §20), made and dropped as models
// change. One index per content type and field name, shared by every account whose model of that
// type indexes a field of that name: `cf_<type>_<name>` on (account_id, <the field's expression>, id),
// partial on the type; a list field's is `cfl_<type>_<name>`, a GIN index on PostgreSQL (SQLite
// has no index for list elements). On SQLite the index also holds `type` and, after the id (so the
// order is unchanged), `created_at`: a list's statements read only ids and order keys
// (content-list.ts), so a filter on the field is answered from the index alone, its matches sorted
// newest first without reading a row. An index of the older shape is reported invalid, so the
// indexer rebuilds it. On PostgreSQL each such field also gets an expression statistics object,
// `cfs_<type>_<name>` (PostgreSQL keeps no statistics for a partial index's expression): without
// it the planner guesses a third of the items match a range and walks the account's newest items
// testing each, which for a rare value reads the whole account. On PostgreSQL each index is built
// with CREATE INDEX CONCURRENTLY, outside any transaction, so writes go on while it is built; on
// SQLite an index build holds the write lock for its duration (docs/content-model.md: how long, and why that is accepted).
import { sql } from 'kysely';
import type { Db } from './db.js';
import type { Dialect } from './schema.js';
import { FIELD_NAME } from './content-fields.js';

export interface WantedIndex {
  type: string;
  name: string;
  list: boolean;
}

const TYPE = /^[a-z]+$/;
const PREFIX = /^cfl?_/;

export function indexName(index: WantedIndex): string {
  if (!TYPE.test(index.type) || !FIELD_NAME.test(index.name)) throw new Error(`not an index: ${index.type}.${index.name}`);
  return `${index.list ? 'cfl' : 'cf'}_${index.type}_${index.name}`;
}

export class ContentFieldIndexes {
  constructor(private readonly dialect: Dialect) {}

  /** The field indexes that exist (PostgreSQL: and are valid; an interrupted concurrent build leaves an invalid one). */
  async existing(db: Db): Promise<{ name: string; valid: boolean }[]> {
    if (this.dialect === 'sqlite') {
      const { rows } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master where type = 'index' and tbl_name = 'content' and (name like 'cf\\_%' escape '\\' or name like 'cfl\\_%' escape '\\')`.execute(db);
      return rows.map((row) => ({ name: row.name, valid: SQLITE_SHAPE.test(row.sql) }));
    }
    const { rows } = await sql<{ name: string; valid: boolean }>`
      select c.relname as name, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
      where t.relname = 'content' and t.relnamespace = to_regnamespace(current_schema())::oid and (c.relname like 'cf\\_%' or c.relname like 'cfl\\_%')`.execute(db);
    return rows.filter((row) => PREFIX.test(row.name));
  }

  /** Builds an index: on SQLite pass the write transaction (the one writer), on PostgreSQL the pool (no transaction). */
  async create(db: Db, index: WantedIndex): Promise<void> {
    const name = sql.id(indexName(index));
    const type = sql.lit(index.type);
    if (this.dialect === 'sqlite') {
      if (index.list) return;
      await sql`create index if not exists ${name} on content (account_id, type, ${sqliteExpression(index.name)}, id, created_at) where type = ${type}`.execute(db);
      return;
    }
    const expr = sql`(fields -> ${sql.lit(index.name)})`;
    if (index.list) await sql`create index concurrently if not exists ${name} on content using gin (${expr} jsonb_path_ops) where type = ${type}`.execute(db);
    else await sql`create index concurrently if not exists ${name} on content (account_id, ${expr}, id) where type = ${type}`.execute(db);
  }

  async drop(db: Db, name: string): Promise<void> {
    if (!PREFIX.test(name)) throw new Error(`not a field index: ${name}`);
    if (this.dialect === 'sqlite') await sql`drop index if exists ${sql.id(name)}`.execute(db);
    else {
      await sql`drop index concurrently if exists ${sql.id(name)}`.execute(db);
      if (name.startsWith('cf_')) await sql`drop statistics if exists ${sql.id(statisticsName(name))}`.execute(db);
    }
  }

  /**
   * PostgreSQL: makes the statistics object of each scalar field index that lacks one, then, if any
   * was made, gathers the statistics (ANALYZE samples the table; writes go on meanwhile). SQLite
   * needs none: its planner takes the field's index for the range.
   */
  async ensureStatistics(db: Db, indexes: WantedIndex[]): Promise<void> {
    if (this.dialect === 'sqlite') return;
    const { rows } = await sql<{ name: string }>`select stxname as name from pg_statistic_ext where stxnamespace = to_regnamespace(current_schema())::oid and stxname like 'cfs\\_%'`.execute(db);
    const present = new Set(rows.map((row) => row.name));
    const missing = indexes.filter((index) => !index.list && !present.has(statisticsName(indexName(index))));
    for (const index of missing) {
      await sql`create statistics if not exists ${sql.id(statisticsName(indexName(index)))} on (fields -> ${sql.lit(index.name)}) from content`.execute(db);
    }
    if (missing.length > 0) await sql`analyze content`.execute(db);
  }
}

/** The PostgreSQL statistics object of a scalar field's index `cf_<type>_<name>`: `cfs_<type>_<name>`. */
const statisticsName = (index: string) => index.replace(/^cf_/, 'cfs_');

/** How a SQLite field index of the current shape begins and ends (its definition as sqlite_master keeps it). */
const SQLITE_SHAPE = /\(account_id, type, json_extract\(fields, '[^']+'\), id, created_at\) where type = '[a-z]+'$/;

/** On SQLite the index is on json_extract(fields, '$.<name>'), written as the queries write it. */
function sqliteExpression(name: string) {
  return sql`json_extract(fields, ${sql.lit(`$.${name}`)})`;
}
