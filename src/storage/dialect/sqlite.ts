// SQLite specifics: the connection with its durability pragmas, and driver error translation.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';
import { StoreUnavailable, UniqueViolation } from '../errors.js';
import { Checkpointer, SAFETY_NET_PAGES } from './sqlite-checkpointer.js';

/**
 * What the WAL file is cut back to when SQLite begins it again after a checkpoint (in bytes). Left
 * alone, the file keeps the size of the longest burst it held (41.5 MB after a 10,000-file import,
 * the safety net below) until the server stops; it is rewritten in place, never shrunk. Steady
 * writes stay far below this size and never pay the truncation; a long burst pays it each time
 * the WAL begins again past it.
 */
export const WAL_SIZE_LIMIT = 8 * 1024 * 1024;

/**
 * The SQLite connection as a Kysely dialect. With `checkpointThread`, its WAL is checkpointed by a
 * thread (sqlite-checkpointer.ts; the server's writer): call `committed()` after each COMMIT.
 * Without, SQLite checkpoints in the COMMIT that takes the WAL past 1,000 pages, as it does by default;
 * so does the connection once the thread cannot work (`onFallback` hears why).
 */
export function sqliteDialect(
  file: string,
  checkpointThread: boolean,
  onFallback?: (reason: string) => void,
): { dialect: SqliteDialect; checkpointer?: Checkpointer } {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new SQLite(file);
  // WAL lets readers run beside the writer; synchronous=FULL fsyncs the WAL on every commit so an
  // acknowledged write survives a power loss, not only a process crash.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  const dialect = new ImmediateSqliteDialect({ database: withStatementCache(db) });
  if (!checkpointThread) return { dialect };
  // The thread checkpoints; this connection's own checkpoint is the safety net.
  db.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  const fallback = (reason: string) => {
    db.pragma('wal_autocheckpoint = 1000');
    onFallback?.(reason);
  };
  return { dialect, checkpointer: new Checkpointer(file, fallback) };
}

/**
 * Every transaction here may write (read-only work runs outside one, statement by statement), so
 * each takes the write lock when it begins: `BEGIN IMMEDIATE`. A deferred `BEGIN` that reads and
 * then writes, while another process (a second worker, the CLI) committed in between, can never
 * upgrade its snapshot to a write lock — SQLite answers SQLITE_BUSY_SNAPSHOT at once, and
 * busy_timeout cannot help. Taking the lock first, a conflict only waits (up to busy_timeout), and
 * the snapshot read inside is always the newest, so SQLITE_BUSY_SNAPSHOT cannot arise at all.
 * Kysely's transactions (db.transaction(), startTransaction(), the migrator's) all begin here.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * Kysely prepares every query afresh; preparing costs about four times running a small statement,
 * and unfinalised statements hold native memory until a garbage collection. Reuse them by SQL text.
 * Safe because Kysely's driver runs one statement at a time to completion on this connection.
 */
function withStatementCache(db: SQLite.Database, size = 500): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = (source: string): SQLite.Statement => {
    let statement = cache.get(source);
    if (statement) {
      cache.delete(source);
    } else {
      statement = db.prepare(source);
      if (cache.size >= size) cache.delete(cache.keys().next().value!);
    }
    cache.set(source, statement);
    return statement;
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Result codes (extended ones included, such as SQLITE_IOERR_FSYNC) that mean the file cannot be
 * used now, whatever the statement: another process holds the lock past busy_timeout, the disk
 * fails or is full, the file cannot be opened.
 */
const UNAVAILABLE = /^SQLITE_(?:BUSY|LOCKED|IOERR|FULL|CANTOPEN|NOMEM|PROTOCOL)(?:_|$)/;

export function translateSqliteError(error: unknown): unknown {
  const e = error as { code?: string; message?: string };
  if (e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    // better-sqlite3 reports "UNIQUE constraint failed: users.email".
    const column = /failed: (\S+)/.exec(e.message ?? '')?.[1];
    return new UniqueViolation(column, error);
  }
  if (e?.code !== undefined && UNAVAILABLE.test(e.code)) return new StoreUnavailable(error);
  return error;
}
