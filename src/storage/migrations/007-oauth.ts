// OAuth 2.0 (CONTRACT.md §15): apps (clients), grants (a person's consent to an app: the connected
// apps), the tokens and codes issued from them, and the authorization server's short-lived records
// (interactions). Token values are stored only as SHA-256 hashes; deleting an app, a grant or a user
// deletes what hangs off it (foreign key cascades), so nothing issued from it can be found again.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

export function oauth(dialect: Dialect): Migration {
  const key = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('oauth_apps')
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        // The registering user; their apps go with them, like their API keys.
        .addColumn('user_id', key, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('redirect_uris', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        // SHA-256 of cms_cs_…; null for public apps.
        .addColumn('secret_hash', 'text')
        .addColumn('created_at', key, (c) => c.notNull())
        .addColumn('updated_at', key, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oauth_apps_account_created').on('oauth_apps').columns(['account_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('oauth_apps_user').on('oauth_apps').column('user_id').execute();

      await db.schema
        .createTable('oauth_grants')
        .addColumn('id', key, (c) => c.primaryKey())
        // The approving person's account: where the app's tokens act (not the app's own account).
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('user_id', key, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('app_id', key, (c) => c.notNull().references('oauth_apps.id').onDelete('cascade'))
        .addColumn('scopes', 'text', (c) => c.notNull())
        // The authorization server's own record of the grant (JSON).
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', key, (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('expires_at', key, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oauth_grants_user_app').on('oauth_grants').columns(['account_id', 'user_id', 'app_id']).execute();
      await db.schema.createIndex('oauth_grants_app').on('oauth_grants').column('app_id').execute();

      await db.schema
        .createTable('oauth_tokens')
        // SHA-256 of the token (or code) itself: a copy of the database opens nothing.
        .addColumn('hash', key, (c) => c.primaryKey())
        // AccessToken, ClientCredentials, RefreshToken or AuthorizationCode.
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('app_id', key, (c) => c.notNull().references('oauth_apps.id').onDelete('cascade'))
        // Null for client credentials, which come from no person's grant.
        .addColumn('grant_id', key, (c) => c.references('oauth_grants.id').onDelete('cascade'))
        // Whom the token acts as: the approving person, or the app's registering user.
        .addColumn('user_id', key, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('scope', 'text', (c) => c.notNull())
        // The authorization server's record (JSON), without the token's value.
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', key, (c) => c.notNull())
        .addColumn('expires_at', key, (c) => c.notNull())
        // A used code or rotated refresh token: kept until it expires, so a replay is recognised.
        .addColumn('consumed_at', 'text')
        .execute();
      await db.schema.createIndex('oauth_tokens_grant').on('oauth_tokens').column('grant_id').execute();
      await db.schema.createIndex('oauth_tokens_app').on('oauth_tokens').column('app_id').execute();
      await db.schema.createIndex('oauth_tokens_user').on('oauth_tokens').column('user_id').execute();
      await db.schema.createIndex('oauth_tokens_expires').on('oauth_tokens').column('expires_at').execute();

      await db.schema
        .createTable('oauth_records')
        // Interaction (a sign-in and consent in progress), and whatever else the server keeps briefly.
        .addColumn('kind', key, (c) => c.notNull())
        .addColumn('id', key, (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('expires_at', key, (c) => c.notNull())
        .addPrimaryKeyConstraint('oauth_records_pk', ['kind', 'id'])
        .execute();
      await db.schema.createIndex('oauth_records_expires').on('oauth_records').column('expires_at').execute();
    },
  };
}
