// Idempotency keys (CONTRACT.md §17): one row per account and key, kept 24 hours, shared by every
// instance. The row is claimed (inserted, or taken over once its holder's lease has lapsed) before
// the request runs, marked applied in the transaction of the change the request makes, and holds
// the response once there is one. Responses are stored without their one-time secrets.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

export function idempotencyKeys(dialect: Dialect): Migration {
  const key = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('key', key, (c) => c.notNull())
        // SHA-256 of the method, path, user and body: a repeat must match it.
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        // running (claimed), applied (its change committed), done (the response is here).
        .addColumn('state', 'text', (c) => c.notNull())
        // The attempt holding the key, and until when (a crashed holder's lease lapses).
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('locked_until', key, (c) => c.notNull())
        .addColumn('response_status', 'integer')
        // JSON: the headers replayed with the response (Location, ETag).
        .addColumn('response_headers', 'text')
        // JSON: the body without meta and without one-time secrets.
        .addColumn('response_body', 'text')
        .addColumn('created_at', key, (c) => c.notNull())
        .addColumn('expires_at', key, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_expires').on('idempotency_keys').column('expires_at').execute();
    },
  };
}
