// Deprecation notices by e-mail (CONTRACT.md §16, INTERFACE.md §9): to an account's owners and
// admins when it first calls a deprecated route, then at most once per route per 7 days while it
// keeps calling; and reminders 30, 7 and 1 days before a sunset to every account that called the
// route in the last 30 days. Markers (account, what) decide "once" across instances and restarts.
import type { Deprecation } from '../../config.js';
import type { Store, Tx } from '../../storage/db.js';
import type { DeprecatedCallRepository } from '../../storage/deprecated-call-repository.js';
import type { MailRepository } from '../../storage/mail-repository.js';
import type { Clock } from '../ids.js';
import type { DeprecatedRouteListener } from '../limits/deprecated-calls.js';
import type { Audience } from './audience.js';
import type { MailLinks } from './links.js';
import { deprecationNotice, deprecationReminder } from './messages.js';
import type { MailOutbox } from './outbox.js';

const DAY_MS = 86_400_000;
/** A notice per route and account at most this often. */
export const NOTICE_EVERY_MS = 7 * DAY_MS;
/** Reminders before a sunset, in days; only the nearest one reached is sent (a late start skips the earlier). */
export const REMINDER_DAYS = [30, 7, 1];
/** Who counts as a caller in notices and reminders. */
const CALLERS_WITHIN_MS = 30 * DAY_MS;
/** After a notice was found not due, this instance asks again no sooner than this. */
const RECHECK_MS = 3_600_000;
const REMEMBERED = 10_000;

export class DeprecationNotices implements DeprecatedRouteListener {
  /** (account, route) → when to ask the store again; spares a marker write on every batch of a busy route. */
  private readonly quietUntil = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly outbox: MailOutbox,
    private readonly markers: MailRepository,
    private readonly calls: DeprecatedCallRepository,
    private readonly audience: Audience,
    private readonly links: MailLinks,
    private readonly clock: Clock,
    private readonly routes: Deprecation[],
  ) {}

  /** Inside the transaction that records the calls: the notice, if none went out for the route in the last 7 days. */
  async called(tx: Tx, accountId: string, route: Deprecation): Promise<void> {
    const now = this.clock();
    const id = `${accountId} ${route.method} ${route.path}`;
    if ((this.quietUntil.get(id) ?? 0) > now.getTime()) return;
    if (this.quietUntil.size >= REMEMBERED) this.quietUntil.clear();
    const due = await this.markers.mark(tx, accountId, `deprecation:${route.method} ${route.path}`, now.toISOString(), new Date(now.getTime() - NOTICE_EVERY_MS).toISOString());
    const quiet = now.getTime() + (due ? NOTICE_EVERY_MS : RECHECK_MS);
    this.store.afterCommit(tx, () => this.quietUntil.set(id, quiet));
    if (!due) return;
    const callers = await this.callersOf(tx, accountId, route, now);
    const content = deprecationNotice({ route, callers, usageUrl: this.links.dashboard('usage'), now });
    await this.outbox.queue(tx, accountId, (await this.audience.admins(tx, accountId)).map((to) => ({ kind: 'deprecation_notice', to, content })));
  }

  /** The reminders due now (run periodically on every instance; each is sent once). */
  async remind(): Promise<void> {
    const now = this.clock();
    for (const route of this.routes) {
      const sunset = route.sunset;
      if (!sunset || sunset.getTime() <= now.getTime()) continue;
      const reached = REMINDER_DAYS.filter((days) => now.getTime() >= sunset.getTime() - days * DAY_MS);
      if (reached.length === 0) continue;
      const days = Math.min(...reached);
      const marker = `deprecation_reminder:${days}:${route.method} ${route.path}:${sunset.toISOString()}`;
      const since = new Date(now.getTime() - CALLERS_WITHIN_MS).toISOString();
      const accounts = await this.store.run((db) => this.calls.accountsAnyAccount(db, route.method, route.path, since));
      for (const accountId of accounts) {
        await this.store.transaction(async (tx) => {
          if (!(await this.markers.mark(tx, accountId, marker, now.toISOString()))) return;
          const callers = await this.callersOf(tx, accountId, route, now);
          const daysLeft = Math.ceil((sunset.getTime() - now.getTime()) / DAY_MS);
          const content = deprecationReminder({ route: { ...route, sunset }, daysLeft, callers, usageUrl: this.links.dashboard('usage') });
          await this.outbox.queue(tx, accountId, (await this.audience.admins(tx, accountId)).map((to) => ({ kind: 'deprecation_reminder', to, content })));
        });
      }
    }
  }

  private async callersOf(tx: Tx, accountId: string, route: Deprecation, now: Date) {
    const since = new Date(now.getTime() - CALLERS_WITHIN_MS).toISOString();
    return this.audience.callers(tx, accountId, await this.calls.callers(tx, accountId, route.method, route.path, since));
  }
}
