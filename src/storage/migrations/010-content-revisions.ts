// Revisions of content items (CONTRACT.md §17): one row per version, written in the transaction of
// the change that made it, the oldest pruned beyond REVISIONS_KEEP; they go when their item goes.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

export function contentRevisions(dialect: Dialect): Migration {
  const key = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('content_revisions')
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('content_id', key, (c) => c.notNull().references('content.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        // The user who made this version; null for versions made before revisions were kept (except the first, made by the author).
        .addColumn('changed_by', 'text')
        .addColumn('created_at', key, (c) => c.notNull())
        // Also the list's order (newest first: read backwards) and the path of the cascade.
        .addPrimaryKeyConstraint('content_revisions_pk', ['content_id', 'version'])
        .execute();
      // Items written before this migration start with their current version.
      await sql`INSERT INTO content_revisions (account_id, content_id, version, title, type, content, status, changed_by, created_at)
                SELECT account_id, id, version, title, type, content, status, CASE WHEN version = 1 THEN author END, updated_at FROM content`.execute(db);
    },
  };
}
