// Admission under CONTRACT.md §8: every request is counted in an hourly window of its key's account
// (or, without a valid key, in a one-minute window of its client address); over the limit it is
// refused, and then it is refused once the account's monthly quota is spent. A request that passes
// holds one unit of the quota until it is answered: a 2xx spends it, anything else gives it back.
import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { LimitsConfig } from '../../config.js';
import type { QuotaProbe, RateStore, Usage } from '../../storage/rate-store.js';
import { LimitExceeded } from '../errors.js';
import type { Clock } from '../ids.js';
import type { Principal } from '../auth/permissions.js';
import { allowanceOf, billingCycle, HOUR_MS, MINUTE_MS, secondsUntil, type Allowance, type Cycle } from './plans.js';
import type { UsageAlerts } from './usage-alerts.js';
import type { UsageLedger } from './usage-ledger.js';

/** What the rate-limit headers of a response show. */
export interface LimitState {
  policy: 'hourly' | 'ip';
  limit: number;
  /** Requests left in the window, this one counted. */
  remaining: number;
  windowSeconds: number;
  /** When the window closes (ms since the epoch). */
  resetAt: number;
  /** When the request was counted (ms since the epoch). */
  now: number;
}

export interface Admission {
  state: LimitState;
  /** Set when the request must be answered 429 instead. */
  refusal?: LimitExceeded;
  /** Call once the response is over: true for a 2xx, which spends the unit of quota reserved for it. */
  settle?: (succeeded: boolean) => Promise<void>;
  /** The usage alerts this refusal raised (the first 429 of a window; the quota's, if not written yet), being written. */
  alert?: Promise<void>;
  /** The request was counted but its quota could not be checked (store unreachable): answer this error. */
  failure?: unknown;
}

export type RouteKind = 'route' | 'unknown' | 'upgrade';

/** Sign-in attempts allowed per e-mail address per window, whatever their outcome. */
export const SIGN_IN_PER_EMAIL = 10;
const SIGN_IN_WINDOW_MS = 15 * MINUTE_MS;

/**
 * "Forgot password?" requests per e-mail address per hour: a bucket of their own, apart from
 * sign-in's, so a flood of anonymous reset requests never keeps the person from signing in (issue 21, P3-3).
 */
export const RESET_PER_EMAIL = 3;
const RESET_WINDOW_MS = HOUR_MS;

/** Invitations per recipient per hour, across the service (issue 21, P3-4): nobody is a mail cannon. */
export const INVITATIONS_PER_RECIPIENT = 3;

/** Usage counters stay in the store a day past their cycle's end. */
const USAGE_KEPT_MS = 24 * HOUR_MS;

/** An account's figures and current cycle, worked out once per principal object (the key cache renews it every second). */
interface Terms {
  allowance: Allowance;
  cycle: Cycle;
  start: string;
  end: string;
  usageKey: string;
}

export class RateLimiter {
  private readonly terms = new WeakMap<Principal, Terms>();

  constructor(
    private readonly rates: RateStore,
    private readonly ledger: UsageLedger,
    private readonly alerts: UsageAlerts,
    private readonly config: LimitsConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * A request with a valid key. An unknown route (404, 405) is counted but never refused: the route
   * is checked first (§3). A WebSocket upgrade is refused like any request but uses no quota.
   */
  async admitKey(principal: Principal, kind: RouteKind): Promise<Admission> {
    const now = this.clock();
    const t = now.getTime();
    const terms = this.termsOf(principal, now);
    const { allowance, cycle } = terms;
    const quota: QuotaProbe | undefined = kind === 'unknown' ? undefined : { key: terms.usageKey, quota: allowance.perCycle, reserve: kind === 'route' };
    const hit = await this.rates.hit(`hour:${principal.accountId}`, t, HOUR_MS, allowance.perHour, quota);
    const state: LimitState = {
      policy: 'hourly',
      limit: allowance.perHour,
      remaining: Math.max(0, allowance.perHour - hit.count),
      windowSeconds: HOUR_MS / 1000,
      resetAt: hit.resetAt,
      now: t,
    };
    if (!quota) return { state };

    if (hit.count > allowance.perHour) {
      const retry = secondsUntil(hit.resetAt, t);
      const periodEnd = new Date(hit.resetAt).toISOString();
      return {
        state,
        refusal: new LimitExceeded('rate_limited', `The rate limit of ${allowance.perHour} requests per hour is used up; retry in ${retry} s.`, retry),
        alert: this.alerts.raise(principal.accountId, [
          { marker: `rate_limit:${periodEnd}`, alert: { kind: 'rate_limit', threshold: null, used: hit.count, limit: allowance.perHour, period_end: periodEnd } },
        ]),
      };
    }

    let usage: Usage = hit;
    if (usage.used === undefined) {
      // The store does not hold this cycle's count yet: start it from what is recorded.
      try {
        const recorded = await this.ledger.total(principal.accountId, terms.start);
        usage = await this.rates.seed(quota, recorded, t, cycle.end.getTime() - t + USAGE_KEPT_MS);
      } catch (error) {
        return { state, failure: error };
      }
    }
    const spent = quota.reserve ? !usage.reserved : (usage.used ?? 0) >= quota.quota;
    if (spent) {
      const message = `The monthly quota of ${allowance.perCycle} requests is used up; it renews at ${terms.end}.`;
      return {
        state,
        refusal: new LimitExceeded('quota_exceeded', message, secondsUntil(cycle.end.getTime(), t)),
        // From here on no request of the cycle reaches settle(), so the refusals announce the quota
        // too: if the answer that reached it could not write its alert (a store error, a crash), or
        // the operator lowered the quota below the cycle's usage, this is where it gets written.
        // Once it is, its marker (and this instance's memory) makes this a no-op.
        alert: this.raiseQuotaAlerts(principal, terms, usage.used ?? quota.quota),
      };
    }
    if (!usage.reserved) return { state };
    return { state, settle: (succeeded) => this.settle(principal, terms, usage.used!, succeeded) };
  }

  private termsOf(principal: Principal, now: Date): Terms {
    let terms = this.terms.get(principal);
    if (!terms || now.getTime() < terms.cycle.start.getTime() || now.getTime() >= terms.cycle.end.getTime()) {
      const cycle = billingCycle(principal.accountCreatedAt, now);
      const start = cycle.start.toISOString();
      terms = { allowance: allowanceOf(this.config, principal), cycle, start, end: cycle.end.toISOString(), usageKey: usageKey(principal.accountId, start) };
      this.terms.set(principal, terms);
    }
    return terms;
  }

  /** A request without a valid key, counted against its client address (an IPv6 client by its /64). */
  async admitAddress(address: string, kind: RouteKind): Promise<Admission> {
    const t = this.clock().getTime();
    const limit = this.config.perAddress;
    const hit = await this.rates.hit(`ip:${addressBucket(address)}`, t, MINUTE_MS, limit);
    const state: LimitState = { policy: 'ip', limit, remaining: Math.max(0, limit - hit.count), windowSeconds: MINUTE_MS / 1000, resetAt: hit.resetAt, now: t };
    if (kind === 'unknown' || hit.count <= limit) return { state };
    const retry = secondsUntil(hit.resetAt, t);
    return { state, refusal: new LimitExceeded('rate_limited', `Too many requests without a valid API key from this address; retry in ${retry} s.`, retry) };
  }

  /**
   * A dashboard sign-in attempt, counted before the password is checked: in its address's window
   * (the same counter as requests without a valid key) and in a window of the e-mail address it
   * names, so neither one address nor many can try passwords on one account quickly.
   */
  async admitSignIn(address: string, email: string): Promise<Admission> {
    const t = this.clock().getTime();
    const byAddress = await this.admitAddress(address, 'route');
    const hit = await this.rates.hit(`signin:${emailBucket(email)}`, t, SIGN_IN_WINDOW_MS, SIGN_IN_PER_EMAIL);
    if (byAddress.refusal || hit.count <= SIGN_IN_PER_EMAIL) return byAddress;
    const retry = secondsUntil(hit.resetAt, t);
    return { state: byAddress.state, refusal: new LimitExceeded('rate_limited', `Too many sign-in attempts for this e-mail address; retry in ${retry} s.`, retry) };
  }

  /**
   * A "Forgot password?" request, counted in its address's window (as sign-in is) and in an hourly
   * window of the e-mail address it names — not the sign-in one: reset requests never block signing in.
   */
  async admitPasswordReset(address: string, email: string): Promise<Admission> {
    const t = this.clock().getTime();
    const byAddress = await this.admitAddress(address, 'route');
    if (byAddress.refusal) return byAddress;
    const hit = await this.rates.hit(`reset:${emailBucket(email)}`, t, RESET_WINDOW_MS, RESET_PER_EMAIL);
    if (hit.count <= RESET_PER_EMAIL) return byAddress;
    const retry = secondsUntil(hit.resetAt, t);
    return { state: byAddress.state, refusal: new LimitExceeded('rate_limited', `Too many password reset requests for this e-mail address; retry in ${retry} s.`, retry) };
  }

  /**
   * An invitation about to be sent to `email` (a user added without a password, or invited again):
   * counted per recipient, whoever sends it; past INVITATIONS_PER_RECIPIENT an hour, a 429.
   */
  async admitInvitation(email: string): Promise<void> {
    const t = this.clock().getTime();
    const hit = await this.rates.hit(`invite:${emailBucket(email)}`, t, HOUR_MS, INVITATIONS_PER_RECIPIENT);
    if (hit.count <= INVITATIONS_PER_RECIPIENT) return;
    const retry = secondsUntil(hit.resetAt, t);
    throw new LimitExceeded('rate_limited', `At most ${INVITATIONS_PER_RECIPIENT} invitations an hour go to one e-mail address; retry in ${retry} s.`, retry);
  }

  /** The account's usage of the cycle: the store's running count (reservations included), else what is recorded. */
  async used(accountId: string, cycle: Cycle): Promise<number> {
    const start = cycle.start.toISOString();
    return (await this.rates.read(usageKey(accountId, start))) ?? (await this.ledger.total(accountId, start));
  }

  private async settle(principal: Principal, terms: Terms, used: number, succeeded: boolean): Promise<void> {
    if (!succeeded) return this.rates.release(terms.usageKey);
    this.ledger.add(principal.accountId, terms.start, principal.keyId);
    this.ledger.addDay(principal.accountId, this.clock().toISOString().slice(0, 10));
    await this.raiseQuotaAlerts(principal, terms, used);
  }

  /** The cycle's quota alerts that `used` requests have reached, unless already announced. */
  private raiseQuotaAlerts(principal: Principal, terms: Terms, used: number): Promise<void> | undefined {
    const quota = terms.allowance.perCycle;
    const crossed = ([80, 100] as const).filter((threshold) => used >= Math.ceil((quota * threshold) / 100));
    if (crossed.length === 0) return undefined;
    // In order, so that the 80 % alert comes first in the account's event log.
    return this.alerts.raise(
      principal.accountId,
      crossed.map((threshold) => ({
        marker: `quota:${threshold}:${terms.start}`,
        alert: { kind: 'quota' as const, threshold, used, limit: quota, period_end: terms.end },
      })),
    );
  }
}

function usageKey(accountId: string, cycleStart: string): string {
  return `usage:${accountId}:${cycleStart}`;
}

/** An e-mail address as a counter's name: hashed, so the rate store never holds the address itself. */
export function emailBucket(email: string): string {
  return createHash('sha256').update(email).digest('hex').slice(0, 32);
}

/** The unit an address is limited by: an IPv4 address, or the /64 network of an IPv6 one. */
export function addressBucket(address: string): string {
  const ip = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => Number.parseInt(g, 16).toString(16)).join(':')}::/64`;
}
