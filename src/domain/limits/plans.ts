// Plans (CONTRACT.md §8): the hourly limit and monthly quota an account gets — its plan's figures
// from config unless the account has its own — and its billing cycle, which restarts each month
// on the day the account was created.
import type { LimitsConfig, Plan } from '../../config.js';

export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;

/** What an account's limits are decided from: the principal of any of its keys carries these. */
export interface AccountTerms {
  plan: string;
  /** The account's own hourly limit; null: its plan's. */
  rateLimit: number | null;
  /** The account's own monthly quota; null: its plan's. */
  quota: number | null;
}

export interface Allowance {
  perHour: number;
  perCycle: number;
}

export function allowanceOf(config: Pick<LimitsConfig, 'hourly' | 'monthly'>, account: AccountTerms): Allowance {
  // An unknown plan (a row written by hand) gets the smallest plan's figures, not unlimited use.
  const plan: Plan = account.plan in config.hourly ? (account.plan as Plan) : 'free';
  return { perHour: account.rateLimit ?? config.hourly[plan], perCycle: account.quota ?? config.monthly[plan] };
}

export interface Cycle {
  start: Date;
  end: Date;
}

/**
 * The billing cycle that contains `now`: it starts at 00:00 UTC on the account's creation day of the
 * month, clamped to the month's length (an account created on the 31st renews on 28 or 29 February,
 * 30 April, then 31 May), and ends where the next one starts.
 */
export function billingCycle(accountCreatedAt: string, now: Date): Cycle {
  const day = new Date(accountCreatedAt).getUTCDate();
  const renewal = (year: number, month: number) => {
    const length = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    return new Date(Date.UTC(year, month, Math.min(day, length)));
  };
  let start = renewal(now.getUTCFullYear(), now.getUTCMonth());
  if (start.getTime() > now.getTime()) start = renewal(now.getUTCFullYear(), now.getUTCMonth() - 1);
  return { start, end: renewal(start.getUTCFullYear(), start.getUTCMonth() + 1) };
}

/** Whole seconds from `now` to `until`, at least 1: what Retry-After and RateLimit's `t` say. */
export function secondsUntil(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 1000));
}
