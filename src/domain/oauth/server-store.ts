// Everything the authorization server keeps, in one place for the composition root: the storage
// adapter for each of its models, its keys, whether a person still exists, and the hourly removal of
// expired tokens, codes, grants and sign-ins in progress.
import type { Store } from '../../storage/db.js';
import type { AccountRepository } from '../../storage/account-repository.js';
import type { OAuthAppRepository } from '../../storage/oauth-app-repository.js';
import type { OAuthGrantRepository } from '../../storage/oauth-grant-repository.js';
import type { OAuthTokenRepository } from '../../storage/oauth-token-repository.js';
import type { UserRepository } from '../../storage/user-repository.js';
import type { CredentialListener } from '../auth/authenticator.js';
import type { Clock } from '../ids.js';
import { providerAdapter, type ProviderAdapter } from './provider-adapter.js';
import { RefreshGrace } from './refresh-grace.js';
import { serverKeys, type ServerKeys } from './server-keys.js';

export interface ServerStoreDeps {
  store: Store;
  apps: OAuthAppRepository;
  grants: OAuthGrantRepository;
  tokens: OAuthTokenRepository;
  users: UserRepository;
  settings: AccountRepository;
  clock: Clock;
  listener: CredentialListener;
}

export class AuthorizationServerStore {
  /** The answers of refreshes that rotated a token moments ago (refresh-grace.ts). */
  readonly refreshGrace: RefreshGrace;

  constructor(private readonly deps: ServerStoreDeps) {
    this.refreshGrace = new RefreshGrace(deps.store, deps.tokens, deps.clock);
  }

  /** The adapter for one model; `invalidGrant` makes the library's own error for a replayed code or refresh token. */
  adapter(model: string, invalidGrant: (description: string) => Error): ProviderAdapter {
    return providerAdapter({ ...this.deps, invalidGrant }, model);
  }

  keys(): Promise<ServerKeys> {
    return serverKeys(this.deps.store, this.deps.settings);
  }

  async userExists(userId: string): Promise<boolean> {
    return (await this.deps.store.run((db) => this.deps.users.findByIdAnyAccount(db, userId))) !== undefined;
  }

  /** Deletes what has expired: tokens, codes, sign-ins in progress, grants. */
  async prune(): Promise<void> {
    const now = this.deps.clock().toISOString();
    await this.deps.store.run((db) => this.deps.tokens.prune(db, now));
    await this.deps.store.run((db) => this.deps.grants.prune(db, now));
  }
}
