// Scheduled transitions of content items (CONTRACT.md §19): one row per pending (or failed) publish
// or unpublish, written in the transaction of the change that set the time. Writing and reading an
// item's rows take the account id; the worker's queue operations (finding due rows, claiming,
// renewing, releasing) are service-wide by nature and say so in their names.
import type { Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import { dueAndFree, PENDING, releaseLeases, renewLeases, takeLeases } from './leases.js';
import type { ContentScheduleTable, Dialect } from './schema.js';

export type ScheduleRow = Selectable<ContentScheduleTable>;
export type ScheduleAction = 'publish' | 'unpublish';

/** The row of an item's `action`: one at most per item and action. */
export const scheduleId = (contentId: string, action: ScheduleAction) => `${action}:${contentId}`;

export class ContentScheduleRepository {
  constructor(private readonly dialect: Dialect) {}

  /** Replaces the item's `action` row: a new time (pending, due then), or none. */
  async set(tx: Tx, accountId: string, contentId: string, action: ScheduleAction, dueAt: string | null, scheduledBy: string, now: string): Promise<void> {
    const id = scheduleId(contentId, action);
    await tx.deleteFrom('content_schedules').where('account_id', '=', accountId).where('id', '=', id).execute();
    if (dueAt === null) return;
    await tx
      .insertInto('content_schedules')
      .values({ id, account_id: accountId, content_id: contentId, action, due_at: dueAt, scheduled_by: scheduledBy, status: 'pending', attempts: 0, last_error: null, next_attempt_at: dueAt, lease: null, locked_until: null, created_at: now })
      .execute();
  }

  /** The row as it is now, inside the transition's transaction. */
  get(db: Db, accountId: string, id: string): Promise<ScheduleRow | undefined> {
    return db.selectFrom('content_schedules').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  /** Marks a claimed row failed for good (the item stays as it was); false when the claim no longer holds. */
  async fail(tx: Tx, accountId: string, id: string, lease: string, error: string, attempts: number): Promise<boolean> {
    const result = await tx
      .updateTable('content_schedules')
      .set({ status: 'failed', last_error: error, attempts, lease: null, locked_until: null })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('lease', '=', lease)
      .where('status', '=', PENDING)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Gives a claimed row back to be tried again at `next` (the store was unreachable, say). */
  async retryAt(tx: Tx, accountId: string, id: string, lease: string, next: string, error: string, attempts: number): Promise<void> {
    await tx
      .updateTable('content_schedules')
      .set({ next_attempt_at: next, last_error: error, attempts, lease: null, locked_until: null })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('lease', '=', lease)
      .where('status', '=', PENDING)
      .execute();
  }

  /** The account's items with a pending transition, or with a publish time (pending or failed): subqueries for lists. */
  pendingItems(db: Db, accountId: string) {
    return db.selectFrom('content_schedules').select('content_id').where('account_id', '=', accountId).where('status', '=', PENDING);
  }

  /** Service-wide: up to `limit` rows due and unclaimed at `now`, the earliest first; locked for the transaction on PostgreSQL. */
  dueAnyAccount(db: Db, now: string, limit: number, lock: boolean): Promise<{ id: string }[]> {
    const query = db.selectFrom('content_schedules').select('id').where(dueAndFree(now)).orderBy('next_attempt_at').orderBy('id').limit(limit);
    return (lock && this.dialect === 'postgres' ? query.forUpdate().skipLocked() : query).execute();
  }

  /** Service-wide: when the earliest pending row not yet due at `now` falls due, if any (those due already are the claim's). */
  async nextDueAnyAccount(db: Db, now: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('content_schedules')
      .select('next_attempt_at')
      .where('status', '=', PENDING)
      .where('next_attempt_at', '>', now)
      .orderBy('next_attempt_at')
      .limit(1)
      .executeTakeFirst();
    return row?.next_attempt_at;
  }

  claimAnyAccount(tx: Tx, ids: string[], now: string, lease: string, lockedUntil: string): Promise<string[]> {
    return takeLeases(tx, 'content_schedules', ids, now, lease, lockedUntil);
  }

  claimedAnyAccount(db: Db, ids: string[], lease: string): Promise<ScheduleRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db.selectFrom('content_schedules').selectAll().where('id', 'in', ids).where('lease', '=', lease).execute();
  }

  renewAnyAccount(tx: Tx, ids: string[], lease: string, lockedUntil: string): Promise<void> {
    return renewLeases(tx, 'content_schedules', this.dialect, ids, lease, lockedUntil);
  }

  releaseAnyAccount(tx: Tx, ids: string[], lease: string): Promise<void> {
    return releaseLeases(tx, 'content_schedules', this.dialect, ids, lease);
  }
}
