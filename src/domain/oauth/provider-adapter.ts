// The authorization server's storage (oidc-provider's adapter interface) over our own store, in both
// dialects. Apps are read from oauth_apps; grants, tokens and codes live in tables of their own with
// the columns our queries need; tokens and codes are keyed by the SHA-256 of their value, which is
// left out of the stored record. Every deletion also reaches the Authenticator, so a revoked token
// stops working at once on this instance. The server's own browser session is never kept: signing in
// is the dashboard session's job (docs/oauth.md), so no second sign-in state can disagree with it.
// A refresh token rotated moments ago is not a replay (refresh-grace.ts): it reads as unused, and its
// consume() throws RotatedJustNow so that the rotation's answer is repeated instead of the chain revoked.
// Every write is a transaction of its own, so that on SQLite writes arriving together share one
// commit (group commit) instead of one fsync each.
import type { Store } from '../../storage/db.js';
import type { OAuthAppRepository } from '../../storage/oauth-app-repository.js';
import type { OAuthGrantRepository } from '../../storage/oauth-grant-repository.js';
import type { OAuthTokenRepository } from '../../storage/oauth-token-repository.js';
import type { UserRepository } from '../../storage/user-repository.js';
import type { CredentialListener } from '../auth/authenticator.js';
import type { Clock } from '../ids.js';
import { redirectUriAllowed } from './redirect-uris.js';
import { RotatedJustNow, withinGrace } from './refresh-grace.js';
import { grantableOf } from './scopes.js';
import { hashSecret } from './secrets.js';

/** What the authorization server stores about one artifact (its own shape). */
export type Payload = Record<string, unknown> & { exp?: number; accountId?: string; clientId?: string; grantId?: string; scope?: string };

/** oidc-provider's adapter interface. */
export interface ProviderAdapter {
  upsert(id: string, payload: Payload, expiresIn: number): Promise<void>;
  find(id: string): Promise<Payload | undefined>;
  findByUid(uid: string): Promise<Payload | undefined>;
  findByUserCode(userCode: string): Promise<Payload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

export interface AdapterDeps {
  store: Store;
  apps: OAuthAppRepository;
  grants: OAuthGrantRepository;
  tokens: OAuthTokenRepository;
  users: UserRepository;
  clock: Clock;
  listener: CredentialListener;
  /** The error a token request gets when its code or refresh token turns out to be used already (oidc-provider's InvalidGrant). */
  invalidGrant: (description: string) => Error;
}

const TOKEN_KINDS = new Set(['AccessToken', 'ClientCredentials', 'RefreshToken', 'AuthorizationCode']);

/** The adapter for one of the authorization server's models. */
export function providerAdapter(deps: AdapterDeps, model: string): ProviderAdapter {
  if (model === 'Client') return { ...NOTHING, find: (id) => findClient(deps, id) };
  if (model === 'Session') return NOTHING;
  if (model === 'Grant') return grantAdapter(deps);
  if (TOKEN_KINDS.has(model)) return tokenAdapter(deps, model);
  return recordAdapter(deps, model);
}

const NOTHING: ProviderAdapter = {
  upsert: async () => {},
  find: async () => undefined,
  findByUid: async () => undefined,
  findByUserCode: async () => undefined,
  consume: async () => {},
  destroy: async () => {},
  revokeByGrantId: async () => {},
};

const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();

/** An app as client metadata: confidential apps authenticate with their (hashed) secret, public ones with PKCE alone. */
async function findClient(deps: AdapterDeps, id: string): Promise<Payload | undefined> {
  const app = await deps.store.run((db) => deps.apps.findAnyAccount(db, id));
  if (!app) return undefined;
  const confidential = app.type === 'confidential';
  return {
    client_id: app.id,
    client_name: app.name,
    redirect_uris: JSON.parse(app.redirect_uris) as string[],
    response_types: ['code'],
    // Public apps too, so that their client credentials request reaches the grant's own refusal (unauthorized_client).
    grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
    token_endpoint_auth_method: confidential ? 'client_secret_basic' : 'none',
    // The hash, compared with the hash of what a client presents (see provider.ts).
    ...(confidential && app.secret_hash !== null ? { client_secret: app.secret_hash } : {}),
    scope: (JSON.parse(app.scopes) as string[]).join(' '),
    user_id: app.user_id,
  };
}

function grantAdapter(deps: AdapterDeps): ProviderAdapter {
  const { store, grants, users, clock, listener } = deps;
  return {
    ...NOTHING,
    async upsert(id, payload) {
      const { jti: _jti, ...rest } = payload;
      const person = await store.run((db) => users.findByIdAnyAccount(db, String(payload.accountId)));
      if (!person) throw deps.invalidGrant('the person of this grant no longer exists');
      const scope = (payload.openid as { scope?: string } | undefined)?.scope;
      await store.transaction((tx) =>
        grants.upsertAnyAccount(tx, {
          id,
          account_id: person.account_id,
          user_id: person.id,
          app_id: String(payload.clientId),
          scopes: JSON.stringify(grantableOf(scope)),
          payload: JSON.stringify(rest),
          created_at: clock().toISOString(),
          last_used_at: null,
          expires_at: iso(payload.exp!),
        }),
      );
    },
    // Read as it stands now: its scopes narrowed to what the app may ask for today, so a code exchange
    // or a refresh (both filter by the grant) never gives back a scope its owner has removed since.
    // The person's role narrows every token at each use instead (token-credentials.ts), so that a
    // promotion lets a granted scope count again, as CONTRACT.md §15 has it.
    async find(id) {
      const row = await store.run((db) => grants.findWithAppScopesAnyAccount(db, id));
      if (!row) return undefined;
      const payload = JSON.parse(row.payload) as Payload & { openid?: { scope?: string } };
      if (payload.openid) {
        const appScopes = JSON.parse(row.app_scopes) as string[];
        payload.openid = { ...payload.openid, scope: grantableOf(payload.openid.scope).filter((s) => appScopes.includes(s)).join(' ') };
      }
      return { ...payload, jti: id };
    },
    async destroy(id) {
      await store.transaction((db) => grants.deleteAnyAccount(db, id));
      listener.forget(id);
    },
  };
}

function tokenAdapter(deps: AdapterDeps, kind: string): ProviderAdapter {
  const { store, grants, tokens, clock, listener } = deps;
  return {
    ...NOTHING,
    async upsert(value, payload) {
      const { jti: _jti, ...rest } = payload;
      // Client credentials act as the app's registering user (provider.ts puts them in `extra.sub`).
      const userId = payload.accountId ?? (payload.extra as { sub?: string } | undefined)?.sub;
      const row = {
        hash: hashSecret(value),
        kind,
        app_id: String(payload.clientId),
        grant_id: payload.grantId ?? null,
        user_id: String(userId),
        scope: payload.scope ?? '',
        payload: JSON.stringify(rest),
        created_at: clock().toISOString(),
        expires_at: iso(payload.exp!),
        consumed_at: null,
      };
      try {
        await store.transaction((db) => tokens.insert(db, row));
      } catch (error) {
        // The grant was revoked while this token was being issued (a replayed code or refresh token).
        if (row.grant_id !== null && !(await store.run((db) => grants.findAnyAccount(db, row.grant_id!)))) {
          throw deps.invalidGrant('the grant was revoked');
        }
        throw error;
      }
    },
    async find(value) {
      const row = await store.run((db) => tokens.findByHash(db, hashSecret(value)));
      if (!row || row.kind !== kind) return undefined;
      if (kind === 'AuthorizationCode' && !(await redirectStillRegistered(deps, row.app_id, JSON.parse(row.payload) as Payload))) return undefined;
      // A refresh token rotated moments ago is shown unused: its consume() then says so (RotatedJustNow)
      // and the same answer is given again, rather than the chain revoked (refresh-grace.ts).
      const graced = kind === 'RefreshToken' && row.consumed_at !== null && withinGrace(row.consumed_at, clock());
      const consumed = row.consumed_at === null || graced ? {} : { consumed: Math.floor(Date.parse(row.consumed_at) / 1000) };
      return { ...(JSON.parse(row.payload) as Payload), jti: value, ...consumed };
    },
    async consume(value) {
      const hash = hashSecret(value);
      if (await store.transaction((db) => tokens.consume(db, hash, clock().toISOString()))) return;
      // Another request used it between the server's check and now. A refresh token rotated within the
      // grace is a retry of that rotation (refresh-grace.ts); anything else is the replay it looks like.
      const row = await store.run((db) => tokens.findByHash(db, hash));
      if (row?.kind === 'RefreshToken' && row.consumed_at !== null && withinGrace(row.consumed_at, clock())) throw new RotatedJustNow();
      if (row?.grant_id) {
        await store.transaction((db) => grants.deleteAnyAccount(db, row.grant_id!));
        listener.forget(row.grant_id);
      }
      throw deps.invalidGrant('already used');
    },
    async destroy(value) {
      const hash = hashSecret(value);
      await store.transaction((db) => tokens.deleteByHash(db, hash));
      listener.forget(hash);
    },
    async revokeByGrantId(grantId) {
      await store.transaction((db) => tokens.deleteByGrant(db, grantId));
      listener.forget(grantId);
    },
  };
}

/**
 * Whether a code's redirect URI is still one its app registers: removing the URI (or the app) makes
 * the codes issued for it unredeemable at once (issue 21 P3-5), whoever asks and on whichever instance.
 */
async function redirectStillRegistered(deps: AdapterDeps, appId: string, code: Payload): Promise<boolean> {
  const app = await deps.store.run((db) => deps.apps.findAnyAccount(db, appId));
  return app !== undefined && typeof code.redirectUri === 'string' && redirectUriAllowed(JSON.parse(app.redirect_uris) as string[], code.redirectUri);
}

/** Interactions (a sign-in and consent in progress) and anything else short-lived. */
function recordAdapter(deps: AdapterDeps, kind: string): ProviderAdapter {
  const { store, tokens, clock } = deps;
  return {
    ...NOTHING,
    async upsert(id, payload, expiresIn) {
      const expiresAt = payload.exp === undefined ? new Date(clock().getTime() + expiresIn * 1000).toISOString() : iso(payload.exp);
      await store.transaction((db) => tokens.upsertRecord(db, { kind, id, payload: JSON.stringify(payload), expires_at: expiresAt }));
    },
    async find(id) {
      const row = await store.run((db) => tokens.findRecord(db, kind, id));
      return row && (JSON.parse(row.payload) as Payload);
    },
    async consume(id) {
      const row = await store.run((db) => tokens.findRecord(db, kind, id));
      if (!row) return;
      const payload = { ...(JSON.parse(row.payload) as Payload), consumed: Math.floor(clock().getTime() / 1000) };
      await store.transaction((db) => tokens.upsertRecord(db, { ...row, payload: JSON.stringify(payload) }));
    },
    async destroy(id) {
      await store.transaction((db) => tokens.deleteRecord(db, kind, id));
    },
  };
}
