// Where request counters live: in this process (one instance) or in Redis (instances sharing load,
// redis-rate-store.ts), behind one interface chosen in the composition root. A counter is either a
// window (requests since it opened; it closes `windowMs` after its first request) or a cycle's
// usage (requests that hold or have spent a unit of the monthly quota).

export interface QuotaProbe {
  /** The usage counter of the account's current billing cycle. */
  key: string;
  quota: number;
  /** Take a unit when one is left; false only checks (a WebSocket upgrade uses none). */
  reserve: boolean;
}

export interface Usage {
  /** The counter after this request; undefined when the store does not hold it yet (seed it). */
  used: number | undefined;
  /** A unit was taken for this request: spend it (2xx) or give it back with release(). */
  reserved: boolean;
}

export interface Hit extends Usage {
  /** Requests in the window, this one included. */
  count: number;
  /** When the window closes, in milliseconds since the epoch. */
  resetAt: number;
}

export interface RateStore {
  /**
   * Counts one request in the window `key` (opening one at `now` when none is open) and, when the
   * count is within `limit` and a quota is given, reserves a unit of it — in one atomic step.
   */
  hit(key: string, now: number, windowMs: number, limit: number, quota?: QuotaProbe): Promise<Hit>;
  /**
   * Sets a usage counter the store does not hold yet to `value` (unless another request just did),
   * kept for `ttlMs` after `now`, then probes it as hit() would.
   */
  seed(quota: QuotaProbe, value: number, now: number, ttlMs: number): Promise<Usage>;
  /** Gives back a unit reserved for a request that did not end 2xx. */
  release(usageKey: string): Promise<void>;
  read(usageKey: string): Promise<number | undefined>;
  close(): Promise<void>;
}

const SWEEP_EVERY_MS = 60_000;

/** Counters in this process: exact, synchronous, gone on restart. */
export class MemoryRateStore implements RateStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly usage = new Map<string, { used: number; expiresAt: number }>();
  private lastSweep = 0;

  async hit(key: string, now: number, windowMs: number, limit: number, quota?: QuotaProbe): Promise<Hit> {
    if (now - this.lastSweep >= SWEEP_EVERY_MS) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    const usage = quota && window.count <= limit ? this.probe(quota) : { used: undefined, reserved: false };
    return { count: window.count, resetAt: window.resetAt, ...usage };
  }

  async seed(quota: QuotaProbe, value: number, now: number, ttlMs: number): Promise<Usage> {
    if (!this.usage.has(quota.key)) this.usage.set(quota.key, { used: value, expiresAt: now + ttlMs });
    return this.probe(quota);
  }

  async release(usageKey: string): Promise<void> {
    const usage = this.usage.get(usageKey);
    if (usage && usage.used > 0) usage.used--;
  }

  async read(usageKey: string): Promise<number | undefined> {
    return this.usage.get(usageKey)?.used;
  }

  async close(): Promise<void> {}

  private probe(quota: QuotaProbe): Usage {
    const usage = this.usage.get(quota.key);
    if (!usage) return { used: undefined, reserved: false };
    if (!quota.reserve || usage.used >= quota.quota) return { used: usage.used, reserved: false };
    return { used: ++usage.used, reserved: true };
  }

  /** Forgets closed windows and the usage of cycles long over, so memory follows the active accounts. */
  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    for (const [key, usage] of this.usage) if (usage.expiresAt <= now) this.usage.delete(key);
  }
}
