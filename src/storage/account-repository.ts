// Accounts and the settings table. Users and keys have repositories of their own.
import type { Insertable, Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { AccountTable } from './schema.js';

export type AccountRow = Selectable<AccountTable>;

export class AccountRepository {
  /** Inserts the account with its event sequence (the event log's counter and write lock). */
  async insert(tx: Tx, row: Insertable<AccountTable>): Promise<void> {
    await tx.insertInto('accounts').values(row).execute();
    await tx.insertInto('event_sequences').values({ account_id: row.id, seq: 0 }).execute();
  }

  get(db: Db, accountId: string): Promise<AccountRow | undefined> {
    return db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
  }

  async update(tx: Tx, accountId: string, changes: Partial<Pick<AccountRow, 'plan' | 'rate_limit' | 'quota' | 'delivery_cache_seconds' | 'updated_at'>>) {
    const result = await tx.updateTable('accounts').set(changes).where('id', '=', accountId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async markSetting(tx: Tx, key: string, value: string): Promise<void> {
    await tx.insertInto('settings').values({ key, value }).execute();
  }

  getSetting(db: Db, key: string): Promise<string | undefined> {
    return db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst().then((r) => r?.value);
  }
}
