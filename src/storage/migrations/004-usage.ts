// Usage of the monthly quota (CONTRACT.md §8): counts per account, billing cycle and key, added to
// in batches by each instance (never a write per request); and one marker row per usage alert sent,
// whose primary key makes "once per cycle or window" hold across instances and restarts.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

export function usage(dialect: Dialect): Migration {
  const key = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('usage_counts')
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        // Start of the billing cycle (ISO 8601 UTC); cycles are never renamed, so this is stable.
        .addColumn('period_start', key, (c) => c.notNull())
        // No foreign key: a deleted user's keys go, but what they used this cycle still counts.
        .addColumn('key_id', key, (c) => c.notNull())
        .addColumn('used', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('usage_counts_pk', ['account_id', 'period_start', 'key_id'])
        .execute();

      await db.schema
        .createTable('usage_alerts')
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        // What was announced, e.g. `quota:80:<cycle start>` or `rate_limit:<window end>`.
        .addColumn('marker', key, (c) => c.notNull())
        .addColumn('created_at', key, (c) => c.notNull())
        .addPrimaryKeyConstraint('usage_alerts_pk', ['account_id', 'marker'])
        .execute();
      await db.schema.createIndex('usage_alerts_created').on('usage_alerts').column('created_at').execute();
    },
  };
}
