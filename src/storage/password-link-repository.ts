// One-time links to set a password. The lookup by token hash is service-wide by nature (the link is
// all its holder brings); everything else takes the account id.
import type { Insertable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { PasswordLinkTable } from './schema.js';

/** A live link with what setting the password needs about its user. */
export interface LiveLinkRow {
  account_id: string;
  user_id: string;
  purpose: string;
  expires_at: string;
  email: string;
}

export class PasswordLinkRepository {
  async insert(tx: Tx, row: Insertable<PasswordLinkTable>): Promise<void> {
    await tx.insertInto('password_links').values(row).execute();
  }

  /** Service-wide: the unused, unexpired link with this token hash, if any. */
  findLiveAnyAccount(db: Db, tokenHash: string, now: string): Promise<LiveLinkRow | undefined> {
    return db
      .selectFrom('password_links as l')
      .innerJoin('users as u', 'u.id', 'l.user_id')
      .select(['l.account_id', 'l.user_id', 'l.purpose', 'l.expires_at', 'u.email'])
      .where('l.token_hash', '=', tokenHash)
      .where('l.used_at', 'is', null)
      .where('l.expires_at', '>', now)
      .executeTakeFirst();
  }

  /**
   * Service-wide: uses the link up, if it is still live — one atomic step, so two submissions of
   * one link cannot both succeed. Returns its account and user, or undefined.
   */
  async useAnyAccount(tx: Tx, tokenHash: string, now: string): Promise<{ account_id: string; user_id: string } | undefined> {
    return tx
      .updateTable('password_links')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['account_id', 'user_id'])
      .executeTakeFirst();
  }

  /** Ends every live link of a user (a fresh one replaces them, or the password was set). */
  async endForUser(tx: Tx, accountId: string, userId: string, now: string): Promise<void> {
    await tx
      .updateTable('password_links')
      .set({ used_at: now })
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  }

  /** Service-wide housekeeping: links that can no longer be used. */
  async pruneAnyAccount(db: Db, expiredBefore: string): Promise<void> {
    await db.deleteFrom('password_links').where('expires_at', '<', expiredBefore).execute();
  }
}
