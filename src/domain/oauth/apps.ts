// OAuth apps as the API manages them (CONTRACT.md §15): register (the client secret shown once),
// read, change, delete, rotate the secret. Like API keys they need `keys:write`: everyone manages
// their own apps, admins and owners every app of the account; for anyone else another user's app
// does not exist. Deleting an app stops every grant and token of it at once here, within a second
// everywhere (the Authenticator's cache), and at once at the authorization server (the rows go).
import type { Db, Store } from '../../storage/db.js';
import type { OAuthAppRepository, PublicOAuthAppRow } from '../../storage/oauth-app-repository.js';
import { DomainError, invalid, notFound, type FieldError } from '../errors.js';
import { newId, type Clock } from '../ids.js';
import { requireScope, type Principal } from '../auth/permissions.js';
import type { CredentialListener } from '../auth/authenticator.js';
import { pageOf, pageWindow, type PageResult } from '../schemas/common.js';
import type { OAuthApp, OAuthAppCreate, OAuthAppListQuery, OAuthAppUpdate, OAuthAppWithSecret } from '../schemas/oauth.js';
import { GRANTABLE_SCOPES, type GrantableScope } from './scopes.js';
import { generateClientSecret, hashSecret } from './secrets.js';
import { redirectUriErrors } from './redirect-uris.js';

const isAdmin = (principal: Principal) => principal.role === 'owner' || principal.role === 'admin';

export class OAuthAppService {
  constructor(
    private readonly store: Store,
    private readonly apps: OAuthAppRepository,
    private readonly clock: Clock,
    private readonly listener: CredentialListener,
  ) {}

  async list(principal: Principal, query: OAuthAppListQuery): Promise<PageResult<OAuthApp>> {
    requireScope(principal, 'keys:write');
    const window = pageWindow(query);
    // For anyone but an admin, other people's apps do not exist.
    if (!isAdmin(principal) && query.user_id !== undefined && query.user_id !== principal.userId) return pageOf([], 0, window);
    const userId = isAdmin(principal) ? query.user_id : principal.userId;
    const { rows, total } = await this.store.run((db) => this.apps.list(db, principal.accountId, userId, window.limit, window.offset));
    return pageOf(rows.map(present), total, window);
  }

  async get(principal: Principal, id: string): Promise<OAuthApp> {
    requireScope(principal, 'keys:write');
    return present(await this.store.run((db) => this.visible(db, principal, id)));
  }

  async create(principal: Principal, input: OAuthAppCreate): Promise<OAuthAppWithSecret> {
    requireScope(principal, 'keys:write');
    const errors: FieldError[] = [];
    redirectUriErrors(input.redirect_uris, errors);
    if (errors.length) throw invalid(errors);
    const type = input.type ?? 'confidential';
    const secret = type === 'confidential' ? generateClientSecret() : undefined;
    const now = this.clock().toISOString();
    const row = {
      id: newId('app'),
      name: input.name,
      type,
      redirect_uris: JSON.stringify(input.redirect_uris),
      scopes: JSON.stringify(canonical(input.scopes ?? GRANTABLE_SCOPES)),
      user_id: principal.userId,
      created_at: now,
      updated_at: now,
    };
    await this.store.transaction((tx) =>
      this.apps.insert(tx, { ...row, account_id: principal.accountId, secret_hash: secret === undefined ? null : hashSecret(secret) }),
    );
    return { ...present(row), ...(secret === undefined ? {} : { client_secret: secret }) };
  }

  async update(principal: Principal, id: string, input: OAuthAppUpdate): Promise<OAuthApp> {
    requireScope(principal, 'keys:write');
    const errors: FieldError[] = [];
    if (input.redirect_uris !== undefined) redirectUriErrors(input.redirect_uris, errors);
    if (errors.length) throw invalid(errors);
    const updated = await this.store.transaction(async (tx) => {
      await this.visible(tx, principal, id);
      return this.apps.update(tx, principal.accountId, id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.redirect_uris !== undefined ? { redirect_uris: JSON.stringify(input.redirect_uris) } : {}),
        ...(input.scopes !== undefined ? { scopes: JSON.stringify(canonical(input.scopes)) } : {}),
        updated_at: this.clock().toISOString(),
      });
    });
    // Live tokens read the app's scopes with their credential: narrowed at once here, within a second elsewhere.
    if (input.scopes !== undefined) this.listener.forget(id);
    return present(updated!);
  }

  async remove(principal: Principal, id: string): Promise<void> {
    requireScope(principal, 'keys:write');
    await this.store.transaction(async (tx) => {
      await this.visible(tx, principal, id);
      await this.apps.delete(tx, principal.accountId, id);
    });
    this.listener.forget(id);
  }

  /** A new client secret, shown this once; the old one stops working at once. */
  async rotateSecret(principal: Principal, id: string): Promise<OAuthAppWithSecret> {
    requireScope(principal, 'keys:write');
    const secret = generateClientSecret();
    const updated = await this.store.transaction(async (tx) => {
      const app = await this.visible(tx, principal, id);
      if (app.type !== 'confidential') throw new DomainError('conflict', 'A public app has no client secret to rotate.');
      return this.apps.update(tx, principal.accountId, id, { secret_hash: hashSecret(secret), updated_at: this.clock().toISOString() });
    });
    return { ...present(updated!), client_secret: secret };
  }

  /** The app, if the caller may see it: their own, or any of the account's for an admin. */
  private async visible(db: Db, principal: Principal, id: string): Promise<PublicOAuthAppRow> {
    const app = await this.apps.get(db, principal.accountId, id);
    if (!app || (!isAdmin(principal) && app.user_id !== principal.userId)) throw notFound('OAuth app');
    return app;
  }
}

function canonical(scopes: readonly GrantableScope[]): GrantableScope[] {
  return GRANTABLE_SCOPES.filter((s) => scopes.includes(s));
}

function present(row: PublicOAuthAppRow): OAuthApp {
  return {
    ...row,
    type: row.type as OAuthApp['type'],
    redirect_uris: JSON.parse(row.redirect_uris) as string[],
    scopes: JSON.parse(row.scopes) as GrantableScope[],
  };
}
