// Full-text search of content (CONTRACT.md §17): one interface, a file per store
// (dialect/sqlite-search.ts: FTS5; dialect/postgres-search.ts: tsvector + GIN). Both see the same
// words: a query is split here into words of letters and digits, common English words are left
// out except the last (which also matches as a prefix), and each store stems and folds them alike
// (case, accents, English stemming) for the index and the query.
import type { RawBuilder, SqlBool } from 'kysely';
import type { Db } from './db.js';
import type { Dialect } from './schema.js';
import { sqliteSearch } from './dialect/sqlite-search.js';
import { postgresSearch } from './dialect/postgres-search.js';

/** The words of a search, at least one; the last one also matches as a prefix. */
export type SearchWords = readonly [string, ...string[]];

/** A search made ready for one list request's statements (its page and its total). */
export interface SearchQuery {
  /**
   * A condition on `content`: the item belongs to the account and its title or body matches every
   * word. It holds the account condition itself, so that each store can make the search index,
   * not the account's rows, drive the statement.
   */
  matches: RawBuilder<SqlBool>;
  /** The relevance tier of a matching item: 1 when its title alone matches every word, else 0. */
  inTitle: RawBuilder<number>;
  /** The column of content `inTitle` reads, when it can be worked out over a subquery that selects it under its name (PostgreSQL's `search`). */
  tierColumn?: string;
  /**
   * How many of the account's items match, counted up to `cap`, without reading any item (for a
   * search with no other filter), where the store's search index can: SQLite's FTS5. Otherwise the
   * list counts its own statement's matches.
   */
  count?(db: Db, cap: number): Promise<number>;
  /**
   * SQLite: the search index itself, for statements that find the newest matches in it.
   * FTS5 hands its matches out in rowid order, and its rowid is content's, which follows the order
   * items were created in; `all` matches every word (in the account), `title` the title alone.
   */
  index?: SearchIndex;
}

/** An FTS5 table (rowid: content's) and the MATCH expressions of a search: every word, and the title alone; each names the account. */
export interface SearchIndex {
  table: string;
  all: string;
  title: string;
}

export interface ContentSearch {
  prepare(db: Db, accountId: string, words: SearchWords): Promise<SearchQuery>;
}

export function contentSearch(dialect: Dialect): ContentSearch {
  return dialect === 'postgres' ? postgresSearch : sqliteSearch;
}

// PostgreSQL's English stop words (tsearch_data/english.stop): its index holds none of them, so both
// stores leave them out of a query, except as the last word's prefix ("the" finds "theory").
const STOP_WORDS = new Set(
  ('i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its ' +
    'itself they them their theirs themselves what which who whom this that these those am is are was were be been being ' +
    'have has had having do does did doing a an the and but if or because as until while of at by for with about against ' +
    'between into through during before after above below to from up down in out on off over under again further then once ' +
    'here there when where why how all any both each few more most other some such no nor not only own same so than too very ' +
    's t can will just don should now').split(' '),
);

/** The words of `q` to search for, or undefined when it has none (only punctuation, say). */
export function searchWords(q: string): SearchWords | undefined {
  const words = q.normalize('NFC').toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu) ?? [];
  const kept = words.filter((word, i) => i === words.length - 1 || !STOP_WORDS.has(word));
  return kept.length > 0 ? (kept as unknown as SearchWords) : undefined;
}
