// Publishing (CONTRACT.md §19): slugs, schedules, delivery keys. Every statement here is instant at
// any size — columns added without a default to rewrite, new tables, indexes on empty tables — so
// the migration never holds the store for long. What existing items need (a slug each) is done
// afterwards by a background task in batches (domain/publishing/slug-backfill.ts), whose row this
// migration writes; until then an item without a slug reads as `slug: null` and gets one on its
// next write. Nothing indexes the content table itself: a slug is found through content_slugs, and
// a schedule (the `scheduled` filter, the items dated by `publish_at`) through content_schedules.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

export function publishing(dialect: Dialect): Migration {
  const key = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      // The current slug (null until the backfill or the next write gives it one) and the schedule.
      await db.schema.alterTable('content').addColumn('slug', key).execute();
      await db.schema.alterTable('content').addColumn('publish_at', key).execute();
      await db.schema.alterTable('content').addColumn('unpublish_at', key).execute();
      // How long public caches may keep a delivery key's answers; null: 60 seconds.
      await db.schema.alterTable('accounts').addColumn('delivery_cache_seconds', 'integer').execute();
      // A constant default: both stores add it without rewriting the table.
      await db.schema.alterTable('api_keys').addColumn('kind', 'text', (c) => c.notNull().defaultTo('management')).execute();

      // Every slug an item holds, its current one and its aliases: the primary key reserves each per
      // account and type, and finds an item by slug with or without its type.
      await db.schema
        .createTable('content_slugs')
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('slug', key, (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('content_id', key, (c) => c.notNull().references('content.id').onDelete('cascade'))
        // A slug made from a title: the title's slug and the suffix number (1 for none), so the next
        // clash takes max + 1 in one index seek. A slug given by a client is its own base, number 1.
        .addColumn('base', key, (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addColumn('created_at', key, (c) => c.notNull())
        .addPrimaryKeyConstraint('content_slugs_pk', ['account_id', 'slug', 'type'])
        .execute();
      await db.schema.createIndex('content_slugs_base').on('content_slugs').columns(['account_id', 'type', 'base', 'n']).execute();
      await db.schema.createIndex('content_slugs_item').on('content_slugs').column('content_id').execute();

      // One row per pending (or failed) transition: claimed under a lease by the outbox worker.
      await db.schema
        .createTable('content_schedules')
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('content_id', key, (c) => c.notNull().references('content.id').onDelete('cascade'))
        // publish or unpublish.
        .addColumn('action', 'text', (c) => c.notNull())
        // The item's publish_at or unpublish_at when the row was written.
        .addColumn('due_at', key, (c) => c.notNull())
        // The person who set the time: the transition acts as them.
        .addColumn('scheduled_by', key, (c) => c.notNull())
        // pending, or failed (the person was told; the item stays as it was).
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('next_attempt_at', key, (c) => c.notNull())
        .addColumn('lease', 'text')
        .addColumn('locked_until', key)
        .addColumn('created_at', key, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('content_schedules_pending_due')
        .on('content_schedules')
        .columns(['next_attempt_at', 'id'])
        .where(sql.ref('status'), '=', sql.lit('pending'))
        .execute();
      await db.schema.createIndex('content_schedules_account').on('content_schedules').columns(['account_id', 'action', 'status', 'content_id']).execute();
      await db.schema.createIndex('content_schedules_item').on('content_schedules').column('content_id').execute();

      // Work the service does once, in batches, after a migration (the slug backfill), claimed under a lease.
      await db.schema
        .createTable('background_tasks')
        .addColumn('id', key, (c) => c.primaryKey())
        // pending or done.
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('next_attempt_at', key, (c) => c.notNull())
        .addColumn('lease', 'text')
        .addColumn('locked_until', key)
        // Where the task goes on from (a content id for the backfill); null: from the start.
        .addColumn('position', key)
        .addColumn('done', 'integer', (c) => c.notNull())
        .addColumn('updated_at', key, (c) => c.notNull())
        .execute();
      const now = new Date().toISOString();
      await sql`INSERT INTO background_tasks (id, status, next_attempt_at, lease, locked_until, position, done, updated_at)
                SELECT 'slug-backfill', CASE WHEN EXISTS (SELECT 1 FROM content) THEN 'pending' ELSE 'done' END, ${now}, NULL, NULL, NULL, 0, ${now}`.execute(db);
    },
  };
}
