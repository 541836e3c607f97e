// Calls to deprecated routes (CONTRACT.md §11, §16), counted per account, billing cycle, route and
// key the way quota usage is: in memory per request, written in batches (flush(), every few
// seconds and on shutdown) — never a database write per request. The batch's transaction also
// tells the listener which accounts called which routes, so the deprecation notice is queued in
// the same commit as the counts that caused it.
import type { Deprecation } from '../../config.js';
import type { Store, Tx } from '../../storage/db.js';
import type { DeprecatedCallRepository, DeprecatedCallRow } from '../../storage/deprecated-call-repository.js';
import type { Principal } from '../auth/permissions.js';
import type { Clock } from '../ids.js';
import { billingCycle } from './plans.js';

/** Told, inside the batch's transaction, that an account called a deprecated route (at most once per batch). */
export interface DeprecatedRouteListener {
  called(tx: Tx, accountId: string, route: Deprecation): Promise<void>;
}

export class DeprecatedCalls {
  private readonly routes: Map<string, Deprecation>;
  private pending = new Map<string, DeprecatedCallRow>();
  /** The batch being written: still "unwritten" until its transaction has committed. */
  private writing: DeprecatedCallRow[] = [];
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly repo: DeprecatedCallRepository,
    private readonly clock: Clock,
    deprecations: Deprecation[],
    private readonly listener: DeprecatedRouteListener,
  ) {
    this.routes = new Map(deprecations.map((d) => [`${d.method} ${d.path}`, d]));
  }

  /** The deprecated route `method` + `routePath` (as registered), if it is one. */
  route(method: string, routePath: string | undefined): Deprecation | undefined {
    return routePath === undefined ? undefined : this.routes.get(`${method} ${routePath}`);
  }

  /** Counts one call of `route` made by `principal` (its key, or its dashboard session). */
  record(principal: Principal, route: Deprecation): void {
    const now = this.clock();
    const periodStart = billingCycle(principal.accountCreatedAt, now).start.toISOString();
    const id = `${principal.accountId} ${periodStart} ${route.method} ${route.path} ${principal.keyId}`;
    const row = this.pending.get(id);
    if (row) {
      row.calls += 1;
      row.last_called_at = now.toISOString();
    } else {
      this.pending.set(id, { account_id: principal.accountId, period_start: periodStart, method: route.method, path: route.path, key_id: principal.keyId, calls: 1, last_called_at: now.toISOString() });
    }
  }

  /** What this instance has counted for the account's cycle and not yet written. */
  unwritten(accountId: string, periodStart: string): DeprecatedCallRow[] {
    return [...this.writing, ...this.pending.values()].filter((r) => r.account_id === accountId && r.period_start === periodStart);
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
      await this.store.transaction(async (tx) => {
        await this.repo.add(tx, batch);
        const called = new Map(batch.map((r) => [`${r.account_id} ${r.method} ${r.path}`, r]));
        for (const row of called.values()) await this.listener.called(tx, row.account_id, this.routes.get(`${row.method} ${row.path}`)!);
      });
    } catch (error) {
      for (const row of batch) {
        const id = `${row.account_id} ${row.period_start} ${row.method} ${row.path} ${row.key_id}`;
        const kept = this.pending.get(id);
        if (kept) kept.calls += row.calls;
        else this.pending.set(id, row);
      }
      throw error;
    } finally {
      this.writing = [];
    }
  }
}
