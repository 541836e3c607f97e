// OAuth access tokens as credentials for the Authenticator (CONTRACT.md §15): `cms_oat_…`, found by
// hash with their person, account and app, acting as that person with the granted scopes narrowed to
// what their current role may hold and what the app may now ask for. Their requests count under a per-app pseudo key id, and their use
// is recorded on the grant (the connected app's `last_used_at`).
import type { Store } from '../../storage/db.js';
import type { OAuthGrantRepository } from '../../storage/oauth-grant-repository.js';
import type { OAuthTokenRepository } from '../../storage/oauth-token-repository.js';
import type { Credential, CredentialSource } from '../auth/authenticator.js';
import type { Role } from '../auth/permissions.js';
import { effectiveScopes } from './scopes.js';
import { looksLikeAccessToken } from './secrets.js';

/** Requests made with an app's tokens are counted under `oauth:<app id>:<user id>` (GET /v1/usage groups them by app). */
export const APP_USAGE_PREFIX = 'oauth:';
export const appUsageId = (appId: string, userId: string) => `${APP_USAGE_PREFIX}${appId}:${userId}`;

/** The app and person of a usage id made by appUsageId, or undefined for any other id. */
export function parseAppUsageId(id: string): { appId: string; userId: string } | undefined {
  if (!id.startsWith(APP_USAGE_PREFIX)) return undefined;
  const [appId, userId] = id.slice(APP_USAGE_PREFIX.length).split(':');
  return appId && userId ? { appId, userId } : undefined;
}

export class AccessTokenCredentials implements CredentialSource {
  constructor(
    private readonly store: Store,
    private readonly tokens: OAuthTokenRepository,
    private readonly grants: OAuthGrantRepository,
  ) {}

  accepts(value: string): boolean {
    return looksLikeAccessToken(value);
  }

  async find(hash: string): Promise<Credential | undefined> {
    const row = await this.store.run((db) => this.tokens.findPrincipal(db, hash));
    if (!row) return undefined;
    const role = row.role as Role;
    return {
      principal: {
        accountId: row.account_id,
        userId: row.user_id,
        keyId: appUsageId(row.app_id, row.user_id),
        kind: 'management',
        credential: 'oauth_token',
        role,
        scopes: effectiveScopes(row.scope, role, JSON.parse(row.app_scopes) as string[]),
        plan: row.plan,
        rateLimit: row.rate_limit === null ? null : Number(row.rate_limit),
        quota: row.quota === null ? null : Number(row.quota),
        accountCreatedAt: row.account_created_at,
      },
      expiresAt: row.expires_at,
      dependsOn: [row.user_id, row.app_id, row.app_user_id, ...(row.grant_id === null ? [] : [row.grant_id])],
      lastUsedId: row.grant_id ?? undefined,
    };
  }

  touch(lastUsed: Map<string, string>): Promise<void> {
    return this.store.run((db) => this.grants.touch(db, lastUsed));
  }
}
