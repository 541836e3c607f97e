// The e-mail part of the composition (docs/email.md), kept beside services.ts: the outbox, the
// notices that write into it in their causes' transactions, one-time password links, deprecation
// notices and the periodic schedule. How messages leave (SMTP or .eml files) is the server's
// concern (app.ts); the CLI builds this too, so a user it creates is invited all the same.
import { publicUrlOf, type Config } from './config.js';
import { PasswordLinks } from './domain/auth/password-links.js';
import type { EventLog } from './domain/events/event-log.js';
import type { Clock } from './domain/ids.js';
import { Audience } from './domain/mail/audience.js';
import { DeprecationNotices } from './domain/mail/deprecation-notices.js';
import { MailLinks } from './domain/mail/links.js';
import { AccountNotices, KeyExpiryNotices } from './domain/mail/notices.js';
import { MailOutbox, type MailLog } from './domain/mail/outbox.js';
import { MailSchedule } from './domain/mail/schedule.js';
import { Wake } from './domain/outbox.js';
import type { UserChangeListener } from './domain/users/users.js';
import type { Store } from './storage/db.js';
import { DeprecatedCallRepository } from './storage/deprecated-call-repository.js';
import { MailRepository } from './storage/mail-repository.js';
import { PasswordLinkRepository } from './storage/password-link-repository.js';
import type { SessionRepository } from './storage/session-repository.js';
import { UsageRepository } from './storage/usage-repository.js';
import type { UserRepository } from './storage/user-repository.js';

export interface MailDeps {
  store: Store;
  clock: Clock;
  events: EventLog;
  users: UserRepository;
  sessions: SessionRepository;
  userChanged: UserChangeListener;
  /** The public URL links are built from; the server knows its port only once it listens. */
  publicUrl?: () => string;
  log?: MailLog;
}

export function openMail(config: Config, deps: MailDeps) {
  const { store, clock } = deps;
  const repo = new MailRepository(store.dialect);
  const wake = new Wake();
  const links = new MailLinks(deps.publicUrl ?? (() => publicUrlOf(config)));
  const outbox = new MailOutbox(store, repo, clock, wake, deps.log ?? { warn() {} }, domainOf(config.mail.from), config.mail.retrySchedule);
  const audience = new Audience(deps.users, new UsageRepository());
  const linkRepo = new PasswordLinkRepository();
  const deprecatedCallRepo = new DeprecatedCallRepository();
  const deprecationNotices = new DeprecationNotices(store, outbox, repo, deprecatedCallRepo, audience, links, clock, config.deprecations);
  return {
    outbox,
    /** Who an account's notices go to. */
    audience,
    links,
    /** Tells this process's mail worker that a message was queued here. */
    wake,
    /** Quota alerts (an event sink) and disabled webhook endpoints. */
    notices: new AccountNotices(outbox, audience, links),
    passwordLinks: new PasswordLinks(store, linkRepo, deps.users, deps.sessions, deps.events, outbox, links, clock, deps.userChanged),
    /** Where calls to deprecated routes are counted (the counting itself is the server's: openLimits). */
    deprecatedCallRepo,
    deprecationNotices,
    schedule: new MailSchedule(store, repo, linkRepo, deprecationNotices, new KeyExpiryNotices(store, outbox, repo, links, clock), clock),
  };
}

/** The domain of `Name <a@b>` or `a@b`: the right-hand side of Message-IDs. */
function domainOf(from: string): string {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  return address.slice(address.lastIndexOf('@') + 1);
}
