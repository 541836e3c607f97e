// Content queries. Every method takes the account id and puts it in the WHERE clause.
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { ContentTable, Database } from './schema.js';

export type ContentRow = Omit<Selectable<ContentTable>, 'account_id'>;
const FULL = ['id', 'title', 'type', 'content', 'status', 'author', 'created_at', 'updated_at', 'published_at', 'version'] as const;
const LISTED = ['id', 'title', 'type', 'status', 'author', 'created_at', 'updated_at'] as const;

export interface ContentFilter {
  type?: string;
  status?: string;
}

export interface ContentChanges {
  title?: string;
  type?: string;
  content?: string;
  status?: string;
}

/** Conditions an update or delete must meet, beyond the id: the expected versions, the author. */
export interface WriteGuard {
  versions?: number[];
  author?: string;
}

export class ContentRepository {
  async list(db: Db, accountId: string, filter: ContentFilter, limit: number, offset: number) {
    let page = db.selectFrom('content').where('account_id', '=', accountId);
    let count = db.selectFrom('content_counts').where('account_id', '=', accountId);
    if (filter.type !== undefined) {
      page = page.where('type', '=', filter.type);
      count = count.where('type', '=', filter.type);
    }
    if (filter.status !== undefined) {
      page = page.where('status', '=', filter.status);
      count = count.where('status', '=', filter.status);
    }
    const [rows, counted] = await Promise.all([
      page.select(LISTED).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      // Exact: the counts are kept by triggers in the same transaction as every change.
      count.select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(counted.total) };
  }

  get(db: Db, accountId: string, id: string): Promise<ContentRow | undefined> {
    return db.selectFrom('content').select(FULL).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  async insert(tx: Tx, accountId: string, row: ContentRow): Promise<void> {
    await tx.insertInto('content').values({ ...row, account_id: accountId }).execute();
  }

  /**
   * Applies `changes` atomically when the guard holds, bumping the version. `publishedAt` is set
   * only if the item has never been published. Returns undefined when no row matched.
   */
  update(tx: Tx, accountId: string, id: string, changes: ContentChanges, now: string, guard: WriteGuard, publishedAt?: string) {
    return tx.updateTable('content').where(matching(accountId, id, guard))
      .set((eb) => ({
        ...changes,
        updated_at: now,
        version: eb('version', '+', 1),
        ...(publishedAt !== undefined ? { published_at: eb.fn.coalesce('published_at', eb.val(publishedAt)) } : {}),
      }))
      .returning(FULL)
      .executeTakeFirst();
  }

  /** Archives the item unless it already is archived; undefined when nothing changed. */
  archive(tx: Tx, accountId: string, id: string, now: string, guard: WriteGuard) {
    return tx.updateTable('content').where(matching(accountId, id, guard))
      .where('status', '<>', 'archived')
      .set((eb) => ({ status: 'archived', updated_at: now, version: eb('version', '+', 1) }))
      .returning(FULL)
      .executeTakeFirst();
  }

  delete(tx: Tx, accountId: string, id: string, guard: WriteGuard) {
    return tx.deleteFrom('content').where(matching(accountId, id, guard)).returning(['id']).executeTakeFirst();
  }
}

/** The WHERE of a guarded write: this account, this id, and the guard's conditions. */
function matching(accountId: string, id: string, guard: WriteGuard) {
  return (eb: ExpressionBuilder<Database, 'content'>) => {
    const conditions = [eb('account_id', '=', accountId), eb('id', '=', id)];
    if (guard.versions !== undefined) conditions.push(eb('version', 'in', guard.versions.length ? guard.versions : [-1]));
    if (guard.author !== undefined) conditions.push(eb('author', '=', guard.author));
    return eb.and(conditions);
  };
}
