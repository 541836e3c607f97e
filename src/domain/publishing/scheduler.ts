// Scheduled publishing (CONTRACT.md §19) as an outbox queue for the one worker loop
// (workers/outbox-worker.ts): due transitions are claimed under a lease, each made in one
// transaction with its event (and so its webhook delivery) and the removal of its row — so it
// happens once, across instances, however often it is claimed — acting as the person who set the
// time, as they are now (actingAs). A transition the person may no longer make, or that the item's
// rules refuse, fails for good: the item stays as it was, the row is marked failed, and the person
// (or, if they were removed, the account's owners and admins) gets an e-mail, in one transaction.
// The queue also tells the worker when the next transition falls due, so it wakes on the second.
import type { Store } from '../../storage/db.js';
import type { ContentRepository } from '../../storage/content-repository.js';
import type { ContentScheduleRepository, ScheduleAction, ScheduleRow } from '../../storage/content-schedule-repository.js';
import type { UserRepository } from '../../storage/user-repository.js';
import { actingAs } from '../auth/acting-user.js';
import type { ContentWrites } from '../content/content-writes.js';
import { DomainError } from '../errors.js';
import type { EventLog } from '../events/event-log.js';
import type { Clock } from '../ids.js';
import type { Audience } from '../mail/audience.js';
import type { MailLinks } from '../mail/links.js';
import { ROLE_WORDS, scheduleFailed } from '../mail/messages.js';
import type { MailOutbox } from '../mail/outbox.js';
import type { Capacity, OutboxQueue } from '../outbox.js';

/** A claimed transition. */
export interface DueTransition {
  id: string;
  accountId: string;
  contentId: string;
  action: ScheduleAction;
  dueAt: string;
  /** The claim it was taken under: the transition happens only while it still holds. */
  lease: string;
  attempt: number;
}

export type TransitionResult =
  | { outcome: 'done' | 'skipped' }
  | { outcome: 'failed'; reason: string }
  /** Not made for a passing reason (the store did not answer): tried again shortly. */
  | { outcome: 'retry'; error: string };

/** Seconds before another try after a passing failure: 1, 5, 30, then every 2 minutes. */
const RETRY_SECONDS = [1, 5, 30, 120];

export class Scheduler implements OutboxQueue<DueTransition, TransitionResult> {
  constructor(
    private readonly store: Store,
    private readonly schedules: ContentScheduleRepository,
    private readonly writes: ContentWrites,
    private readonly content: ContentRepository,
    private readonly events: EventLog,
    private readonly users: UserRepository,
    private readonly mail: { outbox: MailOutbox; audience: Audience; links: MailLinks },
    private readonly clock: Clock,
  ) {}

  async claim(lease: string, leaseMs: number, capacity: Capacity): Promise<DueTransition[]> {
    if (capacity.total <= 0) return [];
    const now = this.clock();
    const nowIso = now.toISOString();
    const limit = Math.min(capacity.total * 4, 500);
    // A read first, so that nothing due costs no write transaction per poll.
    if ((await this.store.run((db) => this.schedules.dueAnyAccount(db, nowIso, 1, false))).length === 0) return [];
    const until = new Date(now.getTime() + leaseMs).toISOString();
    const ids = await this.store.transaction(async (tx) => {
      const due = await this.schedules.dueAnyAccount(tx, nowIso, limit, true);
      return this.schedules.claimAnyAccount(tx, due.slice(0, capacity.total).map((r) => r.id), nowIso, lease, until);
    });
    const rows = await this.store.run((db) => this.schedules.claimedAnyAccount(db, ids, lease));
    return rows.map((row) => toTransition(row, lease));
  }

  renew(ids: string[], lease: string, leaseMs: number): Promise<void> {
    const until = new Date(this.clock().getTime() + leaseMs).toISOString();
    return this.store.transaction((tx) => this.schedules.renewAnyAccount(tx, ids, lease, until));
  }

  release(ids: string[], lease: string): Promise<void> {
    return this.store.transaction((tx) => this.schedules.releaseAnyAccount(tx, ids, lease));
  }

  /** Milliseconds until the next transition not yet due falls due, if there is one. */
  async nextDueInMs(): Promise<number | undefined> {
    const now = this.clock();
    const next = await this.store.run((db) => this.schedules.nextDueAnyAccount(db, now.toISOString()));
    return next === undefined ? undefined : Date.parse(next) - now.getTime();
  }

  /** Makes the transition, if its row is still as it was claimed (not changed, cancelled or taken over meanwhile). */
  async perform(item: DueTransition): Promise<TransitionResult> {
    let role: string | undefined;
    try {
      return await this.events.change(item.accountId, async (tx, emit): Promise<TransitionResult> => {
        const row = await this.schedules.get(tx, item.accountId, item.id);
        if (!row || row.status !== 'pending' || row.lease !== item.lease || row.due_at !== item.dueAt) return { outcome: 'skipped' };
        const principal = await actingAs(tx, this.users, { accountId: item.accountId, userId: row.scheduled_by, scopes: ['content:read', 'content:write'] });
        if (!principal) throw new DomainError('forbidden', 'the person who scheduled it is no longer a user of the account.');
        role = principal.role;
        await this.writes.scheduled(tx, emit, principal, item.contentId, item.action, row.due_at);
        return { outcome: 'done' };
      });
    } catch (error) {
      if (error instanceof DomainError) {
        // The item was deleted meanwhile: its rows went with it, so there is nothing to tell.
        if (error.code === 'not_found') return { outcome: 'skipped' };
        // A refusal of the person's rights is said in terms of the person, not of a key's scopes.
        if (error.code === 'forbidden' && role !== undefined) {
          return { outcome: 'failed', reason: `the person who scheduled it is now ${ROLE_WORDS[role] ?? role}, who may not ${item.action === 'publish' ? 'publish' : 'archive'} this item.` };
        }
        return { outcome: 'failed', reason: reasonOf(error) };
      }
      return { outcome: 'retry', error: error instanceof Error ? error.message : String(error) };
    }
  }

  async finish(item: DueTransition, lease: string, result: TransitionResult): Promise<number | undefined> {
    if (result.outcome === 'retry') {
      const ms = (RETRY_SECONDS[Math.min(item.attempt, RETRY_SECONDS.length) - 1] ?? 120) * 1000;
      const next = new Date(this.clock().getTime() + ms).toISOString();
      await this.store.transaction((tx) => this.schedules.retryAt(tx, item.accountId, item.id, lease, next, result.error.slice(0, 500), item.attempt));
      return ms;
    }
    if (result.outcome !== 'failed') return undefined;
    await this.store.transaction(async (tx) => {
      const row = await this.schedules.get(tx, item.accountId, item.id);
      if (!row || !(await this.schedules.fail(tx, item.accountId, item.id, lease, result.reason.slice(0, 500), item.attempt))) return;
      const [scheduler, title] = await Promise.all([this.users.get(tx, item.accountId, row.scheduled_by), this.content.get(tx, item.accountId, item.contentId).then((c) => c?.title)]);
      const to = scheduler ? [scheduler.email] : await this.mail.audience.admins(tx, item.accountId);
      const content = scheduleFailed({
        title: title ?? item.contentId,
        id: item.contentId,
        action: item.action,
        dueAt: row.due_at,
        reason: result.reason,
        forSomeoneElse: scheduler ? null : `a user since removed (${row.scheduled_by})`,
        contentUrl: this.mail.links.dashboard('content'),
      });
      await this.mail.outbox.queue(tx, item.accountId, to.map((recipient) => ({ kind: 'schedule_failed' as const, to: recipient, content })));
    });
    return undefined;
  }
}

function toTransition(row: ScheduleRow, lease: string): DueTransition {
  return { id: row.id, accountId: row.account_id, contentId: row.content_id, action: row.action as ScheduleAction, dueAt: row.due_at, lease, attempt: Number(row.attempts) + 1 };
}

/** Why a transition was refused, in words for the e-mail: the refusal, and each field's problem. */
function reasonOf(error: DomainError): string {
  const fields = (error.errors ?? []).map((e) => `${e.field || 'the item'}: ${e.message}`);
  if (error.code === 'validation_failed') return `the item does not pass its checks now (${fields.join('; ')}).`;
  const message = error.message.endsWith('.') ? error.message : `${error.message}.`;
  return fields.length ? `${message} ${fields.join('; ')}` : message;
}
