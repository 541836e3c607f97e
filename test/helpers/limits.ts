// For the rate-limit and quota suites: where counters live (memory, or Redis under a key prefix of
// this run's own, deleted afterwards), a clock the test moves by hand, the rate-limit headers of a
// response and usage alerts as stored.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { Db } from '../../src/storage/db.js';
import type { Response } from './client.js';

export type Counters = 'memory' | 'redis';

/** Memory always; Redis too when TEST_REDIS_URL is set. */
export function counterKinds(): Counters[] {
  return process.env.TEST_REDIS_URL ? ['memory', 'redis'] : ['memory'];
}

/** Server environment for `kind`, and a cleanup that deletes every Redis key it used. */
export function countersEnv(kind: Counters, redisUrl = process.env.TEST_REDIS_URL): { env: Record<string, string>; prefix: string; cleanup(): Promise<void> } {
  const prefix = `cms-test-${randomBytes(6).toString('hex')}:`;
  if (kind === 'memory') return { env: {}, prefix, cleanup: async () => {} };
  return {
    env: { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: prefix },
    prefix,
    cleanup: () => deleteRedisKeys(prefix),
  };
}

/** Deletes the keys under `prefix` (never anything else: Redis is shared by everyone on the machine). */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(process.env.TEST_REDIS_URL!);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Keys under `prefix` now in Redis. */
export async function redisKeys(prefix: string): Promise<string[]> {
  const redis = new Redis(process.env.TEST_REDIS_URL!);
  try {
    return await redis.keys(`${prefix}*`);
  } finally {
    redis.disconnect();
  }
}

/** A clock the test sets and moves by hand. */
export function manualClock(start: string) {
  let now = Date.parse(start);
  return {
    clock: () => new Date(now),
    now: () => now,
    set: (iso: string) => {
      now = Date.parse(iso);
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export interface RateHeaders {
  limit: number;
  remaining: number;
  reset: number;
  policy: string;
  rateLimit: string;
}

/** The five rate-limit headers of a response, checked for shape and agreement with each other. */
export function rateHeaders(res: Response): RateHeaders {
  const h = res.headers;
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit-policy', 'ratelimit']) {
    assert.equal(typeof h[name], 'string', `${name} missing on a ${res.status}: ${JSON.stringify(h)}`);
  }
  const out = {
    limit: Number(h['x-ratelimit-limit']),
    remaining: Number(h['x-ratelimit-remaining']),
    reset: Number(h['x-ratelimit-reset']),
    policy: String(h['ratelimit-policy']),
    rateLimit: String(h.ratelimit),
  };
  for (const name of ['limit', 'remaining', 'reset'] as const) assert.ok(Number.isInteger(out[name]) && out[name] >= 0, `${name}: ${out[name]}`);
  const policy = /^"(hourly|ip)";q=(\d+);w=(\d+)$/.exec(out.policy);
  assert.ok(policy, out.policy);
  assert.equal(Number(policy[2]), out.limit);
  const current = new RegExp(`^"${policy[1]}";r=(\\d+);t=(\\d+)$`).exec(out.rateLimit);
  assert.ok(current, out.rateLimit);
  assert.equal(Number(current[1]), out.remaining);
  assert.ok(Number(current[2]) >= 1 && Number(current[2]) <= Number(policy[3]), out.rateLimit);
  return out;
}

/** Seconds to reset as RateLimit's `t` says it. */
export function secondsToReset(res: Response): number {
  return Number(/;t=(\d+)$/.exec(String(res.headers.ratelimit))![1]);
}

export function assertNoRateHeaders(res: Response): void {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit-policy', 'ratelimit']) {
    assert.equal(res.headers[name], undefined, `${name} on ${res.status}`);
  }
}

export interface StoredAlert {
  id: string;
  seq: number;
  created_at: string;
  data: { kind: string; threshold: number | null; used: number; limit: number; period_end: string };
}

/** The account's api_key.usage_alert events in the event log, in order. */
export async function usageAlerts(db: Db, accountId: string): Promise<StoredAlert[]> {
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('type', '=', 'api_key.usage_alert')
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({ id: r.id, seq: Number(r.seq), created_at: r.created_at, data: JSON.parse(r.data) }));
}

/** Polls `probe` until it returns something truthy (alerts are written just after the response). */
export async function eventually<T>(probe: () => Promise<T | false | undefined>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
