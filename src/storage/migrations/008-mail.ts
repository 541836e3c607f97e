// E-mail (CONTRACT.md §16): the outbox the mail worker sends from (rows written in the transaction
// of what caused them, claimed under a lease like webhook attempts), one-time password links
// (only a hash of the token is stored), markers that make notices once-only (or once per period)
// across instances and restarts, and per-key counts of calls to deprecated routes.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

export function mail(dialect: Dialect): Migration {
  const key = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('mail_outbox')
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        // invitation, password_reset, deprecation_notice, deprecation_reminder, quota_alert, webhook_disabled, key_expiring.
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        // The recipient's domain: the worker's partition (at most a few messages in flight per domain).
        .addColumn('domain', key, (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        // Rendered when queued, so every attempt sends the same message; erased once it is sent or given up.
        .addColumn('text_body', 'text')
        .addColumn('html_body', 'text')
        // The Message-ID header, the same on every attempt, so receivers can drop duplicates.
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('created_at', key, (c) => c.notNull())
        .addColumn('next_attempt_at', key)
        .addColumn('sent_at', key)
        .addColumn('lease', 'text')
        .addColumn('locked_until', key)
        .execute();
      // The worker's question: which messages are due.
      await db.schema
        .createIndex('mail_outbox_pending_due')
        .on('mail_outbox')
        .columns(['next_attempt_at', 'id'])
        .where(sql.ref('status'), '=', sql.lit('pending'))
        .execute();
      await db.schema.createIndex('mail_outbox_created').on('mail_outbox').column('created_at').execute();

      await db.schema
        .createTable('password_links')
        // SHA-256 of the token in the link; the token itself is only in the e-mail.
        .addColumn('token_hash', key, (c) => c.primaryKey())
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('user_id', key, (c) => c.notNull().references('users.id').onDelete('cascade'))
        // invitation or reset.
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('created_at', key, (c) => c.notNull())
        .addColumn('expires_at', key, (c) => c.notNull())
        .addColumn('used_at', key)
        .execute();
      await db.schema.createIndex('password_links_user').on('password_links').columns(['account_id', 'user_id']).execute();
      await db.schema.createIndex('password_links_expires').on('password_links').column('expires_at').execute();

      await db.schema
        .createTable('mail_markers')
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        // What was notified, e.g. `key_expiring:<key id>` or `deprecation:GET /v1/content/:id`.
        .addColumn('marker', key, (c) => c.notNull())
        .addColumn('sent_at', key, (c) => c.notNull())
        .addPrimaryKeyConstraint('mail_markers_pk', ['account_id', 'marker'])
        .execute();
      await db.schema.createIndex('mail_markers_sent').on('mail_markers').column('sent_at').execute();
      // "Your key expires in 7 days": live keys by expiry.
      await db.schema.createIndex('api_keys_expiring').on('api_keys').column('expires_at').where(sql.ref('revoked_at'), 'is', null).execute();

      await db.schema
        .createTable('deprecated_calls')
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        // Start of the billing cycle, as usage_counts.
        .addColumn('period_start', key, (c) => c.notNull())
        .addColumn('method', key, (c) => c.notNull())
        // The route as registered (`/v1/content/:id`).
        .addColumn('path', key, (c) => c.notNull())
        // An API key id or `dashboard:<user id>`; no foreign key, as usage_counts.
        .addColumn('key_id', key, (c) => c.notNull())
        .addColumn('calls', 'bigint', (c) => c.notNull())
        .addColumn('last_called_at', key, (c) => c.notNull())
        .addPrimaryKeyConstraint('deprecated_calls_pk', ['account_id', 'period_start', 'method', 'path', 'key_id'])
        .execute();
      // Reminders before a sunset: which accounts called a route lately.
      await db.schema.createIndex('deprecated_calls_route').on('deprecated_calls').columns(['method', 'path', 'last_called_at']).execute();
    },
  };
}
