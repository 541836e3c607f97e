// Event log queries. Every read is scoped by account id; pruning by age is service-wide by nature.
import type { Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { Dialect, EventTable } from './schema.js';

export type EventRow = Selectable<EventTable>;

export class EventRepository {
  constructor(private readonly dialect: Dialect) {}

  /**
   * Takes the account's write turn until the transaction ends: a row lock on PostgreSQL, so two
   * changes of one account never interleave and events commit in `seq` order. On SQLite a single
   * connection already runs one transaction at a time.
   */
  async lock(tx: Tx, accountId: string): Promise<void> {
    if (this.dialect === 'postgres') {
      await tx.selectFrom('event_sequences').select('seq').where('account_id', '=', accountId).forUpdate().execute();
    }
  }

  /** Reserves `count` numbers and returns the last one. */
  async advance(tx: Tx, accountId: string, count: number): Promise<number> {
    const row = await tx
      .updateTable('event_sequences')
      .set((eb) => ({ seq: eb('seq', '+', count) }))
      .where('account_id', '=', accountId)
      .returning('seq')
      .executeTakeFirstOrThrow();
    return Number(row.seq);
  }

  async insert(tx: Tx, rows: EventRow[]): Promise<void> {
    await tx.insertInto('events').values(rows).execute();
  }

  /** The account's last event number: a cheap "has anything changed?" for caches. */
  async lastSeq(db: Db, accountId: string): Promise<number> {
    const row = await db.selectFrom('event_sequences').select('seq').where('account_id', '=', accountId).executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  findById(db: Db, accountId: string, id: string): Promise<Pick<EventRow, 'seq'> | undefined> {
    return db.selectFrom('events').select('seq').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  /** Events after `afterSeq`, oldest first. */
  listAfter(db: Db, accountId: string, afterSeq: number, limit: number): Promise<EventRow[]> {
    return db
      .selectFrom('events')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /** The oldest retained event number of the account, or undefined when none is retained. */
  async firstSeq(db: Db, accountId: string): Promise<number | undefined> {
    const row = await db.selectFrom('events').select((eb) => eb.fn.min('seq').as('first')).where('account_id', '=', accountId).executeTakeFirst();
    return row?.first == null ? undefined : Number(row.first);
  }

  /** Deletes up to `batch` events created before `before`; returns how many went. */
  async prune(db: Db, before: string, batch: number): Promise<number> {
    const doomed = db.selectFrom('events').select('id').where('created_at', '<', before).limit(batch);
    const result = await db.deleteFrom('events').where('id', 'in', doomed).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
