// Event log queries. Every read is scoped by account id; pruning by age is service-wide by nature.
import type { Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import { Prepared, PreparedInsert } from './prepared.js';
import type { Dialect, EventTable } from './schema.js';

export type EventRow = Selectable<EventTable>;

export class EventRepository {
  constructor(private readonly dialect: Dialect) {}

  private readonly inserts = new PreparedInsert<EventTable>('events', ['id', 'account_id', 'seq', 'type', 'data', 'created_at']);

  /** Run before every cached read: compiled once. */
  private readonly lastSeqQuery = new Prepared(
    (db: Db, accountId: string) => db.selectFrom('event_sequences').select('seq').where('account_id', '=', accountId),
    ['account_0'],
  );

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
    await this.inserts.run(tx, rows);
  }

  /** The account's last event number: a cheap "has anything changed?" for caches. */
  async lastSeq(db: Db, accountId: string): Promise<number> {
    const [row] = await this.lastSeqQuery.rows(db, accountId);
    return Number(row?.seq ?? 0);
  }

  findById(db: Db, accountId: string, id: string): Promise<Pick<EventRow, 'seq'> | undefined> {
    return db.selectFrom('events').select('seq').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  /** Events after `afterSeq`, oldest first; only the given types when `types` is set. */
  listAfter(db: Db, accountId: string, afterSeq: number, limit: number, types?: readonly string[]): Promise<EventRow[]> {
    let query = db.selectFrom('events').selectAll().where('account_id', '=', accountId).where('seq', '>', afterSeq);
    if (types !== undefined) query = query.where('type', 'in', types.length ? [...types] : ['']);
    return query.orderBy('seq').limit(limit).execute();
  }

  /** The last event numbers of several accounts at once. */
  async lastSeqs(db: Db, accountIds: string[]): Promise<Map<string, number>> {
    const rows = await db.selectFrom('event_sequences').select(['account_id', 'seq']).where('account_id', 'in', accountIds).execute();
    return new Map(rows.map((r) => [r.account_id, Number(r.seq)]));
  }

  /** Deletes up to `batch` events created before `before`; returns how many went. */
  async prune(db: Db, before: string, batch: number): Promise<number> {
    const doomed = db.selectFrom('events').select('id').where('created_at', '<', before).limit(batch);
    const result = await db.deleteFrom('events').where('id', 'in', doomed).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
