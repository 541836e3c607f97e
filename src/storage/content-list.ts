// Content lists (CONTRACT.md §5, §17): filters, search, sort, offset or keyset pages, and totals.
// A page asks for one row more than it shows, so whether another page follows (and where it
// starts) is known without counting; totals come from the trigger-kept counts, or for a search
// from a count that stops at SEARCH_COUNT_CAP.
import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Db } from './db.js';
import type { ContentSearch, SearchIndex, SearchQuery, SearchWords } from './content-search.js';
import { isModelField, isNullable, keysetAfter, orderItems, sortColumn, SORT_COLUMN, type KeyValue, type Position, type ResolvedKey, type SortKey } from './content-sort.js';
import { publishingFilter, scheduledWithin, type PublishingFilter } from './content-list-publishing.js';
import type { Database, Dialect } from './schema.js';
import { fieldExpression, fieldValue, parseFields, type Fields } from './content-fields.js';
import { fieldConditions, type FieldFilter } from './content-list-fields.js';

export interface ContentFilter extends PublishingFilter {
  type?: string;
  status?: string;
  /** Conditions on the typed fields of `type` (CONTRACT.md §20), each an expression index's range. */
  fields?: FieldFilter[];
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
  /**
   * A search by relevance ranks the newest RELEVANCE_WINDOW matches only: those at or above this
   * floor (the oldest of them); null when every match is in the window. Undefined on a first page,
   * which finds it; a cursor carries it, so its pages keep the order of the first.
   */
  floor?: Floor | null;
}

/**
 * The oldest match a search ranks by relevance (created_at, id). On SQLite also `item`, its place
 * in creation order (content's rowid): there the window is the matches created last, as the search
 * index hands them out, and `item` is what the window's statements compare.
 */
export interface Floor {
  created_at: string;
  id: string;
  item?: number;
}

/** How many of the newest matches a search ranks by relevance (CONTRACT.md §17); older ones follow newest first. */
export const RELEVANCE_WINDOW = 1000;
/** The relevance of a match outside the window: after both tiers (1 title, 0 body). */
const OUTSIDE = -1;

const LISTED = ['id', 'title', 'type', 'slug', 'status', 'author', 'created_at', 'updated_at', 'fields'] as const;

export interface ListedRow {
  id: string;
  title: string;
  type: string;
  slug: string | null;
  status: string;
  author: string;
  created_at: string;
  updated_at: string;
  fields: Fields;
}

export interface ListPage {
  rows: ListedRow[];
  /** Where the next page starts; null on the last page. */
  next: Position | null;
  /** A search by relevance: the floor its pages rank above (ListQuery.floor), for the cursor. */
  floor?: Floor | null;
}

export interface Counted {
  total: number;
  /** False when a search's count stopped at SEARCH_COUNT_CAP. */
  exact: boolean;
}

/** A search's total is counted up to here; beyond it, the total is given as this and marked inexact. */
export const SEARCH_COUNT_CAP = 10_000;

/**
 * What a page's statements read of each matching item: its id and the values of the order's keys
 * (a position is made of them), nothing more. The shown columns of the page's items are read after,
 * by id: matches are ordered and cut to a page on these few columns, which an index can hold whole
 * (a typed field's index does), where reading whole rows would fetch and sort every match's body.
 */
type Row = { id: string; relevance?: number } & Record<string, KeyValue | undefined>;

const capped = (n: number): Counted => (n > SEARCH_COUNT_CAP ? { total: SEARCH_COUNT_CAP, exact: false } : { total: n, exact: true });
/** Which items of an order led by a date an item may lack (published_at, publish_at) a query reads: those with it, or those without. */
type Segment = 'dated' | 'undated' | undefined;

export class ContentLists {
  constructor(
    private readonly search: ContentSearch,
    private readonly dialect: Dialect,
  ) {}

  /** Readies a search for the statements of one request (on PostgreSQL: builds its tsquery once). */
  prepareSearch(db: Db, accountId: string, words: SearchWords): Promise<SearchQuery> {
    return this.search.prepare(db, accountId, words);
  }

  /** A page and the list's total. */
  async list(db: Db, accountId: string, query: ListQuery): Promise<ListPage & Counted> {
    if (firstByRelevance(query)) {
      // The first page of a search by relevance counts the matches in the pass that finds its window.
      const { counted: pageCounted, ...page } = await this.page(db, accountId, query);
      const counted = pageCounted ?? (await this.total(db, accountId, query.filter, query.search));
      return { ...page, ...counted };
    }
    if (this.countedWithPage(query)) {
      const page = await this.page(db, accountId, query, true);
      // No row, past an offset: the statement counted nothing, so the list is counted alone.
      const counted = page.counted ?? (query.offset === 0 ? { total: 0, exact: true } : await this.total(db, accountId, query.filter, query.search));
      return { rows: page.rows, next: page.next, ...counted };
    }
    const [page, counted] = await Promise.all([this.page(db, accountId, query), this.total(db, accountId, query.filter, query.search)]);
    return { ...page, ...counted };
  }

  /**
   * PostgreSQL, a typed field filtered on and the list not ordered by a typed field, first page:
   * the page's statement counts the matches too (`count(*) OVER ()`). Its expression index cannot
   * answer the count alone (no index-only scan on an expression), so a separate count would read
   * every match's row a second time, while the page reads them all already to order them by
   * date. A cursor's page reads only the matches after it, so it is counted apart; so is an order
   * by the field, whose page walks its index and stops after a page.
   */
  private countedWithPage(query: ListQuery): boolean {
    return (
      this.dialect === 'postgres' &&
      !!query.filter.fields?.length &&
      !query.search &&
      query.after === undefined &&
      !query.order.some((key) => isModelField(key.field) || isNullable(key.field))
    );
  }

  async page(db: Db, accountId: string, query: ListQuery, counting = false): Promise<ListPage & { counted?: Counted }> {
    const want = query.limit + 1;
    let floor: Floor | null | undefined;
    let rows: Row[];
    let counted: Counted | undefined;
    if (query.search?.index && firstByRelevance(query)) {
      ({ rows, floor, counted } = await this.firstFromIndex(db, accountId, query, query.search.index, want));
    } else if (query.search && firstByRelevance(query)) {
      ({ rows, floor, counted } = await this.firstByRelevance(db, accountId, query, query.search, want));
    } else if (query.search && byRelevance(query)) {
      floor = query.floor !== undefined ? query.floor : await this.floorOf(db, accountId, query);
      rows = await this.byRelevance(db, accountId, query, floor, want);
    } else {
      if (query.order[0] && isNullable(query.order[0].field)) rows = await this.datedFirst(db, accountId, query, want);
      else {
        let select = this.select(db, accountId, query, query.order, query.after, want, query.offset);
        if (counting) select = select.select(sql<string>`count(*) OVER ()`.as('matches'));
        rows = await select.execute();
        if (counting && rows[0]) counted = { total: Number(rows[0].matches), exact: true };
      }
    }
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      rows: await this.shown(db, page.map((row) => row.id)),
      next: rows.length > query.limit && last ? positionOf(last, query.order) : null,
      ...(floor !== undefined ? { floor } : {}),
      ...(counted ? { counted } : {}),
    };
  }

  /**
   * The shown columns of a page's items, in the page's order: a primary key lookup each (the ids
   * come from the account's statements; naming the account here would let a planner walk its items
   * instead). An item deleted since its id was read is left out (the page is one shorter; the next
   * one still starts after the last id read).
   */
  private async shown(db: Db, ids: string[]): Promise<ListedRow[]> {
    if (ids.length === 0) return [];
    const read = await db.selectFrom('content').select(LISTED).where('id', 'in', ids).execute();
    const byId = new Map(read.map((row) => [row.id, { ...row, fields: parseFields(row.fields) } as ListedRow]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** The oldest of the newest RELEVANCE_WINDOW matches, or null when there are fewer. */
  private async floorOf(db: Db, accountId: string, query: ListQuery): Promise<Floor | null> {
    const row = await this.filtered(db, accountId, query.filter, query.search, query.order)
      .select(['created_at', 'id'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .offset(RELEVANCE_WINDOW - 1)
      .executeTakeFirst();
    return row ? { created_at: row.created_at, id: row.id } : null;
  }

  /**
   * SQLite, the first page of a search by relevance, from the search index in its own order (FTS5
   * hands out matches by rowid, content's, which follows creation): the window is the
   * RELEVANCE_WINDOW matches created last. One statement walks the index, counting the matches (up
   * to SEARCH_COUNT_CAP + 1) and handing back the window's rowids with their tier (the title's
   * matches, one more walk of the index); with no other filter it reads no item, as the index's
   * expression names the account. Then only the items the page may need are looked up by
   * rowid (the window's title matches, or all of it when they do not fill the page), and ranked by
   * tier, then newest first, then id: the order the cursor's pages continue in SQL.
   */
  private async firstFromIndex(db: Db, accountId: string, query: ListQuery, index: SearchIndex, want: number): Promise<{ rows: Row[]; floor: Floor | null; counted: Counted }> {
    const fts = sql.table(index.table);
    const filtered = Object.values(query.filter).some((value) => value !== undefined && !(Array.isArray(value) && value.length === 0));
    // FTS5 walks an index twice as fast in rowid order as backwards: every match up to the count's
    // cap is read oldest first, and the window taken from the top of them; only past the cap is
    // the index walked again, newest first, for the window alone.
    const walk = (newestFirst: boolean, limit: number) =>
      filtered
        ? this.narrow(
            db,
            accountId,
            (db.selectFrom(sql`${fts}`.as(index.table)).crossJoin('content_keys as content') as unknown as ReturnType<typeof db.selectFrom<'content'>>).where(
              sql<SqlBool>`content.item = ${sql.ref(`${index.table}.rowid`)} AND ${fts} MATCH ${index.all} AND +content.account_id = ${accountId}`,
            ),
            query.filter,
          )
            .select(sql<number>`content.item`.as('item'))
            .$if(newestFirst, (q) => q.orderBy(sql.ref(`${index.table}.rowid`), 'desc'))
            .limit(limit)
        : sql`(SELECT rowid AS item FROM ${fts} WHERE ${fts} MATCH ${index.all} ${newestFirst ? sql`ORDER BY rowid DESC` : sql``} LIMIT ${limit})`;
    const windowOf = async (matches: ReturnType<typeof walk>) =>
      (
        await sql<{ n: number; window: string }>`WITH matches AS MATERIALIZED ${matches}
          SELECT (SELECT count(*) FROM matches) AS n,
            (SELECT json_group_array(json_array(item, item IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${index.title})))
               FROM (SELECT item FROM matches ORDER BY item DESC LIMIT ${RELEVANCE_WINDOW + 1})) AS window`.execute(db)
      ).rows[0]!;
    const all = await windowOf(walk(false, SEARCH_COUNT_CAP + 1));
    const { n } = all;
    const { window } = n > SEARCH_COUNT_CAP ? await windowOf(walk(true, RELEVANCE_WINDOW + 1)) : all;
    const counted = capped(Number(n));
    const matches = JSON.parse(window) as [item: number, tier: 0 | 1][];
    const edge = matches.length > RELEVANCE_WINDOW ? matches[RELEVANCE_WINDOW - 1]![0] : undefined;
    const ranked = matches.slice(0, RELEVANCE_WINDOW);
    const titled = ranked.filter(([, tier]) => tier === 1);
    // The page's matches among `needed`, ranked; the keys read (the edge's too).
    const rank = async (needed: typeof ranked) => {
      const items = needed.map(([item]) => item);
      if (edge !== undefined) items.push(edge);
      // A few (about the page's own rows) are read from content, whose pages the page's read then
      // finds in the cache; more from content_keys, whose rows are narrow.
      const listed = sql<number>`(SELECT value FROM json_each(${JSON.stringify(items)}))`;
      const found =
        items.length <= 2 * want
          ? await db.selectFrom('content').select([sql<number>`content.rowid`.as('item'), 'id', 'created_at']).where(sql.ref('content.rowid'), 'in', listed).execute()
          : await db.selectFrom('content_keys').select(['item', 'id', 'created_at']).where('item', 'in', listed).execute();
      const keys = new Map(found.map((row) => [row.item, row]));
      // An item deleted since the walk has no keys and is left out.
      const rows = needed
        .flatMap(([item, tier]) => {
          const key = keys.get(item);
          return key ? [{ id: key.id, created_at: String(key.created_at), relevance: tier }] : [];
        })
        .sort(inWindowOrder)
        .slice(query.offset, query.offset + want);
      return { rows, keys };
    };
    // The title matches alone when they fill the page (and still do: one may have been deleted since).
    let { rows, keys } = await rank(titled.length >= query.offset + want ? titled : ranked);
    if (rows.length < want && titled.length >= query.offset + want) ({ rows, keys } = await rank(ranked));
    if (edge === undefined) return { rows, floor: null, counted };
    // The cursor compares the edge's rowid; its date and id stand in should it be gone meanwhile.
    const oldest = keys.get(edge);
    const floor = { created_at: oldest ? String(oldest.created_at) : '0000-01-01T00:00:00.000Z', id: oldest?.id ?? 'content_00000000000000000000000000', item: edge };
    if (rows.length >= want) return { rows, floor, counted };
    const older = await this.older(db, accountId, query, floor, undefined, want - rows.length, Math.max(0, query.offset - ranked.length));
    return { rows: [...rows, ...older], floor, counted };
  }

  /**
   * The first page of a search by relevance (no cursor yet), in one pass over the matches: the
   * newest RELEVANCE_WINDOW + 1 of them with their tier (ids and keys only), which gives the floor
   * (the window's oldest) and the window itself, ranked here by tier, then newest first, then id —
   * the order the cursor's pages continue in SQL. A page past the window continues among the older
   * matches, newest first.
   */
  private async firstByRelevance(db: Db, accountId: string, query: ListQuery, search: SearchQuery, want: number): Promise<{ rows: Row[]; floor: Floor | null; counted: Counted }> {
    // The matches are all read to order them, so they are counted in the same pass; the tier is
    // worked out on the window's rows only (PostgreSQL's reads each one's search vector).
    const window = this.filtered(db, accountId, query.filter, search, query.order)
      .select(['content.id', 'content.created_at', sql<number>`count(*) OVER ()`.as('matches')])
      .$if(search.tierColumn !== undefined, (q) => q.select(sql.ref(`content.${search.tierColumn}`).as(search.tierColumn!)))
      .orderBy('content.created_at', 'desc')
      .orderBy('content.id', 'desc')
      .limit(RELEVANCE_WINDOW + 1);
    const newest = (await db
      .selectFrom(window.as('content'))
      .select(['content.id', 'content.created_at', 'content.matches'])
      .select(search.inTitle.as('relevance'))
      .orderBy('content.created_at', 'desc')
      .orderBy('content.id', 'desc')
      .execute()) as (Row & { matches: number | string })[];
    const counted = capped(newest[0] ? Number(newest[0].matches) : 0);
    const edge = newest.length > RELEVANCE_WINDOW ? newest[RELEVANCE_WINDOW - 1]! : undefined;
    const floor = edge ? { created_at: String(edge.created_at), id: edge.id } : null;
    const ranked = newest
      .slice(0, RELEVANCE_WINDOW)
      .map((row) => ({ id: row.id, created_at: String(row.created_at), relevance: Number(row.relevance) }))
      .sort(inWindowOrder);
    const rows = ranked.slice(query.offset, query.offset + want);
    if (rows.length >= want || floor === null) return { rows, floor, counted };
    const older = await this.older(db, accountId, query, floor, undefined, want - rows.length, Math.max(0, query.offset - ranked.length));
    return { rows: [...rows, ...older], floor, counted };
  }

  /** The matches below the floor, newest first (relevance OUTSIDE), after `after` (a cursor's position among them). */
  private async older(db: Db, accountId: string, query: ListQuery, floor: Floor, after: Position | undefined, limit: number, skip: number): Promise<Row[]> {
    let older = this.filtered(db, accountId, query.filter, query.search, query.order)
      .select(keyColumns(query.order))
      .select(sql.lit(OUTSIDE).as('relevance'))
      .where((eb) => eb.not(atOrAbove(eb, floor)));
    if (after) older = older.where((eb) => keysetAfter(eb, [{ expr: sql.ref('content.created_at'), desc: true, nullable: false }], sql.ref('content.id'), { values: [after.values[1]!], id: after.id }));
    older = older.orderBy('content.created_at', 'desc').orderBy('content.id', 'desc').limit(limit);
    if (skip > 0) older = older.offset(skip);
    return (await older.execute()) as Row[];
  }

  /**
   * A page by cursor of a search by relevance: the matches at or above the cursor's floor by tier
   * (a title match first), then newest first; then the older matches, newest first. Only the
   * window's matches (about RELEVANCE_WINDOW) are ranked; finding them still visits every match
   * once (neither FTS5 nor GIN hands out matches in date order).
   */
  private async byRelevance(db: Db, accountId: string, query: ListQuery, floor: Floor | null, want: number): Promise<Row[]> {
    const after = query.after;
    const outside = after !== undefined && after.values[0] === OUTSIDE;
    let ranked: Row[] = [];
    if (!outside) ranked = await this.select(db, accountId, query, query.order, after, want, query.offset, undefined, floor).execute();
    if (ranked.length >= want || floor === null) return ranked;
    let skip = 0;
    if (query.offset > 0 && ranked.length === 0) {
      // An offset past the window continues among the older matches.
      const { n } = await this.filtered(db, accountId, query.filter, query.search, query.order)
        .where((eb) => atOrAbove(eb, floor))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      skip = Math.max(0, query.offset - Number(n));
    }
    return [...ranked, ...(await this.older(db, accountId, query, floor, outside ? after : undefined, want - ranked.length, skip))];
  }

  /** The number of items a list shows in all; a search's is counted only up to SEARCH_COUNT_CAP. */
  async total(db: Db, accountId: string, filter: ContentFilter, search?: SearchQuery): Promise<Counted> {
    if (filter.slug !== undefined || filter.scheduled || filter.fields?.length) {
      // A slug names at most one item per type, and schedules are few: counted where they are. Field
      // conditions are counted exactly in their expression index's range (an index-only count). A
      // search given with them narrows the count as it narrows the page.
      const { n } = await this.filtered(db, accountId, filter, search).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return { total: Number(n), exact: true };
    }
    if (search?.count && filter.type === undefined && filter.status === undefined) return capped(await search.count(db, SEARCH_COUNT_CAP + 1));
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
   * An order led by a date an item may lack reads the dated items (an index range, in either
   * direction; for publish_at, the few items with a schedule), then the undated ones ordered by the
   * remaining keys: each part is an index walk, where one ORDER BY putting NULLs last would sort
   * every item of the account.
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
      const lead = sortColumn(query.order[0]!.field);
      const { n } = await scheduledWithin(db, accountId, lead, this.filtered(db, accountId, query.filter, query.search, query.order).where(this.leadExpression(query.order[0]!), 'is not', null))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      skip = Math.max(0, query.offset - Number(n));
    }
    const undated = await this.select(db, accountId, query, rest, undefined, want - dated.length, skip, 'undated').execute();
    return [...dated, ...undated];
  }

  /** The account's items that pass the filters and match the search (whose condition names the account itself). */
  private filtered(db: Db, accountId: string, filter: ContentFilter, search?: SearchQuery, order: SortKey[] = []) {
    const from = this.from(db, filter, order);
    return this.narrow(db, accountId, search ? from.where(search.matches) : from.where('account_id', '=', accountId), filter);
  }

  /** `query` (over content, or content_keys named content) narrowed by the list's filters. */
  private narrow<Q extends ReturnType<Db['selectFrom']>>(db: Db, accountId: string, from: Q, filter: ContentFilter) {
    let query = from as unknown as ReturnType<typeof db.selectFrom<'content'>>;
    if (filter.type !== undefined) query = query.where('type', '=', filter.type);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    // With typed fields the type is a literal: the expression indexes are partial on it (WHERE type = 'manual').
    if (filter.fields?.length && filter.type !== undefined) query = query.where(sql.ref('content.type'), '=', sql.lit(filter.type)).where(fieldConditions(this.dialect, filter.fields));
    return publishingFilter(db, accountId, query, filter);
  }

  /**
   * Where a list reads its items' keys: content, except on SQLite when typed fields are filtered or
   * sorted on, where it reads content_keys — the narrow copy the field indexes are on
   * (dialect/sqlite-content-keys.ts) — under the name `content`: it has every column these
   * statements name, and content's rowid as its own.
   */
  private from(db: Db, filter: ContentFilter, order: SortKey[]) {
    const content = db.selectFrom('content');
    if (this.dialect !== 'sqlite' || !(filter.fields?.length || order.some((key) => isModelField(key.field)))) return content;
    return db.selectFrom('content_keys as content') as unknown as typeof content;
  }

  /** The leading key of an order whose items may lack it, as SQL over content. */
  private leadExpression(key: SortKey) {
    return isModelField(key.field) ? fieldExpression(this.dialect, key.field.slice('fields.'.length)) : sql.ref(`content.${SORT_COLUMN[key.field]}`);
  }

  private select(db: Db, accountId: string, query: ListQuery, order: SortKey[], after: Position | undefined, limit: number, offset: number, segment?: Segment, floor?: Floor | null) {
    let matched = this.filtered(db, accountId, query.filter, query.search, query.order).select(keyColumns(query.order));
    if (floor) matched = matched.where((eb) => atOrAbove(eb, floor));
    for (const key of query.order) {
      if (isModelField(key.field)) matched = matched.select(fieldExpression(this.dialect, key.field.slice('fields.'.length)).as(sortColumn(key.field))) as typeof matched;
    }
    if (segment) {
      const lead = sortColumn(query.order[0]!.field);
      matched = matched.where(this.leadExpression(query.order[0]!), segment === 'dated' ? 'is not' : 'is', null);
      if (segment === 'dated') matched = scheduledWithin(db, accountId, lead, matched);
    }
    let rows: SelectQueryBuilder<Database, 'content', Row>;
    let table = 'content';
    if (query.search && byRelevance(query)) {
      // The tier is worked out once per matching item of the window (a materialized CTE), then
      // ordered and compared like a column.
      const tiered = matched.select(query.search.inTitle.as('relevance'));
      rows = db
        .with((cte) => cte('matched').materialized(), () => tiered)
        .selectFrom('matched')
        .selectAll() as unknown as typeof rows;
      table = 'matched';
    } else {
      rows = matched as typeof rows;
    }
    const keys = order.map((key, i) => this.resolve(key, table, segment, i === 0 && order === query.order));
    const id = sql.ref(`${table}.id`);
    if (segment === 'undated' && order.length === 0 && isModelField(query.order[0]!.field) && this.dialect === 'postgres') {
      // Items lacking a typed field, by id alone: ordering by the field (NULL in every row here)
      // first changes nothing, but matches its index (account, field, id), so PostgreSQL walks
      // that index's NULLs by id. Otherwise, knowing from the field's statistics that most items
      // lack it, it walks every id of the table hoping to meet the account's soon — which for an
      // account with no such item reads them all. (SQLite takes the index for `IS NULL` as an
      // equality and reads ids in order from it already; the extra key would make it sort.)
      rows = rows.orderBy(this.resolve(query.order[0]!, table, segment, false).expr, 'desc');
    }
    if (after) rows = rows.where((eb) => keysetAfter(eb, keys, id, after));
    for (const [expr, direction] of orderItems(keys, id)) rows = rows.orderBy(expr, direction);
    rows = rows.limit(limit);
    return offset > 0 ? rows.offset(offset) : rows;
  }

  /** A sort key as a column of `table` (a model field: its expression); in the dated segment the leading key has a value, elsewhere it may be NULL. */
  private resolve(key: SortKey, table: string, segment: Segment, leading: boolean): ResolvedKey {
    const nullable = isNullable(key.field) && !(segment === 'dated' && leading);
    if (isModelField(key.field)) {
      const value = (v: unknown) => fieldValue(this.dialect, v as string | number | boolean);
      return { expr: fieldExpression(this.dialect, key.field.slice('fields.'.length), table), desc: key.desc, nullable, value };
    }
    return { expr: sql.ref(`${table}.${SORT_COLUMN[key.field]}`), desc: key.desc, nullable };
  }
}

/** The columns of content a position in `order` is made of (a typed field's is selected as its expression; relevance is worked out). */
function keyColumns(order: SortKey[]) {
  const columns = new Set<string>(['id', 'created_at']);
  for (const key of order) if (!isModelField(key.field) && key.field !== 'relevance') columns.add(SORT_COLUMN[key.field]);
  return [...columns].map((column) => `content.${column}` as const) as `content.${'id' | 'created_at' | 'updated_at' | 'published_at' | 'publish_at' | 'title_sort'}`[];
}

/** For a descending sort: negative when `a` comes first (the greater), as SQL compares text byte by byte (ids and timestamps are ASCII). */
const descending = (a: string, b: string) => (a > b ? -1 : a < b ? 1 : 0);

/** A window's order, as the cursor's pages continue it in SQL: tier, then newest first, then id. */
const inWindowOrder = (a: { relevance: number; created_at: string; id: string }, b: { relevance: number; created_at: string; id: string }) =>
  b.relevance - a.relevance || descending(a.created_at, b.created_at) || descending(a.id, b.id);

/** The first page of a search by relevance: no cursor (and so no floor) yet. */
const firstByRelevance = (query: ListQuery): boolean => query.search !== undefined && byRelevance(query) && query.floor === undefined && query.after === undefined;

const byRelevance = (query: ListQuery) => query.order.some((key) => key.field === 'relevance');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- over content
type Eb = ExpressionBuilder<any, any>;

/** The item is the floor or newer (created_at, then id, as the window's order; on SQLite by creation order, rowid). */
function atOrAbove(eb: Eb, floor: Floor): Expression<SqlBool> {
  if (floor.item !== undefined) return eb(sql.ref('content.rowid'), '>=', floor.item);
  const created = sql.ref('content.created_at');
  return eb.or([eb(created, '>', floor.created_at), eb.and([eb(created, '=', floor.created_at), eb(sql.ref('content.id'), '>=', floor.id)])]);
}

function positionOf(row: Row, order: SortKey[]): Position {
  return {
    values: order.map((key) => (key.field === 'relevance' ? Number(row.relevance) : (row[sortColumn(key.field)] ?? null))),
    id: row.id,
  };
}
