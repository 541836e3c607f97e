// Accounts, users, API keys, content, and the settings table for one-time facts such as bootstrap.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

export function initial(dialect: Dialect): Migration {
  // Ids and timestamps are compared as text; on PostgreSQL use byte order so that order never
  // depends on the server's locale.
  const key = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('rate_limit', 'integer')
        .addColumn('quota', 'integer')
        .addColumn('created_at', key, (c) => c.notNull())
        .addColumn('updated_at', key, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('created_at', key, (c) => c.notNull())
        .addColumn('updated_at', key, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('users_account_created').on('users').columns(['account_id', 'created_at', 'id']).execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('user_id', key, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', key, (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('api_keys_account_user').on('api_keys').columns(['account_id', 'user_id']).execute();

      await db.schema
        .createTable('content')
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        // The author's user id stays after the user is deleted, so no foreign key.
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('created_at', key, (c) => c.notNull())
        .addColumn('updated_at', key, (c) => c.notNull())
        .addColumn('published_at', 'text')
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
      // One index per filter shape the list offers, each ending in the sort order (created_at, id).
      await db.schema.createIndex('content_account_created').on('content').columns(['account_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('content_account_type_status').on('content').columns(['account_id', 'type', 'status', 'created_at', 'id']).execute();
      await db.schema.createIndex('content_account_status').on('content').columns(['account_id', 'status', 'created_at', 'id']).execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', key, (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
