// Webhook endpoint queries. Every method takes the account id and puts it in the WHERE; the one
// read done for the event sink also checks the account's plan in the same query.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { Dialect, WebhookEndpointTable } from './schema.js';

export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;

/** What the event sink needs to know about an endpoint to queue a delivery. */
export interface SubscribedEndpoint {
  id: string;
  events: string;
}

export class WebhookEndpointRepository {
  constructor(private readonly dialect: Dialect) {}

  async list(db: Db, accountId: string, limit: number, offset: number) {
    const query = db.selectFrom('webhook_endpoints').where('account_id', '=', accountId);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  async count(db: Db, accountId: string): Promise<number> {
    const row = await db
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  get(db: Db, accountId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    return db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  /**
   * The endpoint, with its row locked until the transaction ends (on PostgreSQL; SQLite has one
   * writer at a time). A transaction that writes an endpoint and its delivery rows takes this lock
   * before touching any delivery row, so all of them lock in one order and cannot deadlock. FOR NO
   * KEY UPDATE, the lock an UPDATE takes, leaves alone the inserts of delivery rows (their foreign
   * key check only shares the key).
   */
  lock(tx: Tx, accountId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    const query = tx.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).where('id', '=', id);
    return (this.dialect === 'postgres' ? query.forNoKeyUpdate() : query).executeTakeFirst();
  }

  async insert(tx: Tx, row: Insertable<WebhookEndpointTable>): Promise<void> {
    await tx.insertInto('webhook_endpoints').values(row).execute();
  }

  update(tx: Tx, accountId: string, id: string, changes: Updateable<WebhookEndpointTable>): Promise<WebhookEndpointRow | undefined> {
    return tx
      .updateTable('webhook_endpoints')
      .set(changes)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(tx: Tx, accountId: string, id: string): Promise<boolean> {
    const result = await tx.deleteFrom('webhook_endpoints').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The account's enabled endpoints, or none when its plan does not include webhooks. One indexed query. */
  subscribed(tx: Tx, accountId: string, plans: readonly string[]): Promise<SubscribedEndpoint[]> {
    return tx
      .selectFrom('webhook_endpoints as w')
      .innerJoin('accounts as a', 'a.id', 'w.account_id')
      .select(['w.id', 'w.events'])
      .where('w.account_id', '=', accountId)
      .where('w.enabled', '=', 1)
      .where('a.plan', 'in', plans)
      .execute();
  }

  /** Starts a run of failures (unless one is running) and returns when it started. */
  async markFailing(tx: Tx, accountId: string, id: string, now: string): Promise<string | undefined> {
    const row = await tx
      .updateTable('webhook_endpoints')
      .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(now)) }))
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returning('failing_since')
      .executeTakeFirst();
    return row?.failing_since ?? undefined;
  }

  /** Ends a run of failures; writes nothing when there is none. */
  async markHealthy(tx: Tx, accountId: string, id: string): Promise<void> {
    await tx
      .updateTable('webhook_endpoints')
      .set({ failing_since: null })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('failing_since', 'is not', null)
      .execute();
  }
}
