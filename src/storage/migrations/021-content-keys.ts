// SQLite's copy of each item's list keys, `content_keys` (storage/dialect/sqlite-content-keys.ts):
// the table, its triggers and its rows; the typed fields' expression indexes move to it (dropped
// from `content` here, made again on the new table by the field indexer at start). Copies every
// item once (about 2 s per million items). PostgreSQL: nothing (it builds its indexes CONCURRENTLY).
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';
import { KEYS, copyAll, createTable, triggers } from '../dialect/sqlite-content-keys.js';

export function contentKeys(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      const run = (statement: string) => sql.raw(statement).execute(db);
      const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'content' AND (name LIKE 'cf\\_%' ESCAPE '\\' OR name LIKE 'cfl\\_%' ESCAPE '\\')`.execute(db);
      for (const { name } of rows) await run(`DROP INDEX "${name}"`);
      const [table, index] = createTable(KEYS, 'a');
      await run(table!);
      await run(copyAll(KEYS));
      await run(index!);
      for (const statement of triggers([KEYS])) await run(statement);
    },
  };
}
