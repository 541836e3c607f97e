// Idempotency key queries (migration 011). Every method takes the account id and puts it in the
// WHERE, except pruning, which is service-wide by nature (its name says so). Each change of a row
// is conditional on who holds it, so two instances can never both act on one key.
import { sql, type Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { IdempotencyKeyTable } from './schema.js';

export type IdempotencyRow = Selectable<IdempotencyKeyTable>;

export class IdempotencyRepository {
  /** Inserts the claim unless the key exists; true when this call made it. */
  async insert(tx: Tx, row: IdempotencyRow): Promise<boolean> {
    const inserted = await tx.insertInto('idempotency_keys').values(row).onConflict((oc) => oc.columns(['account_id', 'key']).doNothing()).returning('owner').execute();
    return inserted.length === 1;
  }

  find(db: Db, accountId: string, key: string): Promise<IdempotencyRow | undefined> {
    return db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst();
  }

  /** Replaces the row with `row` if it is still held by `owner` in `state`; true when it was. */
  async takeOver(tx: Tx, row: IdempotencyRow, owner: string, state: string): Promise<boolean> {
    const result = await tx.updateTable('idempotency_keys').set(row)
      .where('account_id', '=', row.account_id).where('key', '=', row.key).where('owner', '=', owner).where('state', '=', state)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Marks the key applied, in the change's transaction (a key already done by this attempt stays
   * done); false when `owner` no longer holds it. The owner token is this attempt's alone.
   */
  async markApplied(tx: Tx, accountId: string, key: string, owner: string): Promise<boolean> {
    const result = await tx.updateTable('idempotency_keys').set({ state: sql<string>`CASE WHEN state = 'done' THEN state ELSE 'applied' END` })
      .where('account_id', '=', accountId).where('key', '=', key).where('owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Stores the response (in the change's transaction, or after it); false when `owner` no longer holds the key. */
  async complete(tx: Tx, accountId: string, key: string, owner: string, response: Pick<IdempotencyRow, 'response_status' | 'response_headers' | 'response_body'>): Promise<boolean> {
    const result = await tx.updateTable('idempotency_keys').set({ ...response, state: 'done' })
      .where('account_id', '=', accountId).where('key', '=', key).where('owner', '=', owner).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives the key up if nothing was applied under it, so that a retry runs the request afresh. */
  async release(tx: Tx, accountId: string, key: string, owner: string): Promise<void> {
    await tx.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key).where('owner', '=', owner).where('state', '=', 'running').execute();
  }

  /** Deletes the keys that expired before `now` (an hour's worth, when run hourly); returns how many went. */
  async pruneExpiredAnyAccount(db: Db, now: string): Promise<number> {
    const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
