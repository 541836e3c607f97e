// Bulk jobs' rows (migration 017): the account's own reads and writes, and the service-wide claim
// of due jobs the worker makes (named AnyAccount). Leases as every outbox table (leases.ts).
import type { Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import { dueAndFree, PENDING, releaseLeases, renewLeases, takeLeases } from './leases.js';
import type { ContentJobTable, Dialect } from './schema.js';
import { olderThan } from './newest-first.js';

export type JobRow = Selectable<ContentJobTable>;

export class ContentJobRepository {
  constructor(private readonly dialect: Dialect) {}

  async insert(tx: Tx, row: JobRow): Promise<void> {
    await tx.insertInto('content_jobs').values(row).execute();
  }

  get(db: Db, accountId: string, id: string): Promise<JobRow | undefined> {
    return db.selectFrom('content_jobs').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  /** The account's jobs, newest first (after `after`, a cursor's position, when given), and how many there are. */
  async list(db: Db, accountId: string, limit: number, offset: number, after?: { created_at: string; id: string }): Promise<{ rows: JobRow[]; total: number }> {
    let page = db.selectFrom('content_jobs').selectAll().where('account_id', '=', accountId);
    if (after) page = page.where((eb) => olderThan(eb, after));
    const [rows, counted] = await Promise.all([
      page.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      db.selectFrom('content_jobs').where('account_id', '=', accountId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(counted.n) };
  }

  /** Changes a job the caller holds the account's write turn for (progress, an end, a cancellation). */
  async update(tx: Tx, accountId: string, id: string, changes: Partial<JobRow>): Promise<void> {
    await tx.updateTable('content_jobs').set(changes).where('account_id', '=', accountId).where('id', '=', id).execute();
  }

  /** Service-wide: ids of due, unclaimed jobs (oldest due first). */
  async dueAnyAccount(db: Db, now: string, limit: number): Promise<string[]> {
    const rows = await db.selectFrom('content_jobs').select('id').where(dueAndFree(now)).orderBy('next_attempt_at').orderBy('id').limit(limit).execute();
    return rows.map((r) => r.id);
  }

  async claimAnyAccount(tx: Tx, ids: string[], now: string, lease: string, lockedUntil: string): Promise<JobRow[]> {
    const claimed = await takeLeases(tx, 'content_jobs', ids, now, lease, lockedUntil);
    if (claimed.length === 0) return [];
    return tx.selectFrom('content_jobs').selectAll().where('id', 'in', claimed).where('status', '=', PENDING).execute();
  }

  renewAnyAccount(tx: Tx, ids: string[], lease: string, lockedUntil: string): Promise<void> {
    return renewLeases(tx, 'content_jobs', this.dialect, ids, lease, lockedUntil);
  }

  releaseAnyAccount(tx: Tx, ids: string[], lease: string): Promise<void> {
    return releaseLeases(tx, 'content_jobs', this.dialect, ids, lease);
  }
}
