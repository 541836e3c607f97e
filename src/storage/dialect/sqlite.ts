// SQLite specifics: the connection with its durability pragmas, and driver error translation.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { SqliteDialect } from 'kysely';
import { UniqueViolation } from '../errors.js';

export function sqliteDialect(file: string): SqliteDialect {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new SQLite(file);
  // WAL lets readers run beside the writer; synchronous=FULL fsyncs the WAL on every commit so an
  // acknowledged write survives a power loss, not only a process crash.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return new SqliteDialect({ database: db });
}

export function translateSqliteError(error: unknown): unknown {
  const e = error as { code?: string; message?: string };
  if (e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    // better-sqlite3 reports "UNIQUE constraint failed: users.email".
    const column = /failed: (\S+)/.exec(e.message ?? '')?.[1];
    return new UniqueViolation(column, error);
  }
  return error;
}
