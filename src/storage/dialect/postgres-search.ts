// Search on PostgreSQL: a generated tsvector column (English stemming over unaccented text; the
// title with weight A) in a GIN index that also holds the account id (btree_gin), migration 009.
// cms_search_query() turns the words (one array parameter: no text is ever pasted into tsquery
// syntax) into a tsquery once per request; the statements then carry it as a constant, which the
// planner can weigh against the column's statistics and the executor need not recompute per row.
import { sql, type SqlBool } from 'kysely';
import type { ContentSearch } from '../content-search.js';

export const postgresSearch: ContentSearch = {
  async prepare(db, accountId, words) {
    const { rows } = await sql<{ query: string }>`SELECT cms_search_query(${[...words]}::text[])::text AS query`.execute(db);
    const query = rows[0]!.query;
    return {
      // The index holds both: one lookup finds the account's matching items.
      matches: sql<SqlBool>`content.account_id = ${accountId} AND content.search @@ ${query}::tsquery`,
      inTitle: sql<number>`(ts_filter(content.search, '{a}') @@ ${query}::tsquery)::int`,
      tierColumn: 'search',
    };
  },
};
