// One-off background tasks (migration 015's slug backfill): their row, claimed under a lease like an
// outbox row, and the content queries the backfill walks. Service-wide by nature: a task serves
// every account, and says so in its names; writes to an item still take its account id.
import { sql, type Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import { PENDING, releaseLeases, renewLeases, takeLeases } from './leases.js';
import type { BackgroundTaskTable, Dialect } from './schema.js';

export type TaskRow = Selectable<BackgroundTaskTable>;

export class BackgroundTaskRepository {
  constructor(private readonly dialect: Dialect) {}

  get(db: Db, id: string): Promise<TaskRow | undefined> {
    return db.selectFrom('background_tasks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Takes the task if it is pending and free at `now`; its row as claimed, or undefined. */
  async claim(tx: Tx, id: string, now: string, lease: string, lockedUntil: string): Promise<TaskRow | undefined> {
    const ids = await takeLeases(tx, 'background_tasks', [id], now, lease, lockedUntil);
    return ids.length ? this.get(tx, id) : undefined;
  }

  renew(tx: Tx, ids: string[], lease: string, lockedUntil: string): Promise<void> {
    return renewLeases(tx, 'background_tasks', this.dialect, ids, lease, lockedUntil);
  }

  release(tx: Tx, ids: string[], lease: string): Promise<void> {
    return releaseLeases(tx, 'background_tasks', this.dialect, ids, lease);
  }

  /** Records a batch done under `lease` and gives the task back (or marks it done). */
  async advance(tx: Tx, id: string, lease: string, position: string | null, done: number, finished: boolean, now: string): Promise<void> {
    await tx
      .updateTable('background_tasks')
      .set((eb) => ({ position, done: eb('done', '+', done), status: finished ? 'done' : 'pending', lease: null, locked_until: null, next_attempt_at: now, updated_at: now }))
      .where('id', '=', id)
      .where('lease', '=', lease)
      .where('status', '=', PENDING)
      .execute();
  }

  /** Service-wide: the next `limit` items after `after` in id order (a primary-key range). */
  contentAfterAnyAccount(db: Db, after: string | null, limit: number) {
    let query = db.selectFrom('content').select(['id', 'account_id', 'type', 'title', 'slug']);
    if (after !== null) query = query.where('id', '>', after);
    return query.orderBy('id').limit(limit).execute();
  }

  /** Which of the account's items `ids` have no slug. */
  async withoutSlug(tx: Tx, accountId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await tx.selectFrom('content').select('id').where('account_id', '=', accountId).where('id', 'in', ids).where('slug', 'is', null).execute();
    return rows.map((row) => row.id);
  }

  /** Gives items without a slug theirs, in one statement (a CASE on the id). */
  async setSlugs(tx: Tx, accountId: string, slugs: { id: string; slug: string }[]): Promise<void> {
    if (slugs.length === 0) return;
    await tx
      .updateTable('content')
      .set({ slug: sql<string>`CASE ${sql.join(slugs.map(({ id, slug }) => sql`WHEN id = ${id} THEN ${slug}`), sql` `)} END` })
      .where('account_id', '=', accountId)
      .where('id', 'in', slugs.map((s) => s.id))
      .where('slug', 'is', null)
      .execute();
  }
}
