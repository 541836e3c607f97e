// Quota usage and alert markers. Every query is scoped by account id except the batched flush,
// whose rows each carry theirs, and the pruning of old markers, which is service-wide by nature.
import type { Db, Tx } from './db.js';
import type { UsageCountTable, UsageDayTable } from './schema.js';

export interface KeyUsageRow {
  key_id: string;
  used: number;
}

export interface KeyOwnerRow {
  id: string;
  name: string;
  user_id: string;
  /** The key's first 12 characters, as the key list shows them. */
  prefix: string;
}

export class UsageRepository {
  /** Adds each row's `used` to what is stored for its (account, cycle, key). */
  async add(tx: Tx, rows: UsageCountTable[]): Promise<void> {
    // Well under SQLite's limit on bound parameters per statement.
    for (let i = 0; i < rows.length; i += 500) {
      await tx
        .insertInto('usage_counts')
        .values(rows.slice(i, i + 500))
        .onConflict((oc) =>
          oc.columns(['account_id', 'period_start', 'key_id']).doUpdateSet((eb) => ({ used: eb('usage_counts.used', '+', eb.ref('excluded.used')) })),
        )
        .execute();
    }
  }

  /** Adds each row's `used` to what is stored for its (account, day). */
  async addDays(tx: Tx, rows: UsageDayTable[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 500) {
      await tx
        .insertInto('usage_days')
        .values(rows.slice(i, i + 500))
        .onConflict((oc) => oc.columns(['account_id', 'day']).doUpdateSet((eb) => ({ used: eb('usage_days.used', '+', eb.ref('excluded.used')) })))
        .execute();
    }
  }

  /** The account's requests per UTC day from `fromDay` to `toDay` (YYYY-MM-DD, both included); days without any are absent. */
  async days(db: Db, accountId: string, fromDay: string, toDay: string): Promise<{ day: string; used: number }[]> {
    const rows = await db
      .selectFrom('usage_days')
      .select(['day', 'used'])
      .where('account_id', '=', accountId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .orderBy('day')
      .execute();
    return rows.map((r) => ({ day: r.day, used: Number(r.used) }));
  }

  async total(db: Db, accountId: string, periodStart: string): Promise<number> {
    const row = await db
      .selectFrom('usage_counts')
      .select((eb) => eb.fn.sum<number | string | null>('used').as('used'))
      .where('account_id', '=', accountId)
      .where('period_start', '=', periodStart)
      .executeTakeFirst();
    return Number(row?.used ?? 0);
  }

  async perKey(db: Db, accountId: string, periodStart: string): Promise<KeyUsageRow[]> {
    const rows = await db
      .selectFrom('usage_counts')
      .select(['key_id', 'used'])
      .where('account_id', '=', accountId)
      .where('period_start', '=', periodStart)
      .execute();
    return rows.map((r) => ({ key_id: r.key_id, used: Number(r.used) }));
  }

  /** Names and owners of the account's keys among `keyIds`, revoked ones included (deleted ones are gone). */
  async keyOwners(db: Db, accountId: string, keyIds: string[]): Promise<KeyOwnerRow[]> {
    if (keyIds.length === 0) return [];
    return db.selectFrom('api_keys').select(['id', 'name', 'user_id', 'prefix']).where('account_id', '=', accountId).where('id', 'in', keyIds).execute();
  }

  /** Service-wide: names of the OAuth apps among `appIds` (an app of any account may act in this one), deleted ones absent. */
  async appNamesAnyAccount(db: Db, appIds: string[]): Promise<{ id: string; name: string }[]> {
    if (appIds.length === 0) return [];
    return db.selectFrom('oauth_apps').select(['id', 'name']).where('id', 'in', appIds).execute();
  }

  /** Records that `marker` was announced; false when it already was (by any instance, ever). */
  async markAlert(tx: Tx, accountId: string, marker: string, createdAt: string): Promise<boolean> {
    const result = await tx
      .insertInto('usage_alerts')
      .values({ account_id: accountId, marker, created_at: createdAt })
      .onConflict((oc) => oc.columns(['account_id', 'marker']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Deletes markers older than `before`: the cycles and windows they were about are long over. */
  async pruneAlerts(db: Db, before: string): Promise<void> {
    await db.deleteFrom('usage_alerts').where('created_at', '<', before).execute();
  }
}
