// The usage report (GET /v1/usage): the account's plan, billing cycle, quota used and left, the
// hourly window as this request's headers show it, what each key used this cycle, and which keys
// called deprecated routes this cycle.
import type { LimitsConfig } from '../../config.js';
import type { Store } from '../../storage/db.js';
import type { UsageRepository } from '../../storage/usage-repository.js';
import type { Clock } from '../ids.js';
import type { Principal } from '../auth/permissions.js';
import { allowanceOf, billingCycle } from './plans.js';
import type { LimitState, RateLimiter } from './rate-limiter.js';
import type { Usage } from '../schemas/usage.js';
import type { UsageLedger } from './usage-ledger.js';
import { SESSION_KEY_PREFIX } from '../auth/sessions.js';
import { parseAppUsageId } from '../oauth/token-credentials.js';
import type { DeprecatedCallRepository } from '../../storage/deprecated-call-repository.js';
import type { DeprecatedCalls } from './deprecated-calls.js';

type KeyOwner = { id: string; name: string; user_id: string };

const DAY_MS = 86_400_000;

export class UsageService {
  constructor(
    private readonly store: Store,
    private readonly repo: UsageRepository,
    private readonly ledger: UsageLedger,
    private readonly limiter: RateLimiter,
    private readonly config: LimitsConfig,
    private readonly clock: Clock,
    private readonly deprecated: DeprecatedCalls,
    private readonly deprecatedRepo: DeprecatedCallRepository,
    /** Media bytes used and allowed (CONTRACT.md §18). */
    private readonly storage: (accountId: string, plan: string) => Promise<Usage['storage']>,
  ) {}

  /** Any key of the account may read it (like GitHub's /rate_limit); per-key figures follow who may see which keys (§7). */
  async report(principal: Principal, window: LimitState | null): Promise<Usage> {
    const cycle = billingCycle(principal.accountCreatedAt, this.clock());
    const start = cycle.start.toISOString();
    const { perCycle } = allowanceOf(this.config, principal);
    const used = await this.limiter.used(principal.accountId, cycle);

    const perKey = new Map<string, number>();
    const stored = await this.store.run((db) => this.repo.perKey(db, principal.accountId, start));
    for (const row of stored) perKey.set(row.key_id, row.used);
    for (const [keyId, n] of this.ledger.unwritten(principal.accountId, start)) perKey.set(keyId, (perKey.get(keyId) ?? 0) + n);
    const seesAll = principal.role === 'owner' || principal.role === 'admin';
    const apps = await this.perApp(perKey, seesAll ? undefined : principal.userId);
    const calls = await this.deprecatedCalls(principal.accountId, start);
    const owners = await this.owners(principal.accountId, [...perKey.keys(), ...calls.map((c) => c.key_id)]);
    const visible = (keyId: string) => seesAll || owners.get(keyId)?.user_id === principal.userId;
    const keys = [...perKey]
      .filter(([keyId]) => visible(keyId))
      .map(([keyId, n]) => ({ key_id: keyId, name: owners.get(keyId)?.name ?? null, used: n }))
      .sort((a, b) => b.used - a.used || (a.key_id < b.key_id ? -1 : 1));

    return {
      plan: principal.plan,
      period_start: start,
      period_end: cycle.end.toISOString(),
      used,
      quota: perCycle,
      remaining: Math.max(0, perCycle - used),
      rate_limit: window && { limit: window.limit, remaining: window.remaining, reset: Math.ceil(window.resetAt / 1000) },
      keys,
      apps,
      days: await this.days(principal.accountId, start),
      deprecated_calls: this.byRoute(calls.filter((c) => visible(c.key_id)), owners),
      storage: await this.storage(principal.accountId, principal.plan),
    };
  }

  /**
   * Takes the OAuth apps' pseudo keys (`oauth:<app>:<user>`) out of `perKey` and sums them per app:
   * every person's use for admins, otherwise `userId`'s own. Apps may belong to other accounts.
   */
  private async perApp(perKey: Map<string, number>, userId: string | undefined): Promise<Usage['apps']> {
    const used = new Map<string, number>();
    for (const [keyId, n] of perKey) {
      const app = parseAppUsageId(keyId);
      if (!app) continue;
      perKey.delete(keyId);
      if (userId === undefined || app.userId === userId) used.set(app.appId, (used.get(app.appId) ?? 0) + n);
    }
    const names = new Map((await this.store.run((db) => this.repo.appNamesAnyAccount(db, [...used.keys()]))).map((a) => [a.id, a.name]));
    return [...used]
      .map(([appId, n]) => ({ app_id: appId, name: names.get(appId) ?? null, used: n }))
      .sort((a, b) => b.used - a.used || (a.app_id < b.app_id ? -1 : 1));
  }

  /**
   * Names and owners of keys. Dashboard sessions count under `dashboard:<user id>` (docs/dashboard.md),
   * OAuth tokens under `oauth:<app>:<user>` (named after their app, which may be another account's).
   */
  private async owners(accountId: string, keyIds: string[]): Promise<Map<string, KeyOwner>> {
    const owners = new Map<string, KeyOwner>((await this.store.run((db) => this.repo.keyOwners(db, accountId, [...new Set(keyIds)]))).map((k) => [k.id, k]));
    const viaApps = new Map<string, { appId: string; userId: string }>();
    for (const keyId of keyIds) {
      if (keyId.startsWith(SESSION_KEY_PREFIX)) owners.set(keyId, { id: keyId, name: 'Dashboard', user_id: keyId.slice(SESSION_KEY_PREFIX.length) });
      const app = parseAppUsageId(keyId);
      if (app) viaApps.set(keyId, app);
    }
    if (viaApps.size) {
      const appIds = [...new Set([...viaApps.values()].map((a) => a.appId))];
      const names = new Map((await this.store.run((db) => this.repo.appNamesAnyAccount(db, appIds))).map((a) => [a.id, a.name]));
      for (const [keyId, app] of viaApps) owners.set(keyId, { id: keyId, name: names.get(app.appId) ?? app.appId, user_id: app.userId });
    }
    return owners;
  }

  /** The cycle's calls to deprecated routes per route and key: stored plus this instance's unwritten. */
  private async deprecatedCalls(accountId: string, cycleStart: string) {
    const merged = new Map<string, { method: string; path: string; key_id: string; calls: number; last_called_at: string }>();
    const rows = [...(await this.store.run((db) => this.deprecatedRepo.ofCycle(db, accountId, cycleStart))), ...this.deprecated.unwritten(accountId, cycleStart)];
    for (const row of rows) {
      const id = `${row.method} ${row.path} ${row.key_id}`;
      const seen = merged.get(id);
      if (!seen) merged.set(id, { method: row.method, path: row.path, key_id: row.key_id, calls: row.calls, last_called_at: row.last_called_at });
      else {
        seen.calls += row.calls;
        if (row.last_called_at > seen.last_called_at) seen.last_called_at = row.last_called_at;
      }
    }
    return [...merged.values()];
  }

  /** Calls grouped by route (routes still deprecated in the configuration), most called first. */
  private byRoute(calls: Awaited<ReturnType<UsageService['deprecatedCalls']>>, owners: Map<string, KeyOwner>): Usage['deprecated_calls'] {
    const routes = new Map<string, Usage['deprecated_calls'][number]>();
    for (const call of calls) {
      const route = this.deprecated.route(call.method, call.path);
      if (!route) continue;
      const id = `${call.method} ${call.path}`;
      let entry = routes.get(id);
      if (!entry) {
        entry = {
          method: route.method,
          path: route.path,
          deprecated_at: route.deprecatedAt.toISOString(),
          sunset: route.sunset?.toISOString() ?? null,
          link: route.link ?? null,
          calls: 0,
          last_called_at: call.last_called_at,
          keys: [],
        };
        routes.set(id, entry);
      }
      entry.calls += call.calls;
      if (call.last_called_at > entry.last_called_at) entry.last_called_at = call.last_called_at;
      entry.keys.push({ key_id: call.key_id, name: owners.get(call.key_id)?.name ?? null, calls: call.calls, last_called_at: call.last_called_at });
    }
    const byCalls = <T extends { calls: number }>(name: (x: T) => string) => (a: T, b: T) => b.calls - a.calls || (name(a) < name(b) ? -1 : 1);
    return [...routes.values()]
      .sort(byCalls((r) => `${r.path} ${r.method}`))
      .map((r) => ({ ...r, keys: r.keys.sort(byCalls((k) => k.key_id)) }));
  }

  /** Each UTC day from the cycle's start to today with the account's 2xx requests: stored plus this instance's unwritten. */
  private async days(accountId: string, cycleStart: string): Promise<{ date: string; used: number }[]> {
    const today = this.clock().toISOString().slice(0, 10);
    const first = cycleStart.slice(0, 10);
    const counts = new Map<string, number>();
    for (const row of await this.store.run((db) => this.repo.days(db, accountId, first, today))) counts.set(row.day, row.used);
    for (const [day, n] of this.ledger.unwrittenDays(accountId)) counts.set(day, (counts.get(day) ?? 0) + n);
    const days: { date: string; used: number }[] = [];
    for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${today}T00:00:00Z`); t += DAY_MS) {
      const date = new Date(t).toISOString().slice(0, 10);
      days.push({ date, used: counts.get(date) ?? 0 });
    }
    return days;
  }
}
