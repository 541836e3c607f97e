// Group commit for SQLite. With synchronous=FULL every COMMIT fsyncs the WAL, and better-sqlite3
// runs that fsync on the event loop; one transaction per request makes the disk the limit. Instead,
// the transactions that arrive together run in one SQLite transaction, each inside a savepoint (so
// one failing undoes only itself), then one COMMIT makes them all durable at once. Nobody hears
// "done" before that COMMIT has returned, so an acknowledged write is exactly as durable as before.
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { Tx } from './db.js';
import { outsideTransactionScope } from './transaction-scope.js';

interface Pending {
  work: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown; hooks: (() => void)[] } | { ok: false; error: unknown };

export class GroupCommit {
  private queue: Pending[] = [];
  private running = false;

  /**
   * @param hooksOf takes the after-commit callbacks a unit of work registered on its transaction
   *   (they must run only once the batch is durable, and not at all for a unit that failed).
   * @param committed hears of each COMMIT (the WAL's checkpointer).
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly translate: (error: unknown) => unknown,
    private readonly hooksOf: (tx: Tx) => (() => void)[],
    private readonly committed: () => void = () => {},
  ) {}

  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.queue.length === 0) return;
    this.running = true;
    // setImmediate runs after the current I/O phase, so every request parsed in it joins this batch.
    // The batch belongs to no caller: it runs (and runs its after-commit hooks) outside their scopes.
    outsideTransactionScope(() =>
      setImmediate(() => {
        const batch = this.queue;
        this.queue = [];
        this.flush(batch).finally(() => {
          this.running = false;
          this.schedule();
        });
      }),
    );
  }

  private async flush(batch: Pending[]): Promise<void> {
    const outcomes: Outcome[] = [];
    try {
      const trx = await this.db.startTransaction().execute();
      try {
        // A batch of one needs no savepoint: if it fails, the whole transaction is rolled back.
        for (const item of batch) outcomes.push(await this.unit(trx, item, batch.length > 1));
        if (outcomes.some((o) => o.ok)) {
          await trx.commit().execute();
          this.committed();
        } else await trx.rollback().execute();
      } catch (error) {
        await trx.rollback().execute().catch(() => {});
        throw error;
      }
    } catch (error) {
      // BEGIN, a savepoint command or COMMIT failed (disk full, I/O error): nothing was stored.
      const translated = this.translate(error);
      for (const item of batch) item.reject(translated);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (!outcome.ok) return item.reject(outcome.error);
      for (const hook of outcome.hooks) hook();
      item.resolve(outcome.value);
    });
  }

  /** One caller's work, inside its own savepoint when it shares the transaction with others. */
  private async unit(trx: Tx, item: Pending, savepoint: boolean): Promise<Outcome> {
    if (savepoint) await sql`savepoint unit`.execute(trx);
    try {
      const value = await item.work(trx);
      if (savepoint) await sql`release savepoint unit`.execute(trx);
      // Units run one after another, so the hooks registered now are this unit's.
      return { ok: true, value, hooks: this.hooksOf(trx) };
    } catch (error) {
      this.hooksOf(trx);
      if (savepoint) {
        await sql`rollback to savepoint unit`.execute(trx);
        await sql`release savepoint unit`.execute(trx);
      }
      return { ok: false, error: this.translate(error) };
    }
  }
}
