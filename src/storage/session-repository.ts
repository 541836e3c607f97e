// Dashboard sessions. The lookup by token hash is service-wide by nature (the cookie is all a
// request brings); everything else takes the account id and puts it in the WHERE.
import type { Insertable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { SessionTable } from './schema.js';

/** A session with what a Principal needs: its user's role and its account's terms. */
export interface SessionPrincipalRow {
  session_id: string;
  account_id: string;
  user_id: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  role: string;
  email: string;
  name: string;
  plan: string;
  rate_limit: number | null;
  quota: number | null;
  account_created_at: string;
}

export class SessionRepository {
  async insert(tx: Tx, row: Insertable<SessionTable>): Promise<void> {
    await tx.insertInto('sessions').values(row).execute();
  }

  /** Service-wide: the cookie's token hash is the only thing a request brings. */
  findByHash(db: Db, tokenHash: string): Promise<SessionPrincipalRow | undefined> {
    return db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .innerJoin('accounts as a', 'a.id', 's.account_id')
      .select(['s.id as session_id', 's.account_id', 's.user_id', 's.csrf_token', 's.created_at', 's.last_seen_at', 's.expires_at'])
      .select(['u.role', 'u.email', 'u.name', 'a.plan', 'a.rate_limit', 'a.quota', 'a.created_at as account_created_at'])
      .where('s.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /** Moves the idle deadline on; only forward, so two instances renewing at once agree. */
  async touch(db: Db, accountId: string, id: string, seenAt: string): Promise<void> {
    await db.updateTable('sessions').set({ last_seen_at: seenAt }).where('account_id', '=', accountId).where('id', '=', id).where('last_seen_at', '<', seenAt).execute();
  }

  async delete(db: Db | Tx, accountId: string, id: string): Promise<void> {
    await db.deleteFrom('sessions').where('account_id', '=', accountId).where('id', '=', id).execute();
  }

  /** Ends every session of a user (a new password), but `keep` when given (the one that changed it). */
  async deleteForUser(db: Db | Tx, accountId: string, userId: string, keep?: string): Promise<number> {
    let query = db.deleteFrom('sessions').where('account_id', '=', accountId).where('user_id', '=', userId);
    if (keep !== undefined) query = query.where('id', '!=', keep);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Service-wide housekeeping: sessions past their absolute end, or idle since before `idleBefore`. */
  async prune(db: Db, now: string, idleBefore: string): Promise<void> {
    await db.deleteFrom('sessions').where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleBefore)])).execute();
  }
}
