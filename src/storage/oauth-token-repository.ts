// OAuth token and code queries, by the SHA-256 hash of the value: service-wide by nature (the value
// is all a request brings), like API keys. Also the short-lived records of the authorization server.
import type { Insertable, Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { OAuthRecordTable, OAuthTokenTable } from './schema.js';

export type OAuthTokenRow = Selectable<OAuthTokenTable>;

/** What authentication needs about an access token, its person, their account and the app, in one query. */
export interface TokenPrincipalRow {
  kind: string;
  app_id: string;
  grant_id: string | null;
  user_id: string;
  scope: string;
  expires_at: string;
  account_id: string;
  role: string;
  plan: string;
  rate_limit: number | null;
  quota: number | null;
  account_created_at: string;
  /** The app's registering user: deleting them deletes the app and so this token. */
  app_user_id: string;
  /** JSON array: the scopes the app may ask for now (a token never does more). */
  app_scopes: string;
}

export class OAuthTokenRepository {
  async insert(db: Db | Tx, row: Insertable<OAuthTokenTable>): Promise<void> {
    await db.insertInto('oauth_tokens').values(row).execute();
  }

  findByHash(db: Db, hash: string): Promise<OAuthTokenRow | undefined> {
    return db.selectFrom('oauth_tokens').selectAll().where('hash', '=', hash).executeTakeFirst();
  }

  /** Marks a code or refresh token used; false when it already was (a replay, or a request racing this one). */
  async consume(db: Db, hash: string, at: string): Promise<boolean> {
    const result = await db.updateTable('oauth_tokens').set({ consumed_at: at }).where('hash', '=', hash).where('consumed_at', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteByHash(db: Db, hash: string): Promise<void> {
    await db.deleteFrom('oauth_tokens').where('hash', '=', hash).execute();
  }

  async deleteByGrant(db: Db, grantId: string): Promise<void> {
    await db.deleteFrom('oauth_tokens').where('grant_id', '=', grantId).execute();
  }

  /** An access token with its person, account and app; undefined when unknown (never issued, revoked, or gone with its grant, app or person). */
  findPrincipal(db: Db, hash: string): Promise<TokenPrincipalRow | undefined> {
    return db
      .selectFrom('oauth_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .innerJoin('oauth_apps as p', 'p.id', 't.app_id')
      .select(['t.kind', 't.app_id', 't.grant_id', 't.user_id', 't.scope', 't.expires_at', 'u.account_id', 'u.role', 'a.plan'])
      .select(['a.rate_limit', 'a.quota', 'a.created_at as account_created_at', 'p.user_id as app_user_id', 'p.scopes as app_scopes'])
      .where('t.hash', '=', hash)
      .where('t.kind', 'in', ['AccessToken', 'ClientCredentials'])
      .executeTakeFirst();
  }

  /** Service-wide housekeeping: tokens and codes past their end. */
  async prune(db: Db, now: string): Promise<void> {
    await db.deleteFrom('oauth_tokens').where('expires_at', '<=', now).execute();
    await db.deleteFrom('oauth_records').where('expires_at', '<=', now).execute();
  }

  async upsertRecord(db: Db, row: OAuthRecordTable): Promise<void> {
    await db
      .insertInto('oauth_records')
      .values(row)
      .onConflict((oc) => oc.columns(['kind', 'id']).doUpdateSet({ payload: row.payload, expires_at: row.expires_at }))
      .execute();
  }

  findRecord(db: Db, kind: string, id: string): Promise<Selectable<OAuthRecordTable> | undefined> {
    return db.selectFrom('oauth_records').selectAll().where('kind', '=', kind).where('id', '=', id).executeTakeFirst();
  }

  async deleteRecord(db: Db, kind: string, id: string): Promise<void> {
    await db.deleteFrom('oauth_records').where('kind', '=', kind).where('id', '=', id).execute();
  }
}
