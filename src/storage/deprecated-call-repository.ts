// Calls to deprecated routes per account, billing cycle, route and key, added to in batches. Reads
// take the account id; finding the accounts to remind before a sunset is service-wide by nature.
import type { Db, Tx } from './db.js';
import type { DeprecatedCallTable } from './schema.js';

export type DeprecatedCallRow = DeprecatedCallTable;

export class DeprecatedCallRepository {
  /** Adds each row's calls to what is stored for its (account, cycle, route, key); keeps the latest call time. */
  async add(tx: Tx, rows: DeprecatedCallRow[]): Promise<void> {
    // Well under SQLite's limit on bound parameters per statement.
    for (let i = 0; i < rows.length; i += 300) {
      await tx
        .insertInto('deprecated_calls')
        .values(rows.slice(i, i + 300))
        .onConflict((oc) =>
          oc.columns(['account_id', 'period_start', 'method', 'path', 'key_id']).doUpdateSet((eb) => ({
            calls: eb('deprecated_calls.calls', '+', eb.ref('excluded.calls')),
            last_called_at: eb
              .case()
              .when('excluded.last_called_at', '>', eb.ref('deprecated_calls.last_called_at'))
              .then(eb.ref('excluded.last_called_at'))
              .else(eb.ref('deprecated_calls.last_called_at'))
              .end(),
          })),
        )
        .execute();
    }
  }

  /** The account's calls of one billing cycle, every route and key. */
  async ofCycle(db: Db, accountId: string, periodStart: string): Promise<DeprecatedCallRow[]> {
    const rows = await db.selectFrom('deprecated_calls').selectAll().where('account_id', '=', accountId).where('period_start', '=', periodStart).execute();
    return rows.map((r) => ({ ...r, calls: Number(r.calls) }));
  }

  /** Who called one route since `since`: per key, the calls of those rows and the latest call. */
  async callers(db: Db, accountId: string, method: string, path: string, since: string): Promise<{ key_id: string; calls: number; last_called_at: string }[]> {
    const rows = await db
      .selectFrom('deprecated_calls')
      .select((eb) => ['key_id', eb.fn.sum<number | string>('calls').as('calls'), eb.fn.max('last_called_at').as('last_called_at')])
      .where('account_id', '=', accountId)
      .where('method', '=', method)
      .where('path', '=', path)
      .where('last_called_at', '>=', since)
      .groupBy('key_id')
      .orderBy('key_id')
      .execute();
    return rows.map((r) => ({ key_id: r.key_id, calls: Number(r.calls), last_called_at: r.last_called_at }));
  }

  /** Service-wide: the accounts that called a route since `since`. */
  async accountsAnyAccount(db: Db, method: string, path: string, since: string): Promise<string[]> {
    const rows = await db
      .selectFrom('deprecated_calls')
      .select('account_id')
      .distinct()
      .where('method', '=', method)
      .where('path', '=', path)
      .where('last_called_at', '>=', since)
      .execute();
    return rows.map((r) => r.account_id);
  }
}
