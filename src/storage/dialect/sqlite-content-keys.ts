// SQLite's copy of each item's list keys (migration 021): `content_keys` holds, for every row of
// `content`, the columns a list with typed fields reads — the account, type, status, dates, title
// sort key, id and `fields` — and nothing of the title or body. Triggers on `content` keep it in
// step in every write's transaction. The expression indexes of indexed typed fields live on this
// table, not on `content` (storage/content-field-indexes.ts), for one reason: SQLite cannot build an
// index without holding its one writer for the whole build, so a new field index is built on a new
// copy of this table (`content_keys_next`, its indexes made while it is empty), filled in chunks of
// a few thousand rows — each chunk a short write turn of its own, while the triggers write every
// change to both tables — and then swapped in, in one turn; the replaced table
// (`content_keys_old`) is emptied in chunks too before it is dropped. docs/content-model.md: why
// and what it costs.
//
// Every index on the table ends in `__<generation>` (`a` or `b`), as SQLite has no way to rename an
// index and the copy's indexes exist beside the current table's until the swap.
import { sql } from 'kysely';
import type { Db } from '../db.js';

export const KEYS = 'content_keys';
export const NEXT = 'content_keys_next';
/** The table a build replaced (or a copy a crash left), emptied in chunks before it is dropped. */
export const OLD = 'content_keys_old';
export type Generation = 'a' | 'b';

/** The columns of `content` copied, after the item's rowid (`item`). */
const COLUMNS = ['id', 'account_id', 'type', 'status', 'created_at', 'updated_at', 'published_at', 'publish_at', 'title_sort', 'fields'] as const;
const LIST = COLUMNS.join(', ');
const NEW_VALUES = COLUMNS.map((column) => `NEW.${column}`).join(', ');

/**
 * The table, and its one index of its own: a type's items of an account by status and date, the
 * copy of content's `content_account_type_status`, so a list on a field whose index does not exist
 * yet still reads only the account's items of that type.
 */
export function createTable(table: string, generation: Generation): string[] {
  return [
    `CREATE TABLE ${table} (item INTEGER PRIMARY KEY, id TEXT NOT NULL, account_id TEXT NOT NULL, type TEXT NOT NULL, status TEXT NOT NULL,
       created_at TEXT NOT NULL, updated_at TEXT NOT NULL, published_at TEXT, publish_at TEXT, title_sort TEXT NOT NULL, fields TEXT NOT NULL)`,
    `CREATE INDEX ck_account_type__${generation} ON ${table} (account_id, type, status, created_at, id)`,
  ];
}

/** The triggers that copy each change of `content` into `tables` (two while a copy is being filled). */
export function triggers(tables: string[]): string[] {
  // INSERT OR REPLACE: during a build the copy may hold the row already (or not yet).
  const copy = tables.map((table) => `INSERT OR REPLACE INTO ${table} (item, ${LIST}) VALUES (NEW.rowid, ${NEW_VALUES});`).join('\n     ');
  return [
    `DROP TRIGGER IF EXISTS content_keys_insert`,
    `DROP TRIGGER IF EXISTS content_keys_update`,
    `DROP TRIGGER IF EXISTS content_keys_delete`,
    `CREATE TRIGGER content_keys_insert AFTER INSERT ON content BEGIN
     ${copy}
   END`,
    // Every change of a copied column rewrites the row whole (updated_at moves on every write).
    `CREATE TRIGGER content_keys_update AFTER UPDATE OF ${LIST} ON content BEGIN
     ${copy}
   END`,
    `CREATE TRIGGER content_keys_delete AFTER DELETE ON content BEGIN
     ${tables.map((table) => `DELETE FROM ${table} WHERE item = OLD.rowid;`).join('\n     ')}
   END`,
  ];
}

/** Copies every item into `table` at once (the migration that makes the first table). */
export const copyAll = (table: string) => `INSERT INTO ${table} (item, ${LIST}) SELECT rowid, ${LIST} FROM content`;

export async function execute(db: Db, statements: string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/**
 * Copies the rows of content after rowid `after`, at most `limit` of them, into `table`; returns
 * the last rowid copied, or null when there was none left.
 */
export async function copyChunk(db: Db, table: string, after: number, limit: number): Promise<number | null> {
  const { rows } = await sql<{ last: number | null }>`SELECT max(rowid) AS last FROM (SELECT rowid FROM content WHERE rowid > ${after} ORDER BY rowid LIMIT ${limit})`.execute(db);
  const last = rows[0]?.last ?? null;
  if (last === null) return null;
  await sql`INSERT OR REPLACE INTO ${sql.table(table)} (item, ${sql.raw(LIST)}) SELECT rowid, ${sql.raw(LIST)} FROM content WHERE rowid > ${after} AND rowid <= ${last}`.execute(db);
  return Number(last);
}

/** The generation of the table `content_keys` (the suffix of its own index). */
export async function currentGeneration(db: Db): Promise<Generation> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ${KEYS} AND name LIKE 'ck\\_account\\_type\\_\\_%' ESCAPE '\\'`.execute(db);
  return rows[0]?.name.endsWith('__b') ? 'b' : 'a';
}

export const other = (generation: Generation): Generation => (generation === 'a' ? 'b' : 'a');

export async function tableExists(db: Db, table: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ${table}`.execute(db);
  return Number(rows[0]!.n) > 0;
}

/** The copy takes the place of the table, in one transaction: the old one is set aside, to be emptied in turns. */
export function swap(): string[] {
  return [...triggers([KEYS]).slice(0, 3), `ALTER TABLE ${KEYS} RENAME TO ${OLD}`, `ALTER TABLE ${NEXT} RENAME TO ${KEYS}`, ...triggers([KEYS]).slice(3)];
}

/** A copy left by a build that stopped (a crash) is set aside, and the triggers write the table alone again. */
export function setAside(table: string): string[] {
  return [...triggers([KEYS]), `ALTER TABLE ${table} RENAME TO ${OLD}`];
}

/**
 * One step of taking `table` apart, each small enough for one write turn: first its indexes, one
 * per step (dropping an index frees its pages), then its rows, `limit` per step (with no index
 * left, only the table's own pages), then the empty table. False once the table is gone.
 */
export async function retireStep(db: Db, table: string, limit: number): Promise<boolean> {
  if (!(await tableExists(db, table))) return false;
  const { rows: indexes } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ${table} AND sql IS NOT NULL LIMIT 1`.execute(db);
  if (indexes[0]) {
    await sql`DROP INDEX ${sql.id(indexes[0].name)}`.execute(db);
    return true;
  }
  const { numAffectedRows } = await sql`DELETE FROM ${sql.table(table)} WHERE item IN (SELECT item FROM ${sql.table(table)} ORDER BY item LIMIT ${limit})`.execute(db);
  if (Number(numAffectedRows ?? 0) === 0) await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  return true;
}
