// Search on PostgreSQL: a generated tsvector column (English stemming over unaccented text; the
// title with weight A) in a GIN index that also holds the account id (btree_gin), migration 009.
// cms_search_query() turns the words (one array parameter: no text is ever pasted into tsquery
// syntax) into a tsquery once per request; the statements then carry it as a constant, which the
// planner can weigh against the column's statistics and the executor need not recompute per row.
import { sql, type SqlBool } from 'kysely';
import type { ContentSearch } from '../content-search.js';

export const postgresSearch: ContentSearch = {
  async prepare(db, _accountId, words) {
    const { rows } = await sql<{ query: string }>`SELECT cms_search_query(${[...words]}::text[])::text AS query`.execute(db);
    const query = rows[0]!.query;
    return {
      // The account id is in the caller's WHERE; the index serves both together.
      matches: sql<SqlBool>`content.search @@ ${query}::tsquery`,
      inTitle: sql<number>`(ts_filter(content.search, '{a}') @@ ${query}::tsquery)::int`,
    };
  },
};
