// Content queries. Every method takes the account id and puts it in the WHERE clause.
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { ContentTable, Database, Dialect } from './schema.js';
import { contentSearch, type SearchQuery, type SearchWords } from './content-search.js';
import { ContentLists, type ContentFilter, type ListQuery } from './content-list.js';
import { titleSortKey } from './content-sort.js';

export type ContentRow = Omit<Selectable<ContentTable>, 'account_id' | 'title_sort'>;
const FULL = ['id', 'title', 'type', 'content', 'status', 'author', 'created_at', 'updated_at', 'published_at', 'version'] as const;

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
  private readonly lists: ContentLists;

  constructor(dialect: Dialect) {
    this.lists = new ContentLists(contentSearch(dialect));
  }

  /** One page of a list (filters, search, sort; by offset or after a position), where the next starts, and the list's total. */
  list(db: Db, accountId: string, query: ListQuery) {
    return this.lists.list(db, accountId, query);
  }

  /** One page of a list, without its total. */
  page(db: Db, accountId: string, query: ListQuery) {
    return this.lists.page(db, accountId, query);
  }

  /** How many items a list shows in all (a search's count stops at SEARCH_COUNT_CAP). */
  total(db: Db, accountId: string, filter: ContentFilter, search?: SearchQuery) {
    return this.lists.total(db, accountId, filter, search);
  }

  /** Readies the search of one list request, for its page and its total. */
  prepareSearch(db: Db, accountId: string, words: SearchWords) {
    return this.lists.prepareSearch(db, accountId, words);
  }

  get(db: Db, accountId: string, id: string): Promise<ContentRow | undefined> {
    return db.selectFrom('content').select(FULL).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  async insert(tx: Tx, accountId: string, row: ContentRow): Promise<void> {
    await this.insertMany(tx, accountId, [row]);
  }

  /** Several items in one statement (bulk loads: benchmarks, imports). */
  async insertMany(tx: Tx, accountId: string, rows: ContentRow[]): Promise<void> {
    await tx.insertInto('content').values(rows.map((row) => ({ ...row, account_id: accountId, title_sort: titleSortKey(row.title) }))).execute();
  }

  /**
   * Applies `changes` atomically when the guard holds, bumping the version. `publishedAt` is set
   * only if the item has never been published. Returns undefined when no row matched.
   */
  update(tx: Tx, accountId: string, id: string, changes: ContentChanges, now: string, guard: WriteGuard, publishedAt?: string) {
    return tx.updateTable('content').where(matching(accountId, id, guard))
      .set((eb) => ({
        ...changes,
        ...(changes.title !== undefined ? { title_sort: titleSortKey(changes.title) } : {}),
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
