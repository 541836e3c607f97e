// Authentication: a presented API key becomes a Principal, or nothing.
import type { Store } from '../storage/db.js';
import type { AccountRepository } from '../storage/account-repository.js';
import { hashApiKey, looksLikeApiKey } from './api-key-secret.js';
import type { Clock } from './ids.js';
import type { Principal, Role, Scope } from './permissions.js';

export class Authenticator {
  constructor(
    private readonly store: Store,
    private readonly repo: AccountRepository,
    private readonly clock: Clock,
  ) {}

  /** Resolves a key; undefined for a malformed, unknown, revoked or expired one. */
  async authenticate(key: string): Promise<Principal | undefined> {
    if (!looksLikeApiKey(key)) return undefined;
    const row = await this.store.run((db) => this.repo.findKeyByHash(db, hashApiKey(key)));
    if (!row || row.revoked_at !== null) return undefined;
    if (row.expires_at !== null && row.expires_at <= this.clock().toISOString()) return undefined;
    return {
      accountId: row.account_id,
      userId: row.user_id,
      keyId: row.key_id,
      role: row.role as Role,
      scopes: JSON.parse(row.scopes) as Scope[],
      plan: row.plan,
    };
  }
}
