// When the next attempt of a failed delivery is made (CONTRACT.md §10): the Standard Webhooks
// schedule (or WEBHOOK_RETRY_SCHEDULE), stretched by up to 20 % of jitter so that endpoints that
// failed together do not all come back at the same instant, and never sooner than a receiver's
// Retry-After asks.

/** Seconds between attempts after the first: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
/** A Retry-After longer than the schedule's longest step is capped to it. */
const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;
const JITTER = 0.2;

/** Milliseconds a Retry-After header asks for (delta-seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | undefined, now: Date): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now.getTime();
  if (!Number.isFinite(ms) || ms <= 0) return undefined;
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/**
 * When attempt `attempt + 1` is due after attempt `attempt` failed at `now`, or undefined when the
 * schedule is exhausted.
 */
export function nextAttemptAt(
  schedule: readonly number[],
  attempt: number,
  now: Date,
  retryAfter: string | undefined,
  random: () => number = Math.random,
): Date | undefined {
  const step = schedule[attempt - 1];
  if (step === undefined) return undefined;
  const delay = Math.max(step * 1000 * (1 + JITTER * random()), retryAfterMs(retryAfter, now) ?? 0);
  return new Date(now.getTime() + Math.round(delay));
}
