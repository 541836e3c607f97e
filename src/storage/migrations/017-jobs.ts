// Bulk jobs (CONTRACT.md §21, docs/bulk.md): one row per job, claimed under a lease by the outbox
// worker like any outbox row (`status` pending/done is the lease's; `state` is what clients see),
// its progress and position written in the same transaction as each chunk of changes.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

export function jobs(dialect: Dialect): Migration {
  const key = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('content_jobs')
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('account_id', key, (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        // The filter as given (JSON), and the scopes of the credential that asked (JSON list).
        .addColumn('filter', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        // queued, running, succeeded, failed or cancelled.
        .addColumn('state', 'text', (c) => c.notNull())
        // The lease's: pending while work is left, done after.
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('next_attempt_at', key, (c) => c.notNull())
        .addColumn('lease', 'text')
        .addColumn('locked_until', key)
        // Where the walk goes on from (JSON keyset position of the last item handled).
        .addColumn('position', 'text', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('done', 'integer', (c) => c.notNull())
        .addColumn('failed', 'integer', (c) => c.notNull())
        .addColumn('errors', 'text', (c) => c.notNull())
        .addColumn('created_by', key, (c) => c.notNull())
        .addColumn('created_at', key, (c) => c.notNull())
        .addColumn('started_at', key)
        .addColumn('finished_at', key)
        .execute();
      await db.schema.createIndex('content_jobs_account').on('content_jobs').columns(['account_id', 'created_at', 'id']).execute();
      await db.schema
        .createIndex('content_jobs_pending_due')
        .on('content_jobs')
        .columns(['next_attempt_at', 'id'])
        .where(sql.ref('status'), '=', sql.lit('pending'))
        .execute();
    },
  };
}
