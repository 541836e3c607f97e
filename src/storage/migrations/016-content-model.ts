// Content model (CONTRACT.md §20): typed fields per account and content type. Instant at any size:
// new tables, and columns added with a constant default (neither store rewrites the table for that).
// Items' `fields` is jsonb on PostgreSQL (its expression indexes read it without parsing text) and
// JSON text on SQLite (json_extract reads it). The expression indexes of `indexed` fields are not
// made here: they come and go as models change (storage/content-field-indexes.ts).
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

export function contentModel(dialect: Dialect): Migration {
  const key = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  const json = dialect === 'postgres' ? sql`jsonb` : sql`text`;
  const empty = dialect === 'postgres' ? sql`'{}'::jsonb` : sql`'{}'`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('content').addColumn('fields', json, (c) => c.notNull().defaultTo(empty)).execute();
      // Revisions keep the fields of their version, removed ones included.
      await db.schema.alterTable('content_revisions').addColumn('fields', json, (c) => c.notNull().defaultTo(empty)).execute();
      // One row per account and type once its model is first written; none: the empty model, version 0.
      await db.schema
        .createTable('content_types')
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        // The field definitions, a JSON array in their order.
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('updated_at', key, (c) => c.notNull())
        .addPrimaryKeyConstraint('content_types_pk', ['account_id', 'type'])
        .execute();
    },
  };
}
