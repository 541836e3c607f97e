// The lease columns every outbox table shares (status, lease, locked_until): taking a claim on
// picked rows, extending the claims a worker still holds, and giving them back. Service-wide by
// nature: a worker serves every account.
import { sql } from 'kysely';
import type { Tx } from './db.js';
import type { Dialect } from './schema.js';

/** Tables whose pending rows are claimed by the outbox worker. */
export type LeasedTable = 'webhook_deliveries' | 'mail_outbox' | 'content_schedules' | 'background_tasks' | 'content_jobs';

/** Inlined rather than bound, so that SQLite can match the partial indexes on pending rows. */
export const PENDING = sql.lit('pending');

/** Pending, due by `now` and free of any live claim: what a worker may take (one table, columns unqualified). */
export function dueAndFree(now: string) {
  return sql<boolean>`status = ${PENDING} and next_attempt_at <= ${now} and (locked_until is null or locked_until <= ${now})`;
}

/**
 * Claims the picked rows that are still due and free at `now` (the update checks again, so a
 * claim is one atomic step even where rows cannot be locked ahead); returns the ids claimed.
 */
export async function takeLeases(tx: Tx, table: LeasedTable, ids: string[], now: string, lease: string, lockedUntil: string): Promise<string[]> {
  if (ids.length === 0) return [];
  const claimed = await tx
    .updateTable(table)
    .set({ lease, locked_until: lockedUntil })
    .where('id', 'in', ids)
    .where(dueAndFree(now))
    .returning('id')
    .execute();
  return claimed.map((r) => r.id);
}

/**
 * The rows among `ids` that `lease` still holds. On PostgreSQL a row another transaction has locked
 * is skipped, never waited for: renewals and releases touch several rows in no fixed order, and a
 * failure that disables a webhook endpoint locks that endpoint's pending rows in another order, so
 * waiting could deadlock (test/webhooks-lock-order.test.ts). A row skipped now is renewed at the
 * next renewal, long before its claim lapses, or released when that transaction is done with it.
 */
function heldBy(tx: Tx, table: LeasedTable, dialect: Dialect, ids: string[], lease: string) {
  const held = tx.selectFrom(table).select('id').where('id', 'in', ids).where('lease', '=', lease).where('status', '=', PENDING);
  return dialect === 'postgres' ? held.forUpdate().skipLocked() : held;
}

/** Extends the claims `lease` still holds on pending rows. */
export async function renewLeases(tx: Tx, table: LeasedTable, dialect: Dialect, ids: string[], lease: string, lockedUntil: string): Promise<void> {
  if (ids.length === 0) return;
  await tx.updateTable(table).set({ locked_until: lockedUntil }).where('id', 'in', heldBy(tx, table, dialect, ids, lease)).execute();
}

/** Gives claimed rows back unsent, due again at once. */
export async function releaseLeases(tx: Tx, table: LeasedTable, dialect: Dialect, ids: string[], lease: string): Promise<void> {
  if (ids.length === 0) return;
  await tx.updateTable(table).set({ lease: null, locked_until: null }).where('id', 'in', heldBy(tx, table, dialect, ids, lease)).execute();
}
