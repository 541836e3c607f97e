// OAuth app queries. Listing, reading and changes are scoped by account id; the lookups by client id
// are service-wide by nature (an app of one account may be authorized by people of any account, and
// the client id is all the authorization server is given) and say so in their names.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { OAuthAppTable } from './schema.js';

export type OAuthAppRow = Selectable<OAuthAppTable>;
const PUBLIC = ['id', 'name', 'type', 'redirect_uris', 'scopes', 'user_id', 'created_at', 'updated_at'] as const;
export type PublicOAuthAppRow = Pick<OAuthAppRow, (typeof PUBLIC)[number]>;

export class OAuthAppRepository {
  async insert(tx: Tx, row: Insertable<OAuthAppTable>): Promise<void> {
    await tx.insertInto('oauth_apps').values(row).execute();
  }

  /** The account's apps, newest first, optionally of one user. */
  async list(db: Db, accountId: string, userId: string | undefined, limit: number, offset: number) {
    let query = db.selectFrom('oauth_apps').where('account_id', '=', accountId);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    const [rows, count] = await Promise.all([
      query.select(PUBLIC).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  get(db: Db, accountId: string, id: string): Promise<PublicOAuthAppRow | undefined> {
    return db.selectFrom('oauth_apps').select(PUBLIC).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  update(tx: Tx, accountId: string, id: string, changes: Updateable<OAuthAppTable>): Promise<PublicOAuthAppRow | undefined> {
    return tx.updateTable('oauth_apps').set(changes).where('account_id', '=', accountId).where('id', '=', id).returning(PUBLIC).executeTakeFirst();
  }

  /** Deletes the app; its grants and tokens go with it (foreign key cascades). */
  async delete(tx: Tx, accountId: string, id: string): Promise<boolean> {
    const result = await tx.deleteFrom('oauth_apps').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Service-wide: the authorization server knows an app by its client id alone. */
  findAnyAccount(db: Db, id: string): Promise<OAuthAppRow | undefined> {
    return db.selectFrom('oauth_apps').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
