// What mail does by the clock, on every instance (markers make each notice once-only across them):
// reminders before a deprecated route's sunset, "your key expires in 7 days", and housekeeping —
// sent messages, spent links and old markers are deleted.
import type { Store } from '../../storage/db.js';
import type { MailRepository } from '../../storage/mail-repository.js';
import type { PasswordLinkRepository } from '../../storage/password-link-repository.js';
import type { Clock } from '../ids.js';
import type { DeprecationNotices } from './deprecation-notices.js';
import type { KeyExpiryNotices } from './notices.js';

const DAY_MS = 86_400_000;
/** Sent and given-up messages stay this long (their bodies are erased at once), for support questions. */
const MAIL_KEPT_MS = 30 * DAY_MS;
/** Every marker decides at most 30 days ahead (a reminder before a sunset); 90 days is ample. */
const MARKERS_KEPT_MS = 90 * DAY_MS;

export class MailSchedule {
  constructor(
    private readonly store: Store,
    private readonly mail: MailRepository,
    private readonly links: PasswordLinkRepository,
    private readonly deprecations: DeprecationNotices,
    private readonly keys: KeyExpiryNotices,
    private readonly clock: Clock,
  ) {}

  async run(): Promise<void> {
    await this.deprecations.remind();
    await this.keys.run();
    const now = this.clock().getTime();
    const before = (ms: number) => new Date(now - ms).toISOString();
    await this.store.run(async (db) => {
      await this.mail.pruneAnyAccount(db, before(MAIL_KEPT_MS));
      await this.mail.pruneMarkersAnyAccount(db, before(MARKERS_KEPT_MS));
      // An expired link can never be used again, whatever became of it.
      await this.links.pruneAnyAccount(db, before(0));
    });
  }
}
