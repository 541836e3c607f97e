// Counters in Redis, shared by every instance: each step is one Lua script, so concurrent requests
// on any number of instances see one exact count. When Redis cannot be reached the store fails
// open to counters in this process — each instance then enforces the limits on its own — or, with
// RATE_LIMIT_ON_REDIS_DOWN=closed, refuses to admit anything (503); either way it goes back to
// Redis as soon as it answers, and counts the time spent without it (see docs/limits.md, "When
// Redis goes away").
import type { Redis } from 'ioredis';
import { StoreUnavailable } from './errors.js';
import { redisDriver } from './drivers.js';
import { MemoryRateStore, type Hit, type QuotaProbe, type RateStore, type Usage } from './rate-store.js';

/** KEYS: window[, usage]; ARGV: now, window ms, limit, quota, reserve (1/0). Returns {count, resetAt, used or -1, reserved}. */
const HIT = `
local now = tonumber(ARGV[1])
local reset = tonumber(redis.call('HGET', KEYS[1], 'r') or '0')
local count
if reset <= now then
  reset = now + tonumber(ARGV[2])
  count = 1
  redis.call('HSET', KEYS[1], 'c', 1, 'r', reset)
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + 60000)
else
  count = redis.call('HINCRBY', KEYS[1], 'c', 1)
end
if #KEYS < 2 or count > tonumber(ARGV[3]) then return {count, reset, -1, 0} end
local used = redis.call('GET', KEYS[2])
if not used then return {count, reset, -1, 0} end
used = tonumber(used)
if ARGV[5] ~= '1' or used >= tonumber(ARGV[4]) then return {count, reset, used, 0} end
return {count, reset, redis.call('INCR', KEYS[2]), 1}
`;

/** KEYS: usage; ARGV: value, ttl ms, quota, reserve. Returns {used, reserved}. */
const SEED = `
redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
local used = tonumber(redis.call('GET', KEYS[1]))
if ARGV[4] ~= '1' or used >= tonumber(ARGV[3]) then return {used, 0} end
return {redis.call('INCR', KEYS[1]), 1}
`;

/** KEYS: usage. */
const RELEASE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used > 0 then redis.call('DECR', KEYS[1]) end
return used
`;

interface Scripts {
  cmsHit(keys: number, ...args: (string | number)[]): Promise<[number, number, number, number]>;
  cmsSeed(key: string, value: number, ttlMs: number, quota: number, reserve: number): Promise<[number, number]>;
  cmsRelease(key: string): Promise<number>;
}

/** After a failed or timed-out command, Redis is left alone this long before it is tried again. */
const RETRY_AFTER_FAILURE_MS = 1000;
/** A command not answered this long after it was sent (event-loop lag aside, see answered()) counts as a failure. */
export const COMMAND_TIMEOUT_MS = 1000;

class RedisTimeout extends Error {
  constructor() {
    super(`Redis did not answer within ${COMMAND_TIMEOUT_MS} ms`);
  }
}

/**
 * `command`, or a RedisTimeout once COMMAND_TIMEOUT_MS has passed *and* the event loop has since
 * read what arrived: under load, timers run before the poll phase that would read a reply already
 * waiting in the socket, and a busy process must not take its own lag for Redis being down.
 */
function answered<T>(command: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => setImmediate(() => reject(new RedisTimeout())), COMMAND_TIMEOUT_MS);
  });
  return Promise.race([command, late]).finally(() => clearTimeout(timer));
}

export type RedisStateListener = (state: 'down' | 'up', error?: unknown) => void;

export class RedisRateStore implements RateStore {
  private readonly client: Redis;
  private readonly scripts: Scripts;
  private local = new MemoryRateStore();
  private outage = false;
  private retryAt = 0;
  private lastError: unknown;
  /** Milliseconds spent without Redis in outages that have ended, and when the current one began. */
  private degradedMs = 0;
  private outageSince = 0;
  /** Usage counters counted locally during an outage: Redis's copies are stale and are dropped on recovery. */
  private readonly touched = new Set<string>();

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly onState: RedisStateListener,
    /** Refuse admission (StoreUnavailable) rather than count locally while Redis is unreachable. */
    private readonly failClosed = false,
  ) {
    this.client = new (redisDriver().Redis)(url, {
      // Fail fast rather than queue: a request never waits for a reconnect, and a command is never
      // replayed after one (a replayed increment would count a request twice).
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // Only a backstop that frees commands left behind by answered() when Redis hangs.
      commandTimeout: 10 * COMMAND_TIMEOUT_MS,
      connectTimeout: 2000,
      retryStrategy: (times) => Math.min(times * 100, 1000),
      // Commands issued in the same tick share one write: far fewer syscalls under load.
      enableAutoPipelining: true,
      scripts: { cmsHit: { lua: HIT }, cmsSeed: { lua: SEED, numberOfKeys: 1 }, cmsRelease: { lua: RELEASE, numberOfKeys: 1 } },
    });
    this.scripts = this.client as unknown as Scripts;
    this.client.on('error', (error: unknown) => this.fail(error));
    this.client.on('ready', () => this.recover());
  }

  /** Resolves once connected, or after `timeoutMs` (the store then starts in its outage mode, open or closed). */
  connected(timeoutMs: number): Promise<boolean> {
    if (this.client.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.fail(new Error(`Redis did not answer within ${timeoutMs / 1000} s of start-up`));
        done(false);
      }, timeoutMs);
      const onReady = () => done(true);
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        resolve(ok);
      };
      this.client.on('ready', onReady);
    });
  }

  hit(key: string, now: number, windowMs: number, limit: number, quota?: QuotaProbe): Promise<Hit> {
    return this.attempt(
      async () => {
        const keys = quota ? [this.prefix + key, this.prefix + quota.key] : [this.prefix + key];
        const [count, resetAt, used, reserved] = await this.scripts.cmsHit(keys.length, ...keys, now, windowMs, limit, quota?.quota ?? 0, quota?.reserve ? 1 : 0);
        return { count, resetAt, used: used < 0 ? undefined : used, reserved: reserved === 1 };
      },
      (local) => local.hit(key, now, windowMs, limit, quota),
      quota?.key,
      true,
    );
  }

  seed(quota: QuotaProbe, value: number, now: number, ttlMs: number): Promise<Usage> {
    return this.attempt(
      async () => {
        const [used, reserved] = await this.scripts.cmsSeed(this.prefix + quota.key, value, ttlMs, quota.quota, quota.reserve ? 1 : 0);
        return { used, reserved: reserved === 1 };
      },
      (local) => local.seed(quota, value, now, ttlMs),
      quota.key,
      true,
    );
  }

  /** Seconds spent without Redis so far (counting locally, or refusing), for /metrics. */
  degradedSeconds(): number {
    return (this.degradedMs + (this.outage ? Date.now() - this.outageSince : 0)) / 1000;
  }


  release(usageKey: string): Promise<void> {
    return this.attempt(
      async () => void (await this.scripts.cmsRelease(this.prefix + usageKey)),
      (local) => local.release(usageKey),
      usageKey,
    );
  }

  read(usageKey: string): Promise<number | undefined> {
    return this.attempt(
      async () => {
        const used = await this.client.get(this.prefix + usageKey);
        return used === null ? undefined : Number(used);
      },
      (local) => local.read(usageKey),
      usageKey,
    );
  }

  async close(): Promise<void> {
    this.client.removeAllListeners('ready');
    await this.client.quit().catch(() => this.client.disconnect());
  }

  /**
   * `remote`, or without Redis `local` on this process's counters — unless this is an admission
   * (`admits`) and the store fails closed: then the request is refused (503) rather than counted here.
   */
  private async attempt<T>(remote: () => Promise<T>, local: (store: MemoryRateStore) => Promise<T>, usageKey?: string, admits = false): Promise<T> {
    if (this.client.status === 'ready' && Date.now() >= this.retryAt) {
      try {
        const result = await answered(remote());
        if (this.outage) this.recover();
        return result;
      } catch (error) {
        this.fail(error);
      }
    } else if (this.client.status !== 'ready') {
      // The connection is gone before any command failed on it (ioredis noticed first): the outage
      // starts now, not when its reconnection first fails.
      this.fail(new Error(`Redis is not connected (${this.client.status})`));
    }
    if (admits && this.failClosed) throw new StoreUnavailable(this.lastError ?? new Error('Redis is not connected'));
    if (usageKey !== undefined) this.touched.add(usageKey);
    return local(this.local);
  }

  private fail(error: unknown): void {
    this.retryAt = Date.now() + RETRY_AFTER_FAILURE_MS;
    this.lastError = error;
    if (this.outage) return;
    this.outage = true;
    this.outageSince = Date.now();
    this.onState('down', error);
  }

  /**
   * Back to Redis. Its hourly windows simply continue; its usage counters missed what was counted
   * here meanwhile, so those are dropped and re-seeded from the database on their next use.
   */
  private recover(): void {
    if (!this.outage) return;
    this.outage = false;
    this.degradedMs += Date.now() - this.outageSince;
    this.retryAt = 0;
    this.local = new MemoryRateStore();
    const stale = [...this.touched].map((key) => this.prefix + key);
    this.touched.clear();
    if (stale.length > 0) this.client.del(...stale).catch((error: unknown) => this.fail(error));
    this.onState('up');
  }
}
