// Quota usage on its way to the database. Each 2xx adds one here, in memory; flush() writes what
// has gathered in one transaction (app.ts calls it every FLUSH_EVERY_MS and on shutdown), so
// counting costs no database write per request and a crash loses at most the last interval's counts.
import type { Store } from '../storage/db.js';
import type { UsageCountTable } from '../storage/schema.js';
import type { UsageRepository } from '../storage/usage-repository.js';

export const FLUSH_EVERY_MS = 5_000;

export class UsageLedger {
  private pending = new Map<string, UsageCountTable>();
  /** The batch being written: still "unwritten" until its transaction has committed. */
  private writing: UsageCountTable[] = [];
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly repo: UsageRepository,
  ) {}

  add(accountId: string, periodStart: string, keyId: string, count = 1): void {
    const id = `${accountId} ${periodStart} ${keyId}`;
    const row = this.pending.get(id);
    if (row) row.used += count;
    else this.pending.set(id, { account_id: accountId, period_start: periodStart, key_id: keyId, used: count });
  }

  /** Per key, what this instance has counted for the account's cycle and not yet written. */
  unwritten(accountId: string, periodStart: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const row of [...this.writing, ...this.pending.values()]) {
      if (row.account_id === accountId && row.period_start === periodStart) counts.set(row.key_id, (counts.get(row.key_id) ?? 0) + row.used);
    }
    return counts;
  }

  /** The account's usage of the cycle as far as this instance knows: the database's plus its own unwritten counts. */
  async total(accountId: string, periodStart: string): Promise<number> {
    const stored = await this.store.run((db) => this.repo.total(db, accountId, periodStart));
    let unwritten = 0;
    for (const n of this.unwritten(accountId, periodStart).values()) unwritten += n;
    return stored + unwritten;
  }

  /** Writes what has gathered; one write at a time, and a failed batch is kept for the next try. */
  flush(): Promise<void> {
    const run = this.last.then(() => this.write());
    this.last = run.catch(() => {});
    return run;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.writing = batch;
    this.pending = new Map();
    try {
      await this.store.transaction((tx) => this.repo.add(tx, batch));
    } catch (error) {
      for (const row of batch) this.add(row.account_id, row.period_start, row.key_id, row.used);
      throw error;
    } finally {
      this.writing = [];
    }
  }
}
