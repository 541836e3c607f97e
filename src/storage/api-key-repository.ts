// API key queries. Listing, reading and revoking are scoped by account id; the lookup by hash is
// service-wide by nature (the hash is what identifies the account).
import type { Insertable, Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { ApiKeyTable } from './schema.js';

export type ApiKeyRow = Omit<Selectable<ApiKeyTable>, 'key_hash' | 'account_id' | 'revoked_at'>;
const PUBLIC = ['id', 'name', 'kind', 'prefix', 'scopes', 'user_id', 'created_at', 'last_used_at', 'expires_at'] as const;

/** What authentication needs about a key, its user and its account, in one query. */
export interface KeyPrincipalRow {
  key_id: string;
  account_id: string;
  user_id: string;
  /** management or delivery. */
  kind: string;
  role: string;
  scopes: string;
  expires_at: string | null;
  revoked_at: string | null;
  plan: string;
  rate_limit: number | null;
  quota: number | null;
  account_created_at: string;
  delivery_cache_seconds: number | null;
}

export class ApiKeyRepository {
  async insert(tx: Tx, row: Insertable<ApiKeyTable>): Promise<void> {
    await tx.insertInto('api_keys').values(row).execute();
  }

  /** Live (not revoked) keys of the account, newest first, optionally of one user. */
  async list(db: Db, accountId: string, userId: string | undefined, limit: number, offset: number) {
    let query = db.selectFrom('api_keys').where('account_id', '=', accountId).where('revoked_at', 'is', null);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    const [rows, count] = await Promise.all([
      query.select(PUBLIC).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  get(db: Db, accountId: string, id: string): Promise<ApiKeyRow | undefined> {
    return db
      .selectFrom('api_keys')
      .select(PUBLIC)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  }

  async revoke(tx: Tx, accountId: string, id: string, now: string): Promise<boolean> {
    const result = await tx
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Records when keys were last used: called by a periodic flush, never once per request. */
  async touch(db: Db, lastUsed: Map<string, string>): Promise<void> {
    for (const [id, at] of lastUsed) {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    }
  }

  findByHash(db: Db, keyHash: string): Promise<KeyPrincipalRow | undefined> {
    return db
      .selectFrom('api_keys as k')
      .innerJoin('users as u', 'u.id', 'k.user_id')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .select(['k.id as key_id', 'k.account_id', 'k.user_id', 'k.kind', 'u.role', 'k.scopes', 'k.expires_at', 'k.revoked_at', 'a.plan'])
      // The account's limits come with the key, so rate limiting needs no query of its own.
      .select(['a.rate_limit', 'a.quota', 'a.created_at as account_created_at', 'a.delivery_cache_seconds'])
      .where('k.key_hash', '=', keyHash)
      .executeTakeFirst();
  }
}
