// Full-text search and sorting of content (CONTRACT.md §17). The search index is kept in step with
// every insert, change and delete in the same transaction: by triggers feeding an FTS5 table on
// SQLite, by a generated tsvector column on PostgreSQL. Each sort field gets the index its keyset
// pages seek in; titles sort by a folded key (lower case, no diacritics) that both stores compare
// byte by byte, so they order alike.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';
import { titleSortKey } from '../content-sort.js';

// The account id is indexed too, so that a match never leaves the account's items.
const sqliteStatements = [
  `CREATE VIRTUAL TABLE content_fts USING fts5(account_id, title, content, content='content', content_rowid='rowid',
     tokenize='porter unicode61 remove_diacritics 2')`,
  `CREATE TRIGGER content_fts_insert AFTER INSERT ON content BEGIN
     INSERT INTO content_fts (rowid, account_id, title, content) VALUES (NEW.rowid, NEW.account_id, NEW.title, NEW.content);
   END`,
  `CREATE TRIGGER content_fts_delete AFTER DELETE ON content BEGIN
     INSERT INTO content_fts (content_fts, rowid, account_id, title, content) VALUES ('delete', OLD.rowid, OLD.account_id, OLD.title, OLD.content);
   END`,
  `CREATE TRIGGER content_fts_update AFTER UPDATE OF title, content ON content
     WHEN OLD.title IS NOT NEW.title OR OLD.content IS NOT NEW.content BEGIN
     INSERT INTO content_fts (content_fts, rowid, account_id, title, content) VALUES ('delete', OLD.rowid, OLD.account_id, OLD.title, OLD.content);
     INSERT INTO content_fts (rowid, account_id, title, content) VALUES (NEW.rowid, NEW.account_id, NEW.title, NEW.content);
   END`,
  `INSERT INTO content_fts (content_fts) VALUES ('rebuild')`,
];

/**
 * PostgreSQL: `unaccent` is only STABLE, so an index expression needs an IMMUTABLE wrapper with the
 * dictionary named in full; the schema the extensions live in is looked up, not assumed.
 * The title keeps its positions with weight A (the relevance tier asks "does the title alone
 * match?"); the body is stripped of positions, which keeps the vector small. A body with more
 * distinct words than a tsvector can hold (1 MB) is indexed by its first 100,000 characters.
 */
function postgresStatements(schema: string): string[] {
  const s = `"${schema.replace(/"/g, '""')}"`;
  return [
    `CREATE FUNCTION ${s}.cms_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
       AS $$ SELECT ${s}.unaccent('${s.replace(/'/g, "''")}.unaccent'::regdictionary, $1) $$`,
    `CREATE FUNCTION ${s}.cms_search_vector(title text, body text) RETURNS tsvector LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
     BEGIN
       RETURN setweight(to_tsvector('pg_catalog.english', ${s}.cms_unaccent(title)), 'A')
           || strip(to_tsvector('pg_catalog.english', ${s}.cms_unaccent(body)));
     EXCEPTION WHEN program_limit_exceeded THEN
       RETURN setweight(to_tsvector('pg_catalog.english', ${s}.cms_unaccent(title)), 'A')
           || strip(to_tsvector('pg_catalog.english', ${s}.cms_unaccent(left(body, 100000))));
     END $$`,
    // Every word stemmed (common English words ignored), the last one also as a prefix.
    // It runs once per search (a notice about a stop word would only be noise for the client).
    `CREATE FUNCTION ${s}.cms_search_query(words text[]) RETURNS tsquery LANGUAGE plpgsql STABLE PARALLEL SAFE
       SET client_min_messages = warning AS $$
     DECLARE
       n int := coalesce(array_length(words, 1), 0);
       result tsquery := '';
       last text;
       prefix tsquery;
     BEGIN
       IF n = 0 THEN RETURN result; END IF;
       FOR i IN 1 .. n - 1 LOOP
         result := result && plainto_tsquery('pg_catalog.english', ${s}.cms_unaccent(words[i]));
       END LOOP;
       last := ${s}.cms_unaccent(words[n]);
       prefix := plainto_tsquery('pg_catalog.simple', last);
       IF numnode(prefix) > 0 THEN prefix := (prefix::text || ':*')::tsquery; END IF;
       RETURN result && (plainto_tsquery('pg_catalog.english', last) || prefix);
     END $$`,
    `ALTER TABLE content ADD COLUMN search tsvector GENERATED ALWAYS AS (${s}.cms_search_vector(title, content)) STORED`,
    // btree_gin puts the account id in the same index, so a search reads only the account's entries.
    `CREATE INDEX content_search ON content USING gin (account_id, search)`,
  ];
}

export function contentSearch(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`ALTER TABLE content ADD COLUMN title_sort text ${dialect === 'postgres' ? sql`collate "C"` : sql``} NOT NULL DEFAULT ''`.execute(db);
      await backfillTitleSort(db);
      await db.schema.createIndex('content_account_updated').on('content').columns(['account_id', 'updated_at', 'id']).execute();
      await db.schema.createIndex('content_account_published').on('content').columns(['account_id', 'published_at', 'id']).execute();
      await db.schema.createIndex('content_account_title').on('content').columns(['account_id', 'title_sort', 'id']).execute();
      if (dialect === 'sqlite') {
        for (const statement of sqliteStatements) await sql.raw(statement).execute(db);
        return;
      }
      for (const extension of ['unaccent', 'btree_gin']) {
        await sql.raw(`CREATE EXTENSION IF NOT EXISTS ${extension}`).execute(db).catch((error: unknown) => {
          throw new Error(`PostgreSQL extension ${extension} is needed for search; run "CREATE EXTENSION ${extension}" as a user allowed to (see docs/content.md): ${String(error)}`);
        });
      }
      const { rows } = await sql<{ schema: string }>`
        SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent'`.execute(db);
      for (const statement of postgresStatements(rows[0]!.schema)) await sql.raw(statement).execute(db);
    },
  };
}

/** Items written before this migration get their title sort key, a batch at a time. */
async function backfillTitleSort(db: Kysely<unknown>): Promise<void> {
  const typed = db as unknown as Kysely<{ content: { id: string; title: string; title_sort: string } }>;
  for (let after = ''; ; ) {
    const rows = await typed.selectFrom('content').select(['id', 'title']).where('id', '>', after).orderBy('id').limit(1000).execute();
    for (const row of rows) await typed.updateTable('content').set({ title_sort: titleSortKey(row.title) }).where('id', '=', row.id).execute();
    if (rows.length < 1000) return;
    after = rows[rows.length - 1]!.id;
  }
}
