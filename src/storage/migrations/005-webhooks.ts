// Webhook endpoints and their delivery attempts (CONTRACT.md §10). Pending attempts are found by
// two partial indexes: by due time (which endpoints have work) and per endpoint (claiming its work).
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

export function webhooks(dialect: Dialect): Migration {
  const key = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_expires_at', 'text')
        .addColumn('disabled_reason', 'text')
        .addColumn('disabled_at', 'text')
        .addColumn('failing_since', 'text')
        .addColumn('created_at', key, (c) => c.notNull())
        .addColumn('updated_at', key, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_endpoints_account_created').on('webhook_endpoints').columns(['account_id', 'created_at', 'id']).execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('endpoint_id', key, (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
        // No foreign key: the event log is pruned by age, the delivery history stays.
        .addColumn('event_id', key, (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('duration_ms', 'integer')
        .addColumn('error', 'text')
        .addColumn('created_at', key, (c) => c.notNull())
        .addColumn('attempted_at', 'text')
        .addColumn('next_attempt_at', key)
        .addColumn('lease', 'text')
        .addColumn('locked_until', key)
        .addColumn('payload', 'text')
        .execute();
      // The list: an endpoint's attempts, newest first.
      await db.schema
        .createIndex('webhook_deliveries_endpoint_created')
        .on('webhook_deliveries')
        .columns(['account_id', 'endpoint_id', 'created_at', 'id'])
        .execute();
      // The worker's two questions: which endpoints have attempts due, and which are due for one endpoint.
      await db.schema
        .createIndex('webhook_deliveries_pending_due')
        .on('webhook_deliveries')
        .columns(['next_attempt_at', 'endpoint_id'])
        .where(sql.ref('status'), '=', sql.lit('pending'))
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_pending_endpoint')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'next_attempt_at'])
        .where(sql.ref('status'), '=', sql.lit('pending'))
        .execute();
    },
  };
}
