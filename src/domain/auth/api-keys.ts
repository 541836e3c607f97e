// API keys (CONTRACT.md §7): list, create (the plain key shown once), revoke. Everyone manages
// their own keys; admins and owners manage the account's, but only an owner may mint an owner's key.
import type { Store, Tx } from '../../storage/db.js';
import type { ApiKeyRepository, ApiKeyRow } from '../../storage/api-key-repository.js';
import type { UserRepository } from '../../storage/user-repository.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-secret.js';
import { forbidden, invalid, notFound, type FieldError } from '../errors.js';
import { newId, type Clock } from '../ids.js';
import { requireScope, roleMayHold, ROLES, SCOPES, scopesForRole, type CredentialKind, type Principal, type Role, type Scope } from './permissions.js';
import { pageOf, pageWindow, type PageResult } from '../schemas/common.js';
import type { ApiKey, ApiKeyCreate, ApiKeyListQuery, CreatedApiKey } from '../schemas/api-keys.js';

/** Told when a key is revoked, so a cached credential stops working at once. */
export interface KeyRevocationListener {
  keyRevoked(keyId: string): void;
}

const isAdmin = (principal: Principal) => principal.role === 'owner' || principal.role === 'admin';

export class ApiKeyService {
  constructor(
    private readonly store: Store,
    private readonly keys: ApiKeyRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly listener: KeyRevocationListener,
  ) {}

  async list(principal: Principal, query: ApiKeyListQuery): Promise<PageResult<ApiKey>> {
    requireScope(principal, 'keys:write');
    const window = pageWindow(query);
    // For anyone but an admin, other people's keys do not exist.
    const userId = isAdmin(principal) ? query.user_id : principal.userId;
    if (!isAdmin(principal) && query.user_id !== undefined && query.user_id !== principal.userId) {
      return pageOf([], 0, window);
    }
    const { rows, total } = await this.store.run((db) => this.keys.list(db, principal.accountId, userId, window.limit, window.offset));
    return pageOf(rows.map(present), total, window);
  }

  async create(principal: Principal, input: ApiKeyCreate): Promise<CreatedApiKey> {
    requireScope(principal, 'keys:write');
    const targetId = input.user_id ?? principal.userId;
    if (targetId !== principal.userId && !isAdmin(principal)) throw forbidden('Only admins and owners may create keys for other users.');
    const errors: FieldError[] = [];
    if (input.expires_at !== undefined && !(new Date(input.expires_at).getTime() > this.clock().getTime())) {
      errors.push({ field: 'expires_at', code: 'invalid_value', message: 'expires_at must be in the future.' });
    }
    const target = await this.store.run((db) => this.users.get(db, principal.accountId, targetId));
    if (!target) {
      errors.push({ field: 'user_id', code: 'invalid_value', message: 'No such user in this account.' });
      throw invalid(errors);
    }
    // A key acts as its user: minting an owner's key is an owner's act, or admins could become owners.
    if (target.role === 'owner' && principal.role !== 'owner') throw forbidden("Only an owner may create an owner's key.");
    const kind = input.kind ?? 'management';
    const scopes = kind === 'delivery' ? deliveryScopeErrors(input.scopes, errors) : scopeErrors(target.role as Role, input.scopes, errors);
    if (errors.length) throw invalid(errors);
    const expiresAt = input.expires_at === undefined ? null : new Date(input.expires_at).toISOString();
    return this.store.transaction((tx) => this.issue(tx, principal.accountId, target.id, input.name, scopes, expiresAt, kind));
  }

  async revoke(principal: Principal, id: string): Promise<void> {
    requireScope(principal, 'keys:write');
    const now = this.clock().toISOString();
    await this.store.transaction(async (tx) => {
      const key = await this.keys.get(tx, principal.accountId, id);
      if (!key || (!isAdmin(principal) && key.user_id !== principal.userId)) throw notFound('API key');
      await this.keys.revoke(tx, principal.accountId, id, now);
    });
    this.listener.keyRevoked(id);
  }

  /** Stores a new key inside `tx` and returns its record with the plain key, shown this once. */
  async issue(tx: Tx, accountId: string, userId: string, name: string, scopes: Scope[], expiresAt: string | null = null, kind: CredentialKind = 'management'): Promise<CreatedApiKey> {
    const key = generateApiKey(kind);
    const row = {
      id: newId('key'),
      name,
      kind,
      prefix: displayPrefix(key),
      scopes: JSON.stringify(scopes),
      user_id: userId,
      created_at: this.clock().toISOString(),
      last_used_at: null,
      expires_at: expiresAt,
    };
    await this.keys.insert(tx, { ...row, account_id: accountId, key_hash: hashApiKey(key), revoked_at: null });
    return { ...present(row), key };
  }
}

function present(row: ApiKeyRow): ApiKey {
  return { ...row, scopes: JSON.parse(row.scopes) as Scope[] } as ApiKey;
}

/** A delivery key reads content, nothing else: content:read is the one scope it holds, whoever's it is. */
function deliveryScopeErrors(requested: string[] | undefined, errors: FieldError[]): Scope[] {
  requested?.forEach((scope, i) => {
    if (scope !== 'content:read') errors.push({ field: `scopes[${i}]`, code: 'invalid_value', message: `A delivery key holds content:read only, not "${scope}".` });
  });
  return ['content:read'];
}

/** The scopes a key for `role` gets: omitted → all the role may hold; each one named must be allowed. */
export function scopeErrors(role: Role, requested: string[] | undefined, errors: FieldError[]): Scope[] {
  if (!ROLES.includes(role)) throw new Error(`unknown role ${role}`);
  if (requested === undefined) return scopesForRole(role);
  requested.forEach((scope, i) => {
    if (!(SCOPES as readonly string[]).includes(scope)) {
      errors.push({ field: `scopes[${i}]`, code: 'invalid_value', message: `Unknown scope "${scope}".` });
    } else if (!roleMayHold(role, scope as Scope)) {
      errors.push({ field: `scopes[${i}]`, code: 'invalid_value', message: `The ${role} role may not hold "${scope}".` });
    }
  });
  return [...new Set(requested)] as Scope[];
}
