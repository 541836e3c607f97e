// Accounts, their users and API keys. Every read that serves a request is scoped by account id;
// the few service-wide lookups (by key hash, by e-mail) say so in their names.
import type { Insertable, Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { AccountTable, ApiKeyTable, UserTable } from './schema.js';

export type AccountRow = Selectable<AccountTable>;
export type UserRow = Selectable<UserTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;

/** What authentication needs about a key, its user and its account, in one query. */
export interface KeyPrincipalRow {
  key_id: string;
  account_id: string;
  user_id: string;
  role: string;
  scopes: string;
  expires_at: string | null;
  revoked_at: string | null;
  plan: string;
}

export class AccountRepository {
  async insertAccount(tx: Tx, row: Insertable<AccountTable>): Promise<void> {
    await tx.insertInto('accounts').values(row).execute();
  }

  getAccount(db: Db, accountId: string): Promise<AccountRow | undefined> {
    return db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
  }

  async updateAccount(tx: Tx, accountId: string, changes: Partial<Pick<AccountRow, 'plan' | 'rate_limit' | 'quota' | 'updated_at'>>) {
    const result = await tx.updateTable('accounts').set(changes).where('id', '=', accountId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async insertUser(tx: Tx, row: Insertable<UserTable>): Promise<void> {
    await tx.insertInto('users').values(row).execute();
  }

  /** Service-wide: e-mail addresses are unique across accounts (people sign in with them). */
  findUserByEmailAnyAccount(db: Db, email: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /** Service-wide: used by the administration CLI, which acts for the operator, not for an account. */
  findUserByIdAnyAccount(db: Db, userId: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  }

  async insertKey(tx: Tx, row: Insertable<ApiKeyTable>): Promise<void> {
    await tx.insertInto('api_keys').values(row).execute();
  }

  /** Service-wide by nature: the hash is what identifies the account. */
  findKeyByHash(db: Db, keyHash: string): Promise<KeyPrincipalRow | undefined> {
    return db
      .selectFrom('api_keys as k')
      .innerJoin('users as u', 'u.id', 'k.user_id')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .select(['k.id as key_id', 'k.account_id', 'k.user_id', 'u.role', 'k.scopes', 'k.expires_at', 'k.revoked_at', 'a.plan'])
      .where('k.key_hash', '=', keyHash)
      .executeTakeFirst();
  }

  async markSetting(tx: Tx, key: string, value: string): Promise<void> {
    await tx.insertInto('settings').values({ key, value }).execute();
  }

  getSetting(db: Db, key: string): Promise<string | undefined> {
    return db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst().then((r) => r?.value);
  }
}
