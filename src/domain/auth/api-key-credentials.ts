// API keys as credentials for the Authenticator: `cms_live_…`, found by hash with their user and
// account, dropped from the cache when the key is revoked or its user changes.
import type { Store } from '../../storage/db.js';
import type { ApiKeyRepository, KeyPrincipalRow } from '../../storage/api-key-repository.js';
import { looksLikeApiKey } from './api-key-secret.js';
import type { Credential, CredentialSource } from './authenticator.js';
import type { CredentialKind, Principal, Role, Scope } from './permissions.js';

export class ApiKeyCredentials implements CredentialSource {
  constructor(
    private readonly store: Store,
    private readonly keys: ApiKeyRepository,
  ) {}

  accepts(value: string): boolean {
    return looksLikeApiKey(value);
  }

  async find(hash: string): Promise<Credential | undefined> {
    const row = await this.store.run((db) => this.keys.findByHash(db, hash));
    if (!row || row.revoked_at !== null) return undefined;
    return { principal: toPrincipal(row), expiresAt: row.expires_at, dependsOn: [row.key_id, row.user_id], lastUsedId: row.key_id };
  }

  touch(lastUsed: Map<string, string>): Promise<void> {
    return this.store.run((db) => this.keys.touch(db, lastUsed));
  }
}

function toPrincipal(row: KeyPrincipalRow): Principal {
  return {
    accountId: row.account_id,
    userId: row.user_id,
    keyId: row.key_id,
    kind: row.kind as CredentialKind,
    credential: 'api_key',
    role: row.role as Role,
    scopes: JSON.parse(row.scopes) as Scope[],
    plan: row.plan,
    rateLimit: row.rate_limit === null ? null : Number(row.rate_limit),
    quota: row.quota === null ? null : Number(row.quota),
    accountCreatedAt: row.account_created_at,
    deliveryCacheSeconds: row.delivery_cache_seconds === null ? null : Number(row.delivery_cache_seconds),
  };
}
