// Text fields in search (issue 25, CONTRACT.md §20/§17): `content.fields_text` holds the values of
// the item's `text`-kind fields, written by the content model (fields-step.ts), and the search
// index reads it as part of the body. Instant at any size: no table rewrite, no index rebuild.
// SQLite: the FTS5 triggers index `content || newline || fields_text` as the `content` column (an
// empty fields_text adds no token, so the rows indexed before stay consistent). PostgreSQL: the
// generated `search` column becomes a plain column kept by triggers (DROP EXPRESSION keeps the
// values and rewrites nothing), as a generated column's expression cannot change in place.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

const body = (row: 'NEW' | 'OLD') => `${row}.content || char(10) || ${row}.fields_text`;

const sqliteStatements = [
  `DROP TRIGGER content_fts_insert`,
  `DROP TRIGGER content_fts_delete`,
  `DROP TRIGGER content_fts_update`,
  `CREATE TRIGGER content_fts_insert AFTER INSERT ON content BEGIN
     INSERT INTO content_fts (rowid, account_id, title, content) VALUES (NEW.rowid, NEW.account_id, NEW.title, ${body('NEW')});
   END`,
  `CREATE TRIGGER content_fts_delete AFTER DELETE ON content BEGIN
     INSERT INTO content_fts (content_fts, rowid, account_id, title, content) VALUES ('delete', OLD.rowid, OLD.account_id, OLD.title, ${body('OLD')});
   END`,
  `CREATE TRIGGER content_fts_update AFTER UPDATE OF title, content, fields_text ON content
     WHEN OLD.title IS NOT NEW.title OR OLD.content IS NOT NEW.content OR OLD.fields_text IS NOT NEW.fields_text BEGIN
     INSERT INTO content_fts (content_fts, rowid, account_id, title, content) VALUES ('delete', OLD.rowid, OLD.account_id, OLD.title, ${body('OLD')});
     INSERT INTO content_fts (rowid, account_id, title, content) VALUES (NEW.rowid, NEW.account_id, NEW.title, ${body('NEW')});
   END`,
];

/** The functions of migration 009 live in the schema of the unaccent extension. */
function postgresStatements(schema: string): string[] {
  const s = `"${schema.replace(/"/g, '""')}"`;
  return [
    `ALTER TABLE content ALTER COLUMN search DROP EXPRESSION`,
    `CREATE FUNCTION ${s}.cms_content_search() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       NEW.search := ${s}.cms_search_vector(NEW.title, CASE WHEN NEW.fields_text = '' THEN NEW.content ELSE NEW.content || E'\\n' || NEW.fields_text END);
       RETURN NEW;
     END $$`,
    `CREATE TRIGGER content_search_insert BEFORE INSERT ON content FOR EACH ROW EXECUTE FUNCTION ${s}.cms_content_search()`,
    `CREATE TRIGGER content_search_update BEFORE UPDATE OF title, content, fields_text ON content FOR EACH ROW
       WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.content IS DISTINCT FROM NEW.content OR OLD.fields_text IS DISTINCT FROM NEW.fields_text)
       EXECUTE FUNCTION ${s}.cms_content_search()`,
  ];
}

export function fieldsSearch(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('content').addColumn('fields_text', 'text', (c) => c.notNull().defaultTo('')).execute();
      if (dialect === 'sqlite') {
        for (const statement of sqliteStatements) await sql.raw(statement).execute(db);
        return;
      }
      const { rows } = await sql<{ schema: string }>`
        SELECT n.nspname AS schema FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE p.proname = 'cms_search_vector'`.execute(db);
      for (const statement of postgresStatements(rows[0]!.schema)) await sql.raw(statement).execute(db);
    },
  };
}
