// User queries. Every method that serves a request takes the account id and puts it in the WHERE;
// the service-wide lookups (e-mail is unique across accounts) say so in their names.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { UserTable } from './schema.js';

export type UserRow = Selectable<UserTable>;
const PUBLIC = ['id', 'email', 'name', 'role', 'created_at', 'updated_at'] as const;
export type PublicUserRow = Pick<UserRow, (typeof PUBLIC)[number]>;

export class UserRepository {
  async list(db: Db, accountId: string, role: string | undefined, limit: number, offset: number) {
    let query = db.selectFrom('users').where('account_id', '=', accountId);
    if (role !== undefined) query = query.where('role', '=', role);
    const [rows, count] = await Promise.all([
      query.select(PUBLIC).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /** The user's role with their account's plan and limits: what a Principal is made of. */
  principalRow(db: Db, accountId: string, id: string) {
    return db
      .selectFrom('users as u')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select(['u.id as user_id', 'u.account_id', 'u.role', 'a.plan', 'a.rate_limit', 'a.quota', 'a.created_at as account_created_at'])
      .where('u.account_id', '=', accountId)
      .where('u.id', '=', id)
      .executeTakeFirst();
  }

  get(db: Db, accountId: string, id: string): Promise<PublicUserRow | undefined> {
    return db.selectFrom('users').select(PUBLIC).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  async insert(tx: Tx, row: Insertable<UserTable>): Promise<void> {
    await tx.insertInto('users').values(row).execute();
  }

  update(tx: Tx, accountId: string, id: string, changes: Updateable<UserTable>): Promise<PublicUserRow | undefined> {
    return tx.updateTable('users').set(changes).where('account_id', '=', accountId).where('id', '=', id).returning(PUBLIC).executeTakeFirst();
  }

  async delete(tx: Tx, accountId: string, id: string): Promise<boolean> {
    const result = await tx.deleteFrom('users').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async countOwners(tx: Tx, accountId: string): Promise<number> {
    const row = await tx
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The names of the account's users among `ids` (authors of a feed's entries). */
  names(db: Db, accountId: string, ids: string[]): Promise<Pick<UserRow, 'id' | 'name'>[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db.selectFrom('users').select(['id', 'name']).where('account_id', '=', accountId).where('id', 'in', ids).execute();
  }

  /** The users of the account with one of `roles` (the owners and admins a notice goes to). */
  withRoles(db: Db, accountId: string, roles: string[]): Promise<Pick<UserRow, 'id' | 'email' | 'name'>[]> {
    return db.selectFrom('users').select(['id', 'email', 'name']).where('account_id', '=', accountId).where('role', 'in', roles).orderBy('id').execute();
  }

  /** The user's password hash: null when none is set (an invitation not yet taken up), undefined when there is no such user. */
  async passwordHash(db: Db, accountId: string, id: string): Promise<string | null | undefined> {
    const row = await db.selectFrom('users').select('password_hash').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return row?.password_hash;
  }

  /** Service-wide: e-mail addresses are unique across accounts (people sign in with them). */
  findByEmailAnyAccount(db: Db, email: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /** Service-wide: used by the administration CLI, which acts for the operator, not for an account. */
  findByIdAnyAccount(db: Db, userId: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  }
}
