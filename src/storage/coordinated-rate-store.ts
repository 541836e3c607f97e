// Rate-limit counters shared by the workers of one host without Redis: every step is one request to
// the coordinator (the cluster primary), which applies it to its in-memory counters one at a time,
// so counts are exact across workers. Costs one IPC round trip per step (docs/benchmarks.md).
import type { Hit, QuotaProbe, RateStore, Usage } from './rate-store.js';

export type RateOp = 'hit' | 'seed' | 'release' | 'read';

/** What this store needs of the cluster coordinator (src/cluster/coordinator.ts): one request, one answer. */
export interface RateRequests {
  request(message: { cms: 'rate'; op: RateOp; args: unknown[] }): Promise<unknown>;
}

export class CoordinatedRateStore implements RateStore {
  constructor(private readonly coordinator: RateRequests) {}

  async hit(key: string, now: number, windowMs: number, limit: number, quota?: QuotaProbe): Promise<Hit> {
    return (await this.coordinator.request({ cms: 'rate', op: 'hit', args: [key, now, windowMs, limit, quota] })) as Hit;
  }

  async seed(quota: QuotaProbe, value: number, now: number, ttlMs: number): Promise<Usage> {
    return (await this.coordinator.request({ cms: 'rate', op: 'seed', args: [quota, value, now, ttlMs] })) as Usage;
  }

  async release(usageKey: string): Promise<void> {
    await this.coordinator.request({ cms: 'rate', op: 'release', args: [usageKey] });
  }

  async read(usageKey: string): Promise<number | undefined> {
    return (await this.coordinator.request({ cms: 'rate', op: 'read', args: [usageKey] })) as number | undefined;
  }

  async close(): Promise<void> {}
}
