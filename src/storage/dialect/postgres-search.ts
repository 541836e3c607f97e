// Search on PostgreSQL: a generated tsvector column (English stemming over unaccented text; the
// title with weight A) in a GIN index that also holds the account id (btree_gin), migration 009.
// The query is built by cms_search_query() from the words as one array parameter, once per
// statement (an uncorrelated subquery), never by pasting text into tsquery syntax.
import { sql, type SqlBool } from 'kysely';
import type { ContentSearch } from '../content-search.js';

export const postgresSearch: ContentSearch = {
  // The account id is in the caller's WHERE, which the index serves together with this.
  matches: (_accountId, words) => sql<SqlBool>`content.search @@ (SELECT cms_search_query(${[...words]}::text[]))`,
  inTitle: (_accountId, words) => sql<number>`(ts_filter(content.search, '{a}') @@ (SELECT cms_search_query(${[...words]}::text[])))::int`,
};
