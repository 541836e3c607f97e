// Media (CONTRACT.md §18, docs/media.md): one row per media record of an account, the references
// from content items, the variants made so far (a row claimed before a variant is made, so it is
// made once across instances), and the bytes of storage each account uses (kept in the same
// transaction as every record written or deleted, so a deletion frees its bytes at once).
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

export function media(dialect: Dialect): Migration {
  const key = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('media')
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('filename', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        // image, document or other: the `type` filter.
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        // The bytes' name in the store: content-addressed.
        .addColumn('sha256', key, (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('alt', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('public', 'integer', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('created_by', key, (c) => c.notNull())
        .addColumn('created_at', key, (c) => c.notNull())
        .addColumn('updated_at', key, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('media_account_created').on('media').columns(['account_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('media_account_kind').on('media').columns(['account_id', 'kind', 'created_at', 'id']).execute();
      // The sweep asks whether any record still names some bytes.
      await db.schema.createIndex('media_sha256').on('media').column('sha256').execute();

      // Which items reference which media (Markdown `media:` links), written in the item's write.
      await db.schema
        .createTable('media_refs')
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('media_id', key, (c) => c.notNull())
        .addColumn('content_id', key, (c) => c.notNull().references('content.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('media_refs_pk', ['account_id', 'media_id', 'content_id'])
        .execute();
      await db.schema.createIndex('media_refs_content').on('media_refs').columns(['account_id', 'content_id']).execute();

      // A variant of some bytes (sha256 + its parameters): claimed by the first instance that needs it.
      await db.schema
        .createTable('media_variants')
        .addColumn('sha256', key, (c) => c.notNull())
        .addColumn('variant', key, (c) => c.notNull())
        // making or done; a claim older than a minute is taken over.
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('claimed_at', key, (c) => c.notNull())
        .addPrimaryKeyConstraint('media_variants_pk', ['sha256', 'variant'])
        .execute();

      // Storage per account: bytes used (exact), and the account's own quota (null: its plan's).
      await db.schema
        .createTable('media_storage')
        .addColumn('account_id', key, (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('used_bytes', 'bigint', (c) => c.notNull())
        .addColumn('quota_bytes', 'bigint')
        .execute();
    },
  };
}
