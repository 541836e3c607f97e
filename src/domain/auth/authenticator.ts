// Authentication: a presented API key becomes a Principal, or nothing. Resolved keys are cached
// for at most one second, so a warm key costs no database round-trip while a revocation, expiry,
// role change or user deletion made on any instance takes effect everywhere within a second; on
// the instance that made the change it takes effect at once. The key's account comes with it (plan,
// own rate limit and quota, creation time), so a plan change applies within the same second.
// `last_used_at` is kept in memory and written in batches.
import type { Store } from '../../storage/db.js';
import type { ApiKeyRepository, KeyPrincipalRow } from '../../storage/api-key-repository.js';
import { hashApiKey, looksLikeApiKey } from './api-key-secret.js';
import type { KeyRevocationListener } from './api-keys.js';
import type { Clock } from '../ids.js';
import type { Principal, Role, Scope } from './permissions.js';
import type { UserChangeListener } from '../users/users.js';

const FRESH_MS = 1000;
const MAX_ENTRIES = 10_000;

interface Entry {
  row: KeyPrincipalRow;
  principal: Principal;
  fetchedAt: number;
}

export class Authenticator implements KeyRevocationListener, UserChangeListener {
  private readonly cache = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<KeyPrincipalRow | undefined>>();
  private lastUsed = new Map<string, string>();
  /** Bumped by every invalidation: a lookup that started before one must not be cached after it. */
  private generation = 0;
  private readonly invalidationListeners: (() => void)[] = [];

  constructor(
    private readonly store: Store,
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {}

  /** Resolves a key; undefined for a malformed, unknown, revoked or expired one. */
  async authenticate(key: string): Promise<Principal | undefined> {
    if (!looksLikeApiKey(key)) return undefined;
    const hash = hashApiKey(key);
    const now = this.clock();
    let entry = this.cache.get(hash);
    if (!entry || now.getTime() - entry.fetchedAt >= FRESH_MS) {
      const generation = this.generation;
      const row = await this.load(hash);
      this.cache.delete(hash);
      if (!row || row.revoked_at !== null) return undefined;
      entry = { row, principal: toPrincipal(row), fetchedAt: now.getTime() };
      if (generation === this.generation) {
        this.cache.set(hash, entry);
        if (this.cache.size > MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      }
    }
    if (entry.row.expires_at !== null && entry.row.expires_at <= now.toISOString()) return undefined;
    this.lastUsed.set(entry.principal.keyId, now.toISOString());
    return entry.principal;
  }

  keyRevoked(keyId: string): void {
    this.invalidate((principal) => principal.keyId === keyId);
  }

  userChanged(userId: string): void {
    this.invalidate((principal) => principal.userId === userId);
  }

  /** Called after a key is revoked or a user changes on this instance (live connections re-check). */
  onInvalidate(listener: () => void): void {
    this.invalidationListeners.push(listener);
  }

  private invalidate(matches: (principal: Principal) => boolean): void {
    this.generation++;
    queueMicrotask(() => this.invalidationListeners.forEach((listener) => listener()));
    // Requests arriving from now on must not share a lookup that started before the change.
    this.pending.clear();
    for (const [hash, entry] of this.cache) if (matches(entry.principal)) this.cache.delete(hash);
  }

  /** Writes the `last_used_at` values gathered since the last flush. */
  async flushLastUsed(): Promise<void> {
    if (this.lastUsed.size === 0) return;
    const batch = this.lastUsed;
    this.lastUsed = new Map();
    await this.store.run((db) => this.keys.touch(db, batch));
  }

  /** One query per key at a time, however many requests present it at once. */
  private load(hash: string): Promise<KeyPrincipalRow | undefined> {
    let promise = this.pending.get(hash);
    if (!promise) {
      const lookup = this.store.run((db) => this.keys.findByHash(db, hash)).finally(() => {
        if (this.pending.get(hash) === lookup) this.pending.delete(hash);
      });
      promise = lookup;
      this.pending.set(hash, lookup);
    }
    return promise;
  }
}

function toPrincipal(row: KeyPrincipalRow): Principal {
  return {
    accountId: row.account_id,
    userId: row.user_id,
    keyId: row.key_id,
    role: row.role as Role,
    scopes: JSON.parse(row.scopes) as Scope[],
    plan: row.plan,
    rateLimit: row.rate_limit === null ? null : Number(row.rate_limit),
    quota: row.quota === null ? null : Number(row.quota),
    accountCreatedAt: row.account_created_at,
  };
}
