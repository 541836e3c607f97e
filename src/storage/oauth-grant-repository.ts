// OAuth grant queries: a person's consent to an app. What a person sees and revokes is scoped by
// account and user; the authorization server's own reads and writes go by grant id, service-wide by
// nature (it holds the id, from a token or code it was given), and say so in their names.
import type { Insertable, Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { OAuthGrantTable } from './schema.js';

export type OAuthGrantRow = Selectable<OAuthGrantTable>;

/** A connected app as its person sees it. */
export interface ConnectedAppRow {
  id: string;
  app_id: string;
  app_name: string;
  scopes: string;
  created_at: string;
  last_used_at: string | null;
}

export class OAuthGrantRepository {
  /** Inserts the grant, or replaces what may change (scopes, payload, expiry) when it exists. */
  async upsertAnyAccount(tx: Tx, row: Insertable<OAuthGrantTable>): Promise<void> {
    await tx
      .insertInto('oauth_grants')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet({ scopes: row.scopes, payload: row.payload, expires_at: row.expires_at }))
      .execute();
  }

  findAnyAccount(db: Db, id: string): Promise<OAuthGrantRow | undefined> {
    return db.selectFrom('oauth_grants').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The grant with what narrows it now: the app's current scopes (a JSON array). */
  findWithAppScopesAnyAccount(db: Db, id: string): Promise<(OAuthGrantRow & { app_scopes: string }) | undefined> {
    return db
      .selectFrom('oauth_grants as g')
      .innerJoin('oauth_apps as p', 'p.id', 'g.app_id')
      .selectAll('g')
      .select(['p.scopes as app_scopes'])
      .where('g.id', '=', id)
      .executeTakeFirst();
  }

  /** Deletes the grant and, by cascade, every token and code issued from it. */
  async deleteAnyAccount(db: Db | Tx, id: string): Promise<boolean> {
    const result = await db.deleteFrom('oauth_grants').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The person's newest live grant to the app: their remembered consent. */
  latest(db: Db, accountId: string, userId: string, appId: string, now: string): Promise<OAuthGrantRow | undefined> {
    return db
      .selectFrom('oauth_grants')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** The person's live grants with their apps' names, newest first. */
  async listConnected(db: Db, accountId: string, userId: string, now: string, limit: number, offset: number) {
    const query = db
      .selectFrom('oauth_grants as g')
      .innerJoin('oauth_apps as p', 'p.id', 'g.app_id')
      .where('g.account_id', '=', accountId)
      .where('g.user_id', '=', userId)
      .where('g.expires_at', '>', now);
    const [rows, count] = await Promise.all([
      query
        .select(['g.id', 'g.app_id', 'p.name as app_name', 'g.scopes', 'g.created_at', 'g.last_used_at'])
        .orderBy('g.created_at', 'desc')
        .orderBy('g.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows as ConnectedAppRow[], total: Number(count.total) };
  }

  /** Deletes one of the person's grants (and its tokens); false when they have no such grant. */
  async delete(tx: Tx, accountId: string, userId: string, id: string): Promise<boolean> {
    const result = await tx
      .deleteFrom('oauth_grants')
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Records when grants were last used: called by a periodic flush, never once per request. */
  async touch(db: Db, lastUsed: Map<string, string>): Promise<void> {
    for (const [id, at] of lastUsed) {
      await db.updateTable('oauth_grants').set({ last_used_at: at }).where('id', '=', id).execute();
    }
  }

  /** Service-wide housekeeping: grants past their end. */
  async prune(db: Db, now: string): Promise<void> {
    await db.deleteFrom('oauth_grants').where('expires_at', '<=', now).execute();
  }
}
