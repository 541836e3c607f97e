// The mail outbox (CONTRACT.md §16). A message is rendered and written as a row in the transaction
// of what caused it (a user invited, a quota alert, an endpoint disabled…), so a crash after commit
// cannot lose it and a rollback sends nothing; the outbox worker sends it later, and no response
// ever waits for that. Each row is claimed by one worker under a lease; a failed attempt is tried
// again with back-off and jitter until 24 hours after the message was queued, then given up and
// logged. The Message-ID is chosen when queueing, so every attempt sends the same message.
import type { Store, Tx } from '../../storage/db.js';
import type { MailRepository, MailOutcome, MailRow } from '../../storage/mail-repository.js';
import { newId, type Clock } from '../ids.js';
import type { Capacity, OutboxQueue, Wake } from '../outbox.js';
import { renderMail, type MailContent, type RenderedMail } from './template.js';

/** Seconds between attempts: 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, then every 4 h until 24 hours have passed. */
export const DEFAULT_MAIL_RETRY_SCHEDULE = [30, 120, 600, 1800, 3600, 7200, 14400];
/** How long a message is tried before it is given up. */
export const MAIL_GIVE_UP_MS = 24 * 3600 * 1000;
const JITTER = 0.2;

export type MailKind = 'invitation' | 'password_reset' | 'deprecation_notice' | 'deprecation_reminder' | 'quota_alert' | 'webhook_disabled' | 'key_expiring' | 'schedule_failed';

export interface NewMail {
  kind: MailKind;
  /** One recipient: the message's only `To`. */
  to: string;
  content: MailContent;
}

/** A claimed message, ready to send. */
export interface OutgoingMail {
  id: string;
  accountId: string;
  to: string;
  /** The recipient's domain: the worker's partition. */
  domain: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** When it was queued: the message's Date. */
  createdAt: string;
  /** The number of this attempt, from 1. */
  attempt: number;
}

/** What happened on the wire: null error when the server took the message. */
export interface MailResult {
  error: string | null;
  /** The server refused the message for good (a 5xx answer): no retry. */
  permanent: boolean;
}

export interface MailLog {
  warn(details: object, message: string): void;
}

export class MailOutbox implements OutboxQueue<OutgoingMail, MailResult> {
  constructor(
    private readonly store: Store,
    private readonly repo: MailRepository,
    private readonly clock: Clock,
    private readonly wake: Wake,
    private readonly log: MailLog,
    /** The right-hand side of Message-IDs: the domain of MAIL_FROM. */
    private readonly idDomain: string,
    private readonly schedule: readonly number[] = DEFAULT_MAIL_RETRY_SCHEDULE,
  ) {}

  /** Renders and queues messages inside `tx`, the transaction of what caused them; the worker hears of them after commit. */
  async queue(tx: Tx, accountId: string, mail: NewMail[]): Promise<void> {
    if (mail.length === 0) return;
    const now = this.clock().toISOString();
    // A notice to several owners and admins is one content: rendered once.
    const renders = new Map<MailContent, RenderedMail>();
    const rows = mail.map(({ kind, to, content }) => {
      let rendered = renders.get(content);
      if (!rendered) renders.set(content, (rendered = renderMail(content)));
      const id = newId('mail');
      return {
        id,
        account_id: accountId,
        kind,
        recipient: to,
        domain: to.slice(to.lastIndexOf('@') + 1).toLowerCase(),
        subject: rendered.subject,
        text_body: rendered.text,
        html_body: rendered.html,
        message_id: `<${id}@${this.idDomain}>`,
        status: 'pending',
        attempts: 0,
        last_error: null,
        created_at: now,
        next_attempt_at: now,
        sent_at: null,
        lease: null,
        locked_until: null,
      };
    });
    await this.repo.insert(tx, rows);
    this.store.afterCommit(tx, () => this.wake.notify());
  }

  async claim(lease: string, leaseMs: number, capacity: Capacity): Promise<OutgoingMail[]> {
    if (capacity.total <= 0) return [];
    const now = this.clock();
    const nowIso = now.toISOString();
    const limit = Math.min(capacity.total * 4, 200);
    // A read first, so that an idle outbox costs no write transaction per poll.
    const due = await this.store.run((db) => this.repo.dueAnyAccount(db, nowIso, capacity.saturated, limit, false));
    if (due.length === 0) return [];
    const until = new Date(now.getTime() + leaseMs).toISOString();
    const ids = await this.store.transaction(async (tx) => {
      const room = new Map<string, number>();
      const picked: string[] = [];
      for (const { id, domain } of await this.repo.dueAnyAccount(tx, nowIso, capacity.saturated, limit, true)) {
        const free = room.get(domain) ?? capacity.freeFor(domain);
        if (free <= 0) continue;
        room.set(domain, free - 1);
        picked.push(id);
        if (picked.length >= capacity.total) break;
      }
      return this.repo.claimAnyAccount(tx, picked, nowIso, lease, until);
    });
    const rows = await this.store.run((db) => this.repo.claimedAnyAccount(db, ids, lease));
    return rows.map(toOutgoing);
  }

  renew(ids: string[], lease: string, leaseMs: number): Promise<void> {
    const until = new Date(this.clock().getTime() + leaseMs).toISOString();
    return this.store.transaction((tx) => this.repo.renewAnyAccount(tx, ids, lease, until));
  }

  release(ids: string[], lease: string): Promise<void> {
    return this.store.transaction((tx) => this.repo.releaseAnyAccount(tx, ids, lease));
  }

  async finish(mail: OutgoingMail, lease: string, result: MailResult): Promise<number | undefined> {
    const now = this.clock();
    const next = result.error === null || result.permanent ? undefined : this.nextAttempt(mail, now);
    const outcome: MailOutcome = {
      status: result.error === null ? 'sent' : next ? 'pending' : 'failed',
      attempts: mail.attempt,
      last_error: result.error,
      next_attempt_at: next?.toISOString() ?? null,
      sent_at: result.error === null ? now.toISOString() : null,
    };
    const recorded = await this.store.transaction((tx) => this.repo.finish(tx, mail.accountId, mail.id, lease, outcome));
    if (!recorded || result.error === null) return undefined;
    // Recipient and subject only: never the body, which may hold a one-time link.
    const about = { mail_id: mail.id, to: mail.to, subject: mail.subject, attempt: mail.attempt, error: result.error };
    if (next) {
      this.log.warn({ ...about, next_attempt_at: outcome.next_attempt_at }, 'mail not sent; will try again');
      return next.getTime() - now.getTime();
    }
    this.log.warn(about, result.permanent ? 'mail refused by the server; given up' : 'mail not sent for 24 hours; given up');
    return undefined;
  }

  /** When to try again after attempt `mail.attempt` failed at `now`: the schedule's step (its last repeats), never past the 24 hours. */
  private nextAttempt(mail: OutgoingMail, now: Date): Date | undefined {
    const deadline = Date.parse(mail.createdAt) + MAIL_GIVE_UP_MS;
    if (now.getTime() >= deadline) return undefined;
    const step = this.schedule[Math.min(mail.attempt, this.schedule.length) - 1]!;
    const delay = step * 1000 * (1 + JITTER * Math.random());
    return new Date(Math.min(now.getTime() + Math.round(delay), deadline));
  }
}

function toOutgoing(row: MailRow): OutgoingMail {
  return {
    id: row.id,
    accountId: row.account_id,
    to: row.recipient,
    domain: row.domain,
    subject: row.subject,
    text: row.text_body ?? '',
    html: row.html_body ?? '',
    messageId: row.message_id,
    createdAt: row.created_at,
    attempt: Number(row.attempts) + 1,
  };
}
