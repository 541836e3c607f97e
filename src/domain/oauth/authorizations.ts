// Connected apps (CONTRACT.md §15): the grants a person gave, which they list and revoke (revoking
// a grant kills every token of it), and the remembered consent the sign-in pages consult. Managing
// them needs `keys:write` like keys and apps, so an OAuth token never manages connections.
import type { Store } from '../../storage/db.js';
import type { OAuthAppRepository } from '../../storage/oauth-app-repository.js';
import type { OAuthGrantRepository } from '../../storage/oauth-grant-repository.js';
import { notFound } from '../errors.js';
import type { Clock } from '../ids.js';
import { requireScope, type Principal } from '../auth/permissions.js';
import type { CredentialListener } from '../auth/authenticator.js';
import { pageOf, pageWindow, type PageResult } from '../schemas/common.js';
import type { ConnectedApp, ConnectedAppListQuery } from '../schemas/oauth.js';
import type { GrantableScope } from './scopes.js';

/** An app as the sign-in and consent pages need it. */
export interface AppForConsent {
  id: string;
  name: string;
  scopes: GrantableScope[];
}

export class OAuthAuthorizationService {
  constructor(
    private readonly store: Store,
    private readonly grants: OAuthGrantRepository,
    private readonly apps: OAuthAppRepository,
    private readonly clock: Clock,
    private readonly listener: CredentialListener,
  ) {}

  async list(principal: Principal, query: ConnectedAppListQuery): Promise<PageResult<ConnectedApp>> {
    requireScope(principal, 'keys:write');
    const window = pageWindow(query);
    const now = this.clock().toISOString();
    const { rows, total } = await this.store.run((db) =>
      this.grants.listConnected(db, principal.accountId, principal.userId, now, window.limit, window.offset),
    );
    return pageOf(
      rows.map((row) => ({
        id: row.id,
        app: { id: row.app_id, name: row.app_name },
        scopes: JSON.parse(row.scopes) as GrantableScope[],
        created_at: row.created_at,
        last_used_at: row.last_used_at,
      })),
      total,
      window,
    );
  }

  /** Revokes one of the caller's grants and every token of it. */
  async revoke(principal: Principal, id: string): Promise<void> {
    requireScope(principal, 'keys:write');
    const deleted = await this.store.transaction((tx) => this.grants.delete(tx, principal.accountId, principal.userId, id));
    if (!deleted) throw notFound('Authorization');
    this.listener.forget(id);
  }

  /** The person's live grant to the app when it covers every scope of `requested`: their consent is remembered. */
  async rememberedGrant(accountId: string, userId: string, appId: string, requested: readonly string[]): Promise<string | undefined> {
    const grant = await this.store.run((db) => this.grants.latest(db, accountId, userId, appId, this.clock().toISOString()));
    if (!grant) return undefined;
    const granted = JSON.parse(grant.scopes) as string[];
    return requested.every((scope) => granted.includes(scope)) ? grant.id : undefined;
  }

  /** The person's newest live grant to the app, whatever it covers: a new consent adds to it. */
  async latestGrant(accountId: string, userId: string, appId: string): Promise<string | undefined> {
    return (await this.store.run((db) => this.grants.latest(db, accountId, userId, appId, this.clock().toISOString())))?.id;
  }

  /** Service-wide: the app a sign-in is for may belong to any account. */
  async app(appId: string): Promise<AppForConsent | undefined> {
    const row = await this.store.run((db) => this.apps.findAnyAccount(db, appId));
    return row && { id: row.id, name: row.name, scopes: JSON.parse(row.scopes) as GrantableScope[] };
  }
}
