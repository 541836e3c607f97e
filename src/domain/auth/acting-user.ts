// Work done later on a person's behalf — a scheduled publish, a bulk job's next chunk — acts as that
// person is *now*: their current role and account, and at most the scopes the credential that asked
// for the work held. A person deleted (or demoted below what the work needs) since then is refused
// by the same checks a request meets (requireScope and the role rules of each operation).
import type { Db } from '../../storage/db.js';
import type { UserRepository } from '../../storage/user-repository.js';
import { scopesForRole, type Principal, type Role, type Scope } from './permissions.js';

export interface OnBehalfOf {
  accountId: string;
  userId: string;
  /** The scopes of the credential that asked for the work; omitted: every scope the role may hold. */
  scopes?: readonly Scope[];
  /** The credential (key or token id) that asked, recorded as the principal's key; '' when none. */
  credentialId?: string;
}

/** The principal `who` acts as now, or undefined when the person no longer exists. `db` may be a transaction. */
export async function actingAs(db: Db, users: UserRepository, who: OnBehalfOf): Promise<Principal | undefined> {
  const row = await users.principalRow(db, who.accountId, who.userId);
  if (!row) return undefined;
  const role = row.role as Role;
  const held = scopesForRole(role);
  return {
    accountId: row.account_id,
    userId: row.user_id,
    keyId: who.credentialId ?? '',
    kind: 'management',
    credential: 'work',
    role,
    scopes: who.scopes ? held.filter((scope) => who.scopes!.includes(scope)) : held,
    plan: row.plan,
    rateLimit: row.rate_limit === null ? null : Number(row.rate_limit),
    quota: row.quota === null ? null : Number(row.quota),
    accountCreatedAt: row.account_created_at,
  };
}
