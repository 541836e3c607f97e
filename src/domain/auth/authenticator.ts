// Authentication: a presented credential (an API key, an OAuth access token) becomes a Principal, or
// nothing, in this one place. Resolved credentials are cached for at most one second, so a warm one
// costs no database round-trip while a revocation, expiry, role change or user deletion made on any
// instance takes effect everywhere within a second; on the instance that made the change it takes
// effect at once, and so on the other workers of its host (WORKERS > 1: relayed through the primary). The account comes with the credential (plan, own rate limit and quota, creation
// time), so a plan change applies within the same second. `last_used_at` is kept in memory and
// written in batches.
import { hashSecret } from './api-key-secret.js';
import type { KeyRevocationListener } from './api-keys.js';
import type { Clock } from '../ids.js';
import type { Principal } from './permissions.js';
import type { UserChangeListener } from '../users/users.js';
import type { PeerRelay } from '../peers.js';

const FRESH_MS = 1000;
const MAX_ENTRIES = 10_000;
const FORGET = 'auth.forget';

/** A credential as found in the store. */
export interface Credential {
  principal: Principal;
  /** When it stops working (ISO 8601), or null. */
  expiresAt: string | null;
  /** Ids (of the key, user, app, grant…) whose revocation or change must drop it from the cache at once. */
  dependsOn: string[];
  /** What its use is recorded against (`last_used_at`), if anything. */
  lastUsedId?: string;
}

/** One kind of bearer credential: its shape, how it is found by the hash of its value, where its use is recorded. */
export interface CredentialSource {
  /** Whether `value` has this credential's shape (no I/O: anything else is refused without a query). */
  accepts(value: string): boolean;
  /** The live credential whose value hashes to `hash`; undefined when unknown or revoked. */
  find(hash: string): Promise<Credential | undefined>;
  /** Writes `last_used_at` for the given ids (a periodic batch, never once per request). */
  touch(lastUsed: Map<string, string>): Promise<void>;
}

/** Told when something a credential depends on is revoked or deleted (an app, a grant, a token's hash). */
export interface CredentialListener {
  forget(id: string): void;
}

interface Entry {
  credential: Credential;
  source: CredentialSource;
  fetchedAt: number;
}

export class Authenticator implements KeyRevocationListener, UserChangeListener, CredentialListener {
  private readonly cache = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Credential | undefined>>();
  private lastUsed = new Map<CredentialSource, Map<string, string>>();
  /** Bumped by every invalidation: a lookup that started before one must not be cached after it. */
  private generation = 0;
  private readonly invalidationListeners: (() => void)[] = [];
  private relay: PeerRelay | undefined;

  constructor(
    private readonly sources: CredentialSource[],
    private readonly clock: Clock,
  ) {}

  /** Resolves a credential; undefined for a malformed, unknown, revoked or expired one. */
  async authenticate(value: string): Promise<Principal | undefined> {
    const source = this.sources.find((s) => s.accepts(value));
    if (!source) return undefined;
    const hash = hashSecret(value);
    const now = this.clock();
    let entry = this.cache.get(hash);
    if (!entry || now.getTime() - entry.fetchedAt >= FRESH_MS) {
      const generation = this.generation;
      const credential = await this.load(source, hash);
      this.cache.delete(hash);
      if (!credential) return undefined;
      entry = { credential, source, fetchedAt: now.getTime() };
      if (generation === this.generation) {
        this.cache.set(hash, entry);
        if (this.cache.size > MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      }
    }
    const { credential } = entry;
    if (credential.expiresAt !== null && credential.expiresAt <= now.toISOString()) return undefined;
    if (credential.lastUsedId !== undefined) {
      let batch = this.lastUsed.get(entry.source);
      if (!batch) this.lastUsed.set(entry.source, (batch = new Map()));
      batch.set(credential.lastUsedId, now.toISOString());
    }
    return credential.principal;
  }

  keyRevoked(keyId: string): void {
    this.forget(keyId);
  }

  userChanged(userId: string): void {
    this.forget(userId);
  }

  /** Drops every cached credential that depends on `id` (a key, user, app, grant, or a token's hash). */
  forget(id: string): void {
    this.drop(id);
    this.relay?.publish(FORGET, id);
  }

  /** With several server processes (WORKERS): tells the others what is forgotten here, and forgets what they do. */
  relayTo(relay: PeerRelay): void {
    this.relay = relay;
    relay.subscribe(FORGET, (id) => this.drop(id));
  }

  private drop(id: string): void {
    this.generation++;
    queueMicrotask(() => this.invalidationListeners.forEach((listener) => listener()));
    // Requests arriving from now on must not share a lookup that started before the change.
    this.pending.clear();
    this.cache.delete(id);
    for (const [hash, entry] of this.cache) if (entry.credential.dependsOn.includes(id)) this.cache.delete(hash);
  }

  /** Called after a credential is revoked or a user changes on this instance (live connections re-check). */
  onInvalidate(listener: () => void): void {
    this.invalidationListeners.push(listener);
  }

  /** Writes the `last_used_at` values gathered since the last flush. */
  async flushLastUsed(): Promise<void> {
    if (this.lastUsed.size === 0) return;
    const batches = this.lastUsed;
    this.lastUsed = new Map();
    for (const [source, batch] of batches) await source.touch(batch);
  }

  /** One query per credential at a time, however many requests present it at once. */
  private load(source: CredentialSource, hash: string): Promise<Credential | undefined> {
    let promise = this.pending.get(hash);
    if (!promise) {
      const lookup = source.find(hash).finally(() => {
        if (this.pending.get(hash) === lookup) this.pending.delete(hash);
      });
      promise = lookup;
      this.pending.set(hash, lookup);
    }
    return promise;
  }
}
