// The store: one Kysely instance over SQLite or PostgreSQL, migrations, transactions, and
// translation of driver errors into typed ones. Everything above this file is dialect-free.
import { Kysely, Migrator, sql, type Transaction } from 'kysely';
import type { Database, Dialect } from './schema.js';
import { sqliteDialect, translateSqliteError } from './dialect/sqlite.js';
import { postgresDialect, translatePostgresError } from './dialect/postgres.js';
import { migrationProvider } from './migrations/index.js';
import { GroupCommit } from './group-commit.js';
import { StoreUnavailable } from './errors.js';
import { StoreHealth, type StoreStateListener } from './health.js';
import { currentTransactionScope, outsideTransactionScope } from './transaction-scope.js';

/** `poolSize`: connections each process keeps to PostgreSQL at most (default 10). */
export type StoreConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; poolSize?: number };
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;

export interface Store {
  readonly db: Db;
  readonly dialect: Dialect;
  /**
   * Runs `work` in one transaction and resolves once it is committed; driver errors come out
   * translated (UniqueViolation, …). On SQLite, transactions that arrive together share one commit
   * (group commit, see group-commit.ts), so `work` must only use `tx` and never wait on anything else.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs `work` outside a transaction with the same error translation. */
  run<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /** Calls `hook` once the transaction `tx` has committed; never if it rolls back. */
  afterCommit(tx: Tx, hook: () => void): void;
  migrate(): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /**
   * SQLite: checkpoint the WAL on a thread of this process rather than in the COMMIT that fills it
   * (dialect/sqlite-checkpointer.ts). For the process that does the writing (the server's writer);
   * a process that writes little (a forwarding worker, the CLI) leaves checkpoints to SQLite.
   */
  checkpointThread?: boolean;
  /** Hears, once, why the checkpoint thread cannot work (SQLite then checkpoints in the COMMIT again). */
  onCheckpointFallback?: (reason: string) => void;
}

/**
 * Opens the store. `onState` hears when it stops answering (a StoreUnavailable: every request that
 * needs it is answered 503) and when it answers again, once per change.
 */
export function openStore(config: StoreConfig, onState?: StoreStateListener, options: StoreOptions = {}): Store {
  const dialect: Dialect = config.kind;
  const translate = dialect === 'sqlite' ? translateSqliteError : translatePostgresError;
  const health = new StoreHealth(onState);
  const sqlite = config.kind === 'sqlite' ? sqliteDialect(config.file, options.checkpointThread ?? false, options.onCheckpointFallback) : undefined;
  const db = new Kysely<Database>({
    dialect: config.kind === 'sqlite' ? sqlite!.dialect : postgresDialect(config.url, health, config.poolSize),
  });

  async function guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      const value = await work();
      health.succeeded();
      return value;
    } catch (error) {
      const translated = translate(error);
      if (translated instanceof StoreUnavailable) health.failed(translated.cause);
      throw translated;
    }
  }

  const hooks = new WeakMap<Tx, (() => void)[]>();
  /** Removes and returns the hooks registered on `tx` so far. */
  const takeHooks = (tx: Tx) => {
    const registered = hooks.get(tx) ?? [];
    hooks.delete(tx);
    return registered;
  };
  const groupCommit = sqlite ? new GroupCommit(db, translate, takeHooks, () => sqlite.checkpointer?.committed()) : undefined;

  return {
    db,
    dialect,
    async transaction(given) {
      // The caller's scope is read here, where the caller is (a group-commit batch runs elsewhere).
      const scope = currentTransactionScope();
      const work: typeof given = scope
        ? async (tx) => {
            const result = await given(tx);
            await scope.beforeCommit(tx, result);
            return result;
          }
        : given;
      if (groupCommit) return guarded(() => groupCommit.run(work));
      let committed: Tx | undefined;
      const value = await guarded(() =>
        db.transaction().execute(async (tx) => {
          try {
            const result = await work(tx);
            committed = tx;
            return result;
          } catch (error) {
            takeHooks(tx);
            throw error;
          }
        }),
      );
      outsideTransactionScope(() => {
        for (const hook of takeHooks(committed!)) hook();
      });
      return value;
    },
    run: (work) => guarded(() => work(db)),
    afterCommit(tx, hook) {
      const registered = hooks.get(tx);
      if (registered) registered.push(hook);
      else hooks.set(tx, [hook]);
    },
    async migrate() {
      const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw new Error(`migration failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    },
    ping: () => guarded(async () => void (await sql`select 1`.execute(db))),
    async close() {
      await sqlite?.checkpointer?.close();
      await db.destroy();
    },
  };
}
