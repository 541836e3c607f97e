// Roles and scopes (CONTRACT.md §4): what each role may do, which scopes it may hold, and the one
// check every operation goes through.
import { DomainError } from '../errors.js';

export const ROLES = ['owner', 'admin', 'editor', 'author', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const SCOPES = ['content:read', 'content:write', 'users:read', 'users:write', 'keys:write', 'webhooks:write', 'events:read'] as const;
export type Scope = (typeof SCOPES)[number];

const EVERYONE: Scope[] = ['content:read', 'users:read', 'events:read', 'keys:write'];
const ROLE_SCOPES: Record<Role, Scope[]> = {
  viewer: EVERYONE,
  author: [...EVERYONE, 'content:write'],
  editor: [...EVERYONE, 'content:write'],
  admin: [...EVERYONE, 'content:write', 'users:write', 'webhooks:write'],
  owner: [...EVERYONE, 'content:write', 'users:write', 'webhooks:write'],
};

/** Every scope a role may hold; a key created without scopes gets all of them. */
export function scopesForRole(role: Role): Scope[] {
  return SCOPES.filter((s) => ROLE_SCOPES[role].includes(s));
}

export function roleMayHold(role: Role, scope: Scope): boolean {
  return ROLE_SCOPES[role].includes(scope);
}

/**
 * What a credential is for: a management key (or OAuth token, or dashboard session) does what its
 * role and scopes allow; a delivery key reads published content only, on the routes that say so.
 */
export type CredentialKind = 'management' | 'delivery';

/**
 * Which credential the principal came from. Most rules ask only for the role and scopes; a few ask
 * which it was (setting a password: an API key holding `keys:write`, never an OAuth token, §6).
 * `work`: a scheduled publish or a bulk job acting later for a person (acting-user.ts).
 */
export type CredentialType = 'api_key' | 'oauth_token' | 'session' | 'work';

/** Who is calling: resolved from an API key, passed first to every domain function. */
export interface Principal {
  accountId: string;
  userId: string;
  keyId: string;
  kind: CredentialKind;
  /** Where the principal came from: an API key, an OAuth access token, a dashboard session, or deferred work. */
  credential: CredentialType;
  role: Role;
  scopes: readonly Scope[];
  plan: string;
  /** The account's own hourly limit, or null for its plan's (read with the key, so a change applies within the key cache's second). */
  rateLimit: number | null;
  /** The account's own monthly quota, or null for its plan's. */
  quota: number | null;
  /** When the account was created: its billing cycle renews on that day of the month. */
  accountCreatedAt: string;
  /** How long public caches may keep a delivery key's answers: the account's delivery_cache_seconds (read with the key). */
  deliveryCacheSeconds?: number | null;
}

/** A request needs both the role and the scope (§4); otherwise 403 forbidden. */
export function requireScope(principal: Principal, scope: Scope): void {
  if (!roleMayHold(principal.role, scope) || !principal.scopes.includes(scope)) {
    throw new DomainError('forbidden', `This operation needs the "${scope}" scope, which this API key does not have.`);
  }
}
