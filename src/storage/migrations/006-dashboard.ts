// The dashboard's tables: sign-in sessions (only a hash of the cookie's token is stored, so a copy
// of the database signs nobody in; rows live in the store so every instance honours them and they
// survive restarts) and requests per day, added to by the same batched usage write as usage_counts.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

export function dashboard(dialect: Dialect): Migration {
  const key = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sessions')
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('token_hash', key, (c) => c.notNull().unique())
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        // Deleting a user deletes their sessions: they are signed out at once.
        .addColumn('user_id', key, (c) => c.notNull().references('users.id').onDelete('cascade'))
        // The synchronizer token state-changing requests must echo in X-CSRF-Token.
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('created_at', key, (c) => c.notNull())
        // Renewed at most once a minute by requests; idle expiry counts from it.
        .addColumn('last_seen_at', key, (c) => c.notNull())
        // The absolute end, whatever the activity.
        .addColumn('expires_at', key, (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').columns(['account_id', 'user_id']).execute();
      await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

      await db.schema
        .createTable('usage_days')
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        // The UTC day, YYYY-MM-DD.
        .addColumn('day', key, (c) => c.notNull())
        .addColumn('used', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('usage_days_pk', ['account_id', 'day'])
        .execute();
    },
  };
}
