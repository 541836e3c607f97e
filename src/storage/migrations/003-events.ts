// The event log (CONTRACT.md §9): one row per change, written in the change's transaction, ordered
// per account by `seq`. `event_sequences` holds each account's last number; its row is also the
// account's write lock on PostgreSQL, so per-account order is commit order.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

export function events(dialect: Dialect): Migration {
  const key = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('event_sequences')
        .addColumn('account_id', key, (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .execute();
      await sql`INSERT INTO event_sequences (account_id, seq) SELECT id, 0 FROM accounts`.execute(db);

      await db.schema
        .createTable('events')
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        // The payload subscribers receive, as JSON text (the same bytes on both stores).
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', key, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('events_account_seq').on('events').columns(['account_id', 'seq']).unique().execute();
      // Retention prunes by age.
      await db.schema.createIndex('events_created').on('events').column('created_at').execute();
    },
  };
}
