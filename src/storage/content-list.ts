// Content lists (CONTRACT.md §5, §17): filters, search, sort, offset or keyset pages, and totals.
// A page asks for one row more than it shows, so whether another page follows (and where it
// starts) is known without counting; totals come from the trigger-kept counts, or for a search
// from a count that stops at SEARCH_COUNT_CAP.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from './db.js';
import type { ContentSearch, SearchQuery, SearchWords } from './content-search.js';
import { keysetAfter, orderItems, SORT_COLUMN, type Position, type ResolvedKey, type SortKey } from './content-sort.js';
import type { Database } from './schema.js';

export interface ContentFilter {
  type?: string;
  status?: string;
}

export interface ListQuery {
  filter: ContentFilter;
  /** Only items matching the search (prepared by `prepareSearch`). */
  search?: SearchQuery;
  /** The sort keys; id descending always follows. `relevance` only with `search`. */
  order: SortKey[];
  /** Start after this item (a cursor); `offset` is then 0. */
  after?: Position;
  limit: number;
  offset: number;
}

const LISTED = ['id', 'title', 'type', 'status', 'author', 'created_at', 'updated_at'] as const;

export interface ListedRow {
  id: string;
  title: string;
  type: string;
  status: string;
  author: string;
  created_at: string;
  updated_at: string;
}

export interface ListPage {
  rows: ListedRow[];
  /** Where the next page starts; null on the last page. */
  next: Position | null;
  /** All the items matched, when the page's statement counted them anyway (a search by relevance). */
  counted?: number;
}

export interface Counted {
  total: number;
  /** False when a search's count stopped at SEARCH_COUNT_CAP. */
  exact: boolean;
}

/** A search's total is counted up to here; beyond it, the total is given as this and marked inexact. */
export const SEARCH_COUNT_CAP = 10_000;

type Row = ListedRow & { published_at: string | null; title_sort: string; relevance?: number; match_count?: number };

const capped = (n: number): Counted => (n > SEARCH_COUNT_CAP ? { total: SEARCH_COUNT_CAP, exact: false } : { total: n, exact: true });
/** Which items of an order led by published_at a query reads: those with a date, or those without. */
type Segment = 'dated' | 'undated' | undefined;

export class ContentLists {
  constructor(private readonly search: ContentSearch) {}

  /** Readies a search for the statements of one request (on PostgreSQL: builds its tsquery once). */
  prepareSearch(db: Db, accountId: string, words: SearchWords): Promise<SearchQuery> {
    return this.search.prepare(db, accountId, words);
  }

  /** A page and the list's total. */
  async list(db: Db, accountId: string, query: ListQuery): Promise<ListPage & Counted> {
    if (!byRelevance(query)) {
      const [page, counted] = await Promise.all([this.page(db, accountId, query), this.total(db, accountId, query.filter, query.search)]);
      return { ...page, ...counted };
    }
    // Ordering by relevance reads every match anyway: the page's statement counts them too.
    const page = await this.page(db, accountId, query);
    return { ...page, ...(page.counted !== undefined ? capped(page.counted) : await this.total(db, accountId, query.filter, query.search)) };
  }

  async page(db: Db, accountId: string, query: ListQuery): Promise<ListPage> {
    const want = query.limit + 1;
    const rows =
      query.order[0]?.field === 'published_at'
        ? await this.datedFirst(db, accountId, query, want)
        : await this.select(db, accountId, query, query.order, query.after, want, query.offset).execute();
    const page = rows.slice(0, query.limit) as Row[];
    const last = page[page.length - 1];
    return {
      rows: page.map((row) => Object.fromEntries(LISTED.map((column) => [column, row[column]])) as unknown as ListedRow),
      next: rows.length > query.limit && last ? positionOf(last, query.order) : null,
      ...(rows[0]?.match_count !== undefined ? { counted: Number(rows[0].match_count) } : {}),
    };
  }

  /** The number of items a list shows in all; a search's is counted only up to SEARCH_COUNT_CAP. */
  async total(db: Db, accountId: string, filter: ContentFilter, search?: SearchQuery): Promise<Counted> {
    if (search) {
      const matched = this.filtered(db, accountId, filter, search).select(sql.lit(1).as('one')).limit(SEARCH_COUNT_CAP + 1);
      const { n } = await db.selectFrom(matched.as('matched')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return capped(Number(n));
    }
    let count = db.selectFrom('content_counts').where('account_id', '=', accountId);
    if (filter.type !== undefined) count = count.where('type', '=', filter.type);
    if (filter.status !== undefined) count = count.where('status', '=', filter.status);
    // Exact: the counts are kept by triggers in the same transaction as every change (migration 002).
    const counted = await count.select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('total')).executeTakeFirstOrThrow();
    return { total: Number(counted.total), exact: true };
  }

  /**
   * An order led by published_at reads the dated items (an index range, in either direction), then
   * the undated ones ordered by the remaining keys: each part is an index walk, where one ORDER BY
   * putting NULLs last would sort every item of the account.
   */
  private async datedFirst(db: Db, accountId: string, query: ListQuery, want: number): Promise<Row[]> {
    const rest = query.order.slice(1);
    const after = query.after;
    if (after && after.values[0] === null) {
      return this.select(db, accountId, query, rest, { values: after.values.slice(1), id: after.id }, want, 0, 'undated').execute();
    }
    const dated = await this.select(db, accountId, query, query.order, after, want, query.offset, 'dated').execute();
    if (dated.length >= want) return dated;
    // An offset past the dated items continues among the undated ones.
    let skip = 0;
    if (query.offset > 0 && dated.length === 0) {
      const { n } = await this.filtered(db, accountId, query.filter, query.search)
        .where('published_at', 'is not', null)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      skip = Math.max(0, query.offset - Number(n));
    }
    const undated = await this.select(db, accountId, query, rest, undefined, want - dated.length, skip, 'undated').execute();
    return [...dated, ...undated];
  }

  /** The account's items that pass the filters and match the search (whose condition names the account itself). */
  private filtered(db: Db, accountId: string, filter: ContentFilter, search?: SearchQuery) {
    let query = search ? db.selectFrom('content').where(search.matches) : db.selectFrom('content').where('account_id', '=', accountId);
    if (filter.type !== undefined) query = query.where('type', '=', filter.type);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    return query;
  }

  private select(db: Db, accountId: string, query: ListQuery, order: SortKey[], after: Position | undefined, limit: number, offset: number, segment?: Segment) {
    let matched = this.filtered(db, accountId, query.filter, query.search).select([...LISTED, 'published_at', 'title_sort']);
    if (segment) matched = matched.where('published_at', segment === 'dated' ? 'is not' : 'is', null);
    let rows: SelectQueryBuilder<Database, 'content', Row>;
    let table = 'content';
    if (query.search && byRelevance(query)) {
      // The tier is worked out once per matching item (a materialized CTE), then ordered and compared
      // like a column; the matches are counted there too.
      const tiered = matched.select(query.search.inTitle.as('relevance'));
      rows = db
        .with((cte) => cte('matched').materialized(), () => tiered)
        .selectFrom('matched')
        .selectAll()
        .select(sql<number>`(SELECT count(*) FROM matched)`.as('match_count')) as unknown as typeof rows;
      table = 'matched';
    } else {
      rows = matched as typeof rows;
    }
    const keys = order.map((key) => resolve(key, table, segment));
    const id = sql.ref(`${table}.id`);
    if (after) rows = rows.where((eb) => keysetAfter(eb, keys, id, after));
    for (const [expr, direction] of orderItems(keys, id)) rows = rows.orderBy(expr, direction);
    rows = rows.limit(limit);
    return offset > 0 ? rows.offset(offset) : rows;
  }
}

/** A sort key as a column of `table`; in the dated segment published_at has a value, elsewhere it may be NULL. */
function resolve(key: SortKey, table: string, segment: Segment): ResolvedKey {
  const nullable = key.field === 'published_at' && segment !== 'dated';
  return { expr: sql.ref(`${table}.${SORT_COLUMN[key.field]}`), desc: key.desc, nullable };
}

const byRelevance = (query: ListQuery) => query.order.some((key) => key.field === 'relevance');

function positionOf(row: Row, order: SortKey[]): Position {
  return {
    values: order.map((key) => (key.field === 'relevance' ? Number(row.relevance) : row[SORT_COLUMN[key.field]])),
    id: row.id,
  };
}
