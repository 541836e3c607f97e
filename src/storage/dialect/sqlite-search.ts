// Search on SQLite: an FTS5 table over content (porter stemming, unicode61 with diacritics removed),
// kept in step by triggers (migration 009). A query is an FTS5 expression in which every word is
// a quoted string, so nothing a client types is read as FTS5 syntax; the account id is a column of
// the index, so the match reads only the account's entries.
import { sql, type SqlBool } from 'kysely';
import type { ContentSearch, SearchWords } from '../content-search.js';

/** `account_id : "<id>" AND <columns> : ("w1" AND "w2"*)`. */
function expression(accountId: string, columns: string, words: SearchWords): string {
  const quoted = words.map((word) => `"${word.replace(/"/g, '""')}"`);
  quoted[quoted.length - 1] += '*';
  // The ULID after the prefix is one token; the prefix is in every row and would only add work.
  const account = accountId.slice(accountId.indexOf('_') + 1);
  return `account_id : "${account.replace(/"/g, '""')}" AND ${columns} : (${quoted.join(' AND ')})`;
}

const rowsMatching = (match: string) => sql`content.rowid IN (SELECT rowid FROM content_fts WHERE content_fts MATCH ${match})`;

export const sqliteSearch: ContentSearch = {
  prepare: async (_db, accountId, words) => ({
    index: { table: 'content_fts', all: expression(accountId, '{title content}', words), title: expression(accountId, 'title', words) },
    // The index alone: it holds one entry per item (the triggers keep it so in every write's
    // transaction) and the account's id, so no item's row is read to count.
    count: async (db, cap) => {
      const match = expression(accountId, '{title content}', words);
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT rowid FROM content_fts WHERE content_fts MATCH ${match} LIMIT ${cap})`.execute(db);
      return Number(rows[0]!.n);
    },
    // "+account_id" keeps the account's indexes out of the plan: without statistics SQLite would
    // rather walk every item of the account and test each against the matches than fetch the
    // matches by rowid; the account is still checked on every row.
    matches: sql<SqlBool>`+content.account_id = ${accountId} AND ${rowsMatching(expression(accountId, '{title content}', words))}`,
    inTitle: sql<number>`(${rowsMatching(expression(accountId, 'title', words))})`,
  }),
};
