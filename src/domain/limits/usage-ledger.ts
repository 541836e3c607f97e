// Quota usage on its way to the database. Each 2xx adds one here, in memory, per key of the cycle and
// per UTC day of the account; flush() writes what has gathered in one transaction (app.ts calls it
// every FLUSH_EVERY_MS and on shutdown), so counting costs no database write per request and a crash
// loses at most the last interval's counts.
import type { Store } from '../../storage/db.js';
import type { UsageCountTable, UsageDayTable } from '../../storage/schema.js';
import type { UsageRepository } from '../../storage/usage-repository.js';

export const FLUSH_EVERY_MS = 5_000;

export class UsageLedger {
  private pending = new Map<string, UsageCountTable>();
  /** The batch being written: still "unwritten" until its transaction has committed. */
  private writing: UsageCountTable[] = [];
  private pendingDays = new Map<string, UsageDayTable>();
  private writingDays: UsageDayTable[] = [];
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

  /** Counts requests of the UTC day `day` (YYYY-MM-DD), for the per-day chart; written with the rest. */
  addDay(accountId: string, day: string, count = 1): void {
    const id = `${accountId} ${day}`;
    const row = this.pendingDays.get(id);
    if (row) row.used += count;
    else this.pendingDays.set(id, { account_id: accountId, day, used: count });
  }

  /** Per UTC day, what this instance has counted for the account and not yet written. */
  unwrittenDays(accountId: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const row of [...this.writingDays, ...this.pendingDays.values()]) {
      if (row.account_id === accountId) counts.set(row.day, (counts.get(row.day) ?? 0) + row.used);
    }
    return counts;
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
    if (this.pending.size === 0 && this.pendingDays.size === 0) return;
    const batch = [...this.pending.values()];
    const days = [...this.pendingDays.values()];
    this.writing = batch;
    this.writingDays = days;
    this.pending = new Map();
    this.pendingDays = new Map();
    try {
      await this.store.transaction(async (tx) => {
        await this.repo.add(tx, batch);
        await this.repo.addDays(tx, days);
      });
    } catch (error) {
      for (const row of batch) this.add(row.account_id, row.period_start, row.key_id, row.used);
      for (const row of days) this.addDay(row.account_id, row.day, row.used);
      throw error;
    } finally {
      this.writing = [];
      this.writingDays = [];
    }
  }
}
