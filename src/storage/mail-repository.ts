// The mail outbox and the markers of notices sent. Queueing and markers take the account id; the
// worker's queue operations (finding due messages, claiming, finishing) and housekeeping are
// service-wide by nature and say so in their names.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import { dueAndFree, PENDING, releaseLeases, renewLeases, takeLeases } from './leases.js';
import type { Dialect, MailOutboxTable } from './schema.js';

export type MailRow = Selectable<MailOutboxTable>;

/** How an attempt ended: sent, failed for good, or failed with the next attempt scheduled. */
export interface MailOutcome {
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  sent_at: string | null;
}

export class MailRepository {
  constructor(private readonly dialect: Dialect) {}

  async insert(tx: Tx, rows: Insertable<MailOutboxTable>[]): Promise<void> {
    if (rows.length) await tx.insertInto('mail_outbox').values(rows).execute();
  }

  /**
   * Service-wide: up to `limit` messages due and unclaimed at `now`, oldest due first, outside the
   * `exclude`d domains. With `lock` (inside a transaction), locked for that transaction on
   * PostgreSQL, rows another instance is claiming skipped; on SQLite one connection already
   * serialises claims.
   */
  async dueAnyAccount(db: Db, now: string, exclude: string[], limit: number, lock: boolean): Promise<{ id: string; domain: string }[]> {
    let query = db
      .selectFrom('mail_outbox')
      .select(['id', 'domain'])
      .where(dueAndFree(now));
    if (exclude.length) query = query.where('domain', 'not in', exclude);
    query = query.orderBy('next_attempt_at').orderBy('id').limit(limit);
    return (lock && this.dialect === 'postgres' ? query.forUpdate().skipLocked() : query).execute();
  }

  /** Service-wide: claims the picked messages until `lockedUntil`; returns the ids claimed. */
  claimAnyAccount(tx: Tx, ids: string[], now: string, lease: string, lockedUntil: string): Promise<string[]> {
    return takeLeases(tx, 'mail_outbox', ids, now, lease, lockedUntil);
  }

  /** Service-wide: the claimed messages, ready to send. */
  claimedAnyAccount(db: Db, ids: string[], lease: string): Promise<MailRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db.selectFrom('mail_outbox').selectAll().where('id', 'in', ids).where('lease', '=', lease).execute();
  }

  renewAnyAccount(tx: Tx, ids: string[], lease: string, lockedUntil: string): Promise<void> {
    return renewLeases(tx, 'mail_outbox', this.dialect, ids, lease, lockedUntil);
  }

  releaseAnyAccount(tx: Tx, ids: string[], lease: string): Promise<void> {
    return releaseLeases(tx, 'mail_outbox', this.dialect, ids, lease);
  }

  /**
   * Records how a claimed attempt ended, if the claim still holds; a message that is no longer
   * pending loses its body. Returns whether it was recorded.
   */
  async finish(tx: Tx, accountId: string, id: string, lease: string, outcome: MailOutcome): Promise<boolean> {
    const done = outcome.status !== 'pending';
    const result = await tx
      .updateTable('mail_outbox')
      .set({ ...outcome, lease: null, locked_until: null, ...(done ? { text_body: null, html_body: null } : {}) })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('lease', '=', lease)
      .where('status', '=', PENDING)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Service-wide housekeeping: sent and given-up messages created before `before` (the record is kept a while for support). */
  async pruneAnyAccount(db: Db, before: string): Promise<void> {
    await db.deleteFrom('mail_outbox').where('status', '!=', PENDING).where('created_at', '<', before).execute();
  }

  /**
   * Records a notice under `marker`; false when it was already recorded — ever, or, with
   * `renewIfBefore`, since that time (then an older marker is moved to `sentAt` and true returned).
   */
  async mark(tx: Tx, accountId: string, marker: string, sentAt: string, renewIfBefore?: string): Promise<boolean> {
    const result = await tx
      .insertInto('mail_markers')
      .values({ account_id: accountId, marker, sent_at: sentAt })
      .onConflict((oc) => {
        const conflict = oc.columns(['account_id', 'marker']);
        return renewIfBefore === undefined
          ? conflict.doNothing()
          : conflict.doUpdateSet({ sent_at: sentAt }).where('mail_markers.sent_at', '<=', renewIfBefore);
      })
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Service-wide: live keys expiring after `from` and by `until` whose owner has not been told
   * (no `<prefix><key id>` marker), with the owner's address.
   */
  keysExpiringAnyAccount(db: Db, from: string, until: string, prefix: string) {
    return db
      .selectFrom('api_keys as k')
      .innerJoin('users as u', 'u.id', 'k.user_id')
      .select(['k.id', 'k.account_id', 'k.name', 'k.prefix', 'k.expires_at', 'u.email'])
      .where('k.revoked_at', 'is', null)
      .where('k.expires_at', '>', from)
      .where('k.expires_at', '<=', until)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('mail_markers as m').select('m.marker').whereRef('m.account_id', '=', 'k.account_id').where('m.marker', '=', sql<string>`${prefix} || k.id`))),
      )
      .execute();
  }

  /** Service-wide housekeeping: markers older than anything they still decide. */
  async pruneMarkersAnyAccount(db: Db, before: string): Promise<void> {
    await db.deleteFrom('mail_markers').where('sent_at', '<', before).execute();
  }
}
