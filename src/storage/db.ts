// The store: one Kysely instance over SQLite or PostgreSQL, migrations, transactions, and
// translation of driver errors into typed ones. Everything above this file is dialect-free.
import { Kysely, Migrator, sql, type Transaction } from 'kysely';
import type { Database, Dialect } from './schema.js';
import { sqliteDialect, translateSqliteError } from './dialect/sqlite.js';
import { postgresDialect, translatePostgresError } from './dialect/postgres.js';
import { migrationProvider } from './migrations/index.js';

export type StoreConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;

export interface Store {
  readonly db: Db;
  readonly dialect: Dialect;
  /** Runs `work` in one transaction; driver errors come out translated (UniqueViolation, …). */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs `work` outside a transaction with the same error translation. */
  run<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /**
   * Serialises transactions that change one account's users (the last-owner rule): a row lock on
   * PostgreSQL; nothing on SQLite, where a single connection already runs one transaction at a time.
   */
  lockAccount(tx: Tx, accountId: string): Promise<void>;
  migrate(): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function openStore(config: StoreConfig): Store {
  const dialect: Dialect = config.kind;
  const translate = dialect === 'sqlite' ? translateSqliteError : translatePostgresError;
  const db = new Kysely<Database>({
    dialect: config.kind === 'sqlite' ? sqliteDialect(config.file) : postgresDialect(config.url).dialect,
  });

  async function guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw translate(error);
    }
  }

  return {
    db,
    dialect,
    transaction: (work) => guarded(() => db.transaction().execute(work)),
    run: (work) => guarded(() => work(db)),
    async lockAccount(tx, accountId) {
      if (dialect === 'postgres') await tx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
    },
    async migrate() {
      const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw new Error(`migration failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    },
    ping: () => guarded(async () => void (await sql`select 1`.execute(db))),
    close: () => db.destroy(),
  };
}
