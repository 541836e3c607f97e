// The expression indexes of indexed typed fields (CONTRACT.md §20), made and dropped as models
// change. One index per content type and field name, shared by every account whose model of that
// type indexes a field of that name: `cf_<type>_<name>` on (account_id, <the field's expression>, id),
// partial on the type; a list field's is `cfl_<type>_<name>`, a GIN index on PostgreSQL (SQLite
// has no index for list elements). On PostgreSQL each such field also gets an expression statistics
// object, `cfs_<type>_<name>` (PostgreSQL keeps no statistics for a partial index's expression):
// without it the planner guesses a third of the items match a range and walks the account's newest
// items testing each, which for a rare value reads the whole account. PostgreSQL builds each index
// with CREATE INDEX CONCURRENTLY, outside any transaction, so writes go on while it is built.
//
// SQLite has no concurrent build: an index build holds its one writer throughout (3.7 s at a
// million items). So there the indexes are on `content_keys`, SQLite's narrow copy of each item's
// list keys (dialect/sqlite-content-keys.ts), and a new one is made by filling a new copy whose
// indexes exist from the start, in chunks of CHUNK rows, each a short write turn, then swapping it
// in. The index holds `type` and, after the id (so the order is unchanged), `created_at`: a list's
// statements read only ids and order keys (content-list.ts), so a filter on the field is answered
// from the index alone, its matches sorted newest first without reading a row. Its name ends in the
// table's generation (`cf_manual_pages__a`); the names reported and asked for are without it. An
// index of another shape is reported invalid, so the indexer rebuilds it.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, Store, Tx } from './db.js';
import type { Dialect } from './schema.js';
import { FIELD_NAME } from './content-fields.js';
import { KEYS, NEXT, OLD, copyChunk, createTable, currentGeneration, execute, retireStep, other, setAside, swap, tableExists, triggers, type Generation } from './dialect/sqlite-content-keys.js';

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

/** SQLite: rows of content copied per write turn while a field index is built (about 15 ms each). */
const CHUNK = 2000;
/** SQLite: how long a build's lease lasts unless renewed (each chunk renews it). */
const LEASE_MS = 30_000;
const BUILD_LEASE = 'content_keys_build';

export class ContentFieldIndexes {
  /** Who holds the SQLite build lease when this instance builds. */
  private readonly owner = randomUUID();

  constructor(
    private readonly dialect: Dialect,
    /** SQLite: rows copied per write turn (smaller in tests, to see writes land between turns). */
    private readonly chunk = CHUNK,
  ) {}

  /** The field indexes that exist (PostgreSQL: and are valid; an interrupted concurrent build leaves an invalid one). */
  async existing(db: Db): Promise<{ name: string; valid: boolean }[]> {
    if (this.dialect === 'sqlite') {
      const { rows } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master where type = 'index' and tbl_name = ${KEYS} and name like 'cf\\_%' escape '\\'`.execute(db);
      return rows.map((row) => ({ name: row.name.replace(GENERATION, ''), valid: GENERATION.test(row.name) && SQLITE_SHAPE.test(row.sql) }));
    }
    const { rows } = await sql<{ name: string; valid: boolean }>`
      select c.relname as name, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
      where t.relname = 'content' and t.relnamespace = to_regnamespace(current_schema())::oid and (c.relname like 'cf\\_%' or c.relname like 'cfl\\_%')`.execute(db);
    return rows.filter((row) => PREFIX.test(row.name));
  }

  /**
   * Makes the `missing` indexes; `wanted` is every index the models want (on SQLite a new copy of
   * content_keys is built with all of them). False when another process is building on SQLite:
   * ask again once it is done.
   */
  async make(store: Store, missing: WantedIndex[], wanted: WantedIndex[]): Promise<boolean> {
    // SQLite keeps no index for a list field's elements.
    if (this.dialect === 'sqlite') return missing.every((index) => index.list) || this.rebuild(store, wanted.filter((index) => !index.list));
    for (const index of missing) {
      const name = sql.id(indexName(index));
      const type = sql.lit(index.type);
      const expr = sql`(fields -> ${sql.lit(index.name)})`;
      if (index.list) await store.run((db) => sql`create index concurrently if not exists ${name} on content using gin (${expr} jsonb_path_ops) where type = ${type}`.execute(db));
      else await store.run((db) => sql`create index concurrently if not exists ${name} on content (account_id, ${expr}, id) where type = ${type}`.execute(db));
    }
    return true;
  }

  /** Drops the index of that name (as `existing` reports it). */
  async drop(store: Store, name: string): Promise<void> {
    if (!PREFIX.test(name)) throw new Error(`not a field index: ${name}`);
    if (this.dialect === 'sqlite') {
      await store.transaction(async (tx) => sql`drop index if exists ${sql.id(`${name}__${await currentGeneration(tx)}`)}`.execute(tx));
      return;
    }
    await store.run(async (db) => {
      await sql`drop index concurrently if exists ${sql.id(name)}`.execute(db);
      if (name.startsWith('cf_')) await sql`drop statistics if exists ${sql.id(statisticsName(name))}`.execute(db);
    });
  }

  /**
   * SQLite: a new copy of content_keys with the `indexes`, filled `chunk` rows per write turn while
   * the triggers copy every change into it too, then swapped in; the old table is emptied in turns
   * of its own and dropped (dropping a million rows at once holds the writer for over a second).
   * Under a lease in `settings`, so one process builds at a time; what a build stopped by a crash
   * left (the copy, or the old table not yet emptied) is cleared the same way by the next build,
   * once that lease has run out.
   */
  private async rebuild(store: Store, indexes: WantedIndex[]): Promise<boolean> {
    if (!(await store.transaction((tx) => this.lease(tx)))) return false;
    await this.retire(store);
    const leftover = await this.turn(store, async (tx) => {
      if (!(await tableExists(tx, NEXT))) return false;
      await execute(tx, setAside(NEXT));
      return true;
    });
    if (leftover) await this.retire(store);
    await this.turn(store, async (tx) => {
      const next = other(await currentGeneration(tx));
      await execute(tx, [...createTable(NEXT, next), ...indexes.map((index) => sqliteIndex(NEXT, index, next)), ...triggers([KEYS, NEXT])]);
    });
    let after: number | null = 0;
    while (after !== null) {
      const from: number = after;
      after = await this.turn(store, (tx): Promise<number | null> => copyChunk(tx, NEXT, from, this.chunk));
    }
    await this.turn(store, (tx) => execute(tx, swap()));
    await this.retire(store);
    await store.transaction((tx) => tx.deleteFrom('settings').where('key', '=', BUILD_LEASE).execute());
    return true;
  }

  /** SQLite: takes the table set aside (`content_keys_old`) apart, a step per write turn, and drops it. */
  private async retire(store: Store): Promise<void> {
    while (await this.turn(store, (tx) => retireStep(tx, OLD, this.chunk * 10)));
  }

  /**
   * SQLite: one step of a build in a write turn of its own, under the lease, then a pause as long
   * as the turn: a build takes at most about half of the writer's time (and, in the writing
   * process, of its event loop), so the requests meanwhile wait one turn at most.
   */
  private async turn<T>(store: Store, step: (tx: Tx) => Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await store.transaction(async (tx) => {
      await this.lease(tx, true);
      return step(tx);
    });
    await new Promise((resolve) => setTimeout(resolve, performance.now() - started));
    return result;
  }

  /** Takes or renews the build lease; false when another process holds it (`held`: it must be ours, or the build stops). */
  private async lease(tx: Tx, held = false): Promise<boolean> {
    const row = await tx.selectFrom('settings').select('value').where('key', '=', BUILD_LEASE).executeTakeFirst();
    const current = row ? (JSON.parse(row.value) as { owner: string; until: number }) : undefined;
    if (held && current?.owner !== this.owner) throw new Error('content_keys build: the lease was taken over by another process');
    if (current && current.owner !== this.owner && current.until > Date.now()) return false;
    const value = JSON.stringify({ owner: this.owner, until: Date.now() + LEASE_MS });
    await tx.insertInto('settings').values({ key: BUILD_LEASE, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
    return true;
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
/** The generation a SQLite index's name ends in. */
const GENERATION = /__[ab]$/;

/** A SQLite field index on `table`, on json_extract(fields, '$.<name>'), written as the queries write it. */
function sqliteIndex(table: string, index: WantedIndex, generation: Generation): string {
  return `create index ${indexName(index)}__${generation} on ${table} (account_id, type, json_extract(fields, '$.${index.name}'), id, created_at) where type = '${index.type}'`;
}
