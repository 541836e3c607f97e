// The expression indexes of indexed typed fields (CONTRACT.md §20), made and dropped as models
// change. One index per content type and field name, shared by every account whose model of that
// type indexes a field of that name: `cf_<type>_<name>` on (account_id, <the field's expression>, id),
// partial on the type; a list field's is `cfl_<type>_<name>`, a GIN index on PostgreSQL (SQLite
// has no index for list elements). On PostgreSQL each is built with CREATE INDEX CONCURRENTLY,
// outside any transaction, so writes go on while it is built; on SQLite an index build holds the
// write lock for its duration (docs/content-model.md: how long, and why that is accepted).
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
      const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'content' and (name like 'cf\\_%' escape '\\' or name like 'cfl\\_%' escape '\\')`.execute(db);
      return rows.map((row) => ({ name: row.name, valid: true }));
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
      await sql`create index if not exists ${name} on content (account_id, ${sqliteExpression(index.name)}, id) where type = ${type}`.execute(db);
      return;
    }
    const expr = sql`(fields -> ${sql.lit(index.name)})`;
    if (index.list) await sql`create index concurrently if not exists ${name} on content using gin (${expr} jsonb_path_ops) where type = ${type}`.execute(db);
    else await sql`create index concurrently if not exists ${name} on content (account_id, ${expr}, id) where type = ${type}`.execute(db);
  }

  async drop(db: Db, name: string): Promise<void> {
    if (!PREFIX.test(name)) throw new Error(`not a field index: ${name}`);
    if (this.dialect === 'sqlite') await sql`drop index if exists ${sql.id(name)}`.execute(db);
    else await sql`drop index concurrently if exists ${sql.id(name)}`.execute(db);
  }
}

/** On SQLite the index is on json_extract(fields, '$.<name>'), written as the queries write it. */
function sqliteExpression(name: string) {
  return sql`json_extract(fields, ${sql.lit(`$.${name}`)})`;
}
