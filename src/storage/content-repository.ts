// Content queries. Every method takes the account id and puts it in the WHERE clause.
import type { Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { ContentTable, Dialect } from './schema.js';
import { contentSearch, type SearchQuery, type SearchWords } from './content-search.js';
import { ContentLists, type ContentFilter, type ListQuery } from './content-list.js';
import { titleSortKey } from './content-sort.js';
import { parseFields, type Fields } from './content-fields.js';
import { PreparedInsert } from './prepared.js';

export type ContentRow = Omit<Selectable<ContentTable>, 'account_id' | 'title_sort' | 'fields' | 'fields_text'> & { fields: Fields };
/** A row for a bulk load: slug and schedule may be left out (null; the slug backfill gives the item one). */
export type NewContentRow = Omit<ContentRow, 'slug' | 'publish_at' | 'unpublish_at' | 'fields'> & Partial<Pick<ContentRow, 'slug' | 'publish_at' | 'unpublish_at' | 'fields'>>;
const FULL = ['id', 'title', 'type', 'slug', 'content', 'status', 'author', 'created_at', 'updated_at', 'published_at', 'publish_at', 'unpublish_at', 'version', 'fields'] as const;

/** A selected row with its fields as an object. */
function item<R extends { fields: unknown }>(row: R): Omit<R, 'fields'> & { fields: Fields } {
  return { ...row, fields: parseFields(row.fields) };
}

export class ContentRepository {
  private readonly lists: ContentLists;
  private readonly inserts = new PreparedInsert<Omit<ContentTable, 'fields_text'>>('content', [...FULL, 'account_id', 'title_sort']);

  constructor(dialect: Dialect) {
    this.lists = new ContentLists(contentSearch(dialect), dialect);
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
    return db.selectFrom('content').select(FULL).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst().then((row) => row && item(row));
  }

  /** Several items by id, in no particular order (those that exist). */
  getMany(db: Db, accountId: string, ids: string[]): Promise<ContentRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db.selectFrom('content').select(FULL).where('account_id', '=', accountId).where('id', 'in', ids).execute().then((rows) => rows.map(item));
  }

  async insert(tx: Tx, accountId: string, row: NewContentRow): Promise<void> {
    await this.insertMany(tx, accountId, [row]);
  }

  /** Several items in one statement (a batch's creates, bulk loads). */
  async insertMany(tx: Tx, accountId: string, rows: NewContentRow[]): Promise<void> {
    await this.inserts.run(tx, rows.map((row) => ({ ...row, fields: JSON.stringify(row.fields ?? {}), account_id: accountId, title_sort: titleSortKey(row.title) })));
  }

  /**
   * Stores `next` as the item's new state, writing only the columns that differ from `previous`
   * (so unchanged text is not re-indexed), provided the stored version is still `previous`'s (the
   * caller read it in this transaction, holding the account's write turn, so it always is).
   */
  async replace(tx: Tx, accountId: string, next: ContentRow, previous: ContentRow): Promise<void> {
    const { fields, ...columns } = next;
    const changed: Record<string, unknown> = Object.fromEntries(Object.entries(columns).filter(([column, value]) => value !== previous[column as keyof ContentRow]));
    if (next.title !== previous.title) changed.title_sort = titleSortKey(next.title);
    const json = JSON.stringify(fields);
    if (json !== JSON.stringify(previous.fields)) changed.fields = json;
    const result = await tx.updateTable('content')
      .set(changed)
      .where('account_id', '=', accountId).where('id', '=', previous.id).where('version', '=', previous.version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new Error(`content ${previous.id} changed under its write turn`);
  }

  /** Sets the searchable text of the item's text fields (content-model/fields-step.ts); the search index follows. */
  async setFieldsText(tx: Tx, accountId: string, id: string, text: string): Promise<void> {
    await tx.updateTable('content').set({ fields_text: text }).where('account_id', '=', accountId).where('id', '=', id).execute();
  }

  async delete(tx: Tx, accountId: string, id: string): Promise<void> {
    await tx.deleteFrom('content').where('account_id', '=', accountId).where('id', '=', id).execute();
  }
}
