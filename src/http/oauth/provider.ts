// The authorization server: oidc-provider (a maintained, OpenID-certified library that implements the
// protocol: PKCE, codes, refresh rotation and reuse detection, client authentication, revocation,
// introspection, RFC 9207's `iss`) configured as the plain OAuth 2.0 server of CONTRACT.md §15. The
// glue is ours: storage (domain/oauth/provider-adapter.ts), the token and secret formats (the models'
// id and secret hooks below), the sign-in and consent pages (interactions.tsx), and the error page.
// The library is loaded on first use, by the server only: it says once at import that it prefers
// Node 22, which the service does not need (docs/oauth.md records the check on Node 20).
import type { default as ProviderType, Configuration, KoaContextWithOIDC, TokenEndpointGrantContext } from 'oidc-provider';
import type { GrantableScope } from '../../domain/oauth/scopes.js';
import { GRANTABLE_SCOPES } from '../../domain/oauth/scopes.js';
import { SCOPES } from '../../domain/auth/permissions.js';
import { redirectUriAllowed } from '../../domain/oauth/redirect-uris.js';
import { generateAccessToken, generateRefreshToken, secretMatches } from '../../domain/oauth/secrets.js';
import type { ProviderAdapter } from '../../domain/oauth/provider-adapter.js';
import type { ServerKeys } from '../../domain/oauth/server-keys.js';
import { newId } from '../../domain/ids.js';
import { RotatedJustNow, type RefreshGrace } from '../../domain/oauth/refresh-grace.js';

export type Provider = ProviderType;
type Library = typeof import('oidc-provider');

/** Where the server lives; clients find these paths in /.well-known/oauth-authorization-server. */
export const OAUTH_PREFIX = '/oauth';
export const INTERACTION_PATH = `${OAUTH_PREFIX}/interaction`;
const ROUTES = {
  authorization: `${OAUTH_PREFIX}/authorize`,
  token: `${OAUTH_PREFIX}/token`,
  revocation: `${OAUTH_PREFIX}/revoke`,
  introspection: `${OAUTH_PREFIX}/introspect`,
  jwks: `${OAUTH_PREFIX}/jwks`,
  // The features behind these are off; their paths stay under the prefix all the same.
  userinfo: `${OAUTH_PREFIX}/userinfo`,
  end_session: `${OAUTH_PREFIX}/session/end`,
  pushed_authorization_request: `${OAUTH_PREFIX}/par`,
  registration: `${OAUTH_PREFIX}/register`,
  code_verification: `${OAUTH_PREFIX}/device`,
  device_authorization: `${OAUTH_PREFIX}/device/auth`,
  backchannel_authentication: `${OAUTH_PREFIX}/backchannel`,
  challenge: `${OAUTH_PREFIX}/challenge`,
  credential: `${OAUTH_PREFIX}/credential`,
};

/** What the server supports, as discovery publishes it; the response types and client authentication methods configure the library too. */
export const SUPPORTED = {
  scopes: GRANTABLE_SCOPES as readonly GrantableScope[],
  responseTypes: ['code'],
  grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
  codeChallengeMethods: ['S256'],
  clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
} as const;

/** Lifetimes in seconds (docs/oauth.md). */
export const TTL = {
  accessToken: 3600,
  code: 60,
  /** Since last use: every refresh issues a new refresh token with a new lifetime. */
  refreshToken: 30 * 86_400,
  /** A sign-in and consent in progress. */
  interaction: 3600,
  /** A person's grant to an app: until revoked, or after five years asked again. */
  grant: 5 * 365 * 86_400,
};

export interface ProviderDeps {
  issuer: string;
  keys: ServerKeys;
  /** The storage adapter of a model; `invalidGrant` builds the library's own error. */
  adapter: (model: string, invalidGrant: (description: string) => Error) => ProviderAdapter;
  /** Whether the user (the token's `sub`) still exists. */
  userExists(userId: string): Promise<boolean>;
  /** The HTML page for an error that cannot be sent back to the app (an unknown app, a redirect_uri it did not register). */
  renderError(ctx: KoaContextWithOIDC, error: { error: string; error_description?: string }): void;
  /** Behind a TLS-terminating proxy (TLS=off), trust its X-Forwarded-Proto for secure cookies. */
  proxy: boolean;
  /** Keeps and repeats the answer of a refresh, for a retry within the grace (domain/oauth/refresh-grace.ts). */
  refreshGrace: Pick<RefreshGrace, 'remember' | 'replay'>;
}

type GrantHandler = Parameters<ProviderType['registerGrantType']>[1];
type RegisterRest = Parameters<ProviderType['registerGrantType']> extends [string, unknown, ...infer R] ? R : never;
type CanBePromise<T> = T | Promise<T>;
type GrantContext = Parameters<GrantHandler>[0];

/**
 * The library's refresh grant, with the grace of issue 21 P3-9 around it: a success is kept (for the
 * grace, sealed under the old token); a retry the storage adapter recognises (RotatedJustNow: the
 * same token rotated moments ago) gets that same answer instead of an error, and the chain lives.
 * Reuse after the grace reaches the library's own reuse detection, which revokes the chain.
 */
function withRefreshGrace(handler: GrantHandler, grace: ProviderDeps['refreshGrace'], errors: Library['errors']): GrantHandler {
  return async (ctx: GrantContext) => {
    const presented = String(ctx.oidc.params.refresh_token ?? '');
    const clientId = ctx.oidc.client.clientId;
    try {
      await handler(ctx);
    } catch (error) {
      if (!(error instanceof RotatedJustNow)) throw error;
      const answer = await grace.replay(presented, clientId);
      if (!answer) throw new errors.InvalidGrant('refresh token already used');
      ctx.body = answer;
      return;
    }
    await grace.remember(presented, clientId, ctx.body as Record<string, unknown>);
  };
}

/**
 * Client credentials (RFC 6749 §4.4) as CONTRACT.md §15 has them, through the library's hook for
 * grant types: confidential apps only (`unauthorized_client`, where the library would say
 * invalid_request), the app's own scopes when none are named, scopes treated as in the code flow
 * (unknown ones dropped, known ones the app may not ask for refused, where the library would pass
 * both through into the token). The token is the library's own.
 */
function clientCredentials(provider: Provider, errors: Library['errors']) {
  return async (ctx: KoaContextWithOIDC) => {
    const client = ctx.oidc.client!;
    if (client.clientAuthMethod === 'none') throw new errors.UnauthorizedClient('client credentials are for confidential apps only');
    const allowed = (client.scope ?? '').split(' ');
    const raw = typeof ctx.oidc.params?.scope === 'string' ? ctx.oidc.params.scope.split(' ').filter(Boolean) : [];
    const named = raw.filter((scope) => (SCOPES as readonly string[]).includes(scope));
    const refused = named.find((scope) => !allowed.includes(scope));
    if (refused !== undefined) throw new errors.InvalidScope('requested scope is not allowed', refused);
    if (raw.length > 0 && named.length === 0) throw new errors.InvalidScope('none of the requested scopes is known', raw.join(' '));
    const scope = GRANTABLE_SCOPES.filter((s) => (raw.length > 0 ? named : allowed).includes(s)).join(' ');
    const token = new provider.ClientCredentials({ client, scope });
    ctx.body = { access_token: await token.save(), expires_in: token.expiration, token_type: 'Bearer', scope };
  };
}

/** What the library answers `400 invalid_request` although the client failed to authenticate (its own descriptions). */
const CLIENT_AUTH_FAILURES = new Set([
  'client_secret must be provided in the Authorization header',
  'invalid authorization header value format',
  'client_id and client_secret in the authorization header are not properly encoded',
  'no client authentication mechanism provided',
  'client_id mismatch',
]);

/**
 * RFC 6749 §5.2 at the endpoints that authenticate the client (token, revocation, introspection):
 * any failed client authentication — an empty Basic secret, a malformed Basic header, no client at
 * all included — is `401 invalid_client` with `WWW-Authenticate: Basic`, whichever way the client
 * tried (the library sends the header only after a Basic attempt, and answers some failures `400`).
 * Two authentication methods at once stays `400 invalid_request`, as §5.2 says.
 */
function clientAuthFailures(issuer: string, paths: ReadonlySet<string>) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<unknown>) => {
    await next();
    if (ctx.method !== 'POST' || !paths.has(ctx.path)) return;
    const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
    if (ctx.status === 400 && body?.error === 'invalid_request' && CLIENT_AUTH_FAILURES.has(String(body.error_description))) {
      ctx.status = 401;
      ctx.body = { error: 'invalid_client', error_description: body.error_description };
    }
    if (ctx.status === 401 && (ctx.body as { error?: unknown } | undefined)?.error === 'invalid_client' && !ctx.response.get('WWW-Authenticate')) {
      ctx.set('WWW-Authenticate', `Basic realm="${issuer}", error="invalid_client"`);
    }
  };
}

/** The models' hook for a new artifact's id, which is an opaque token's value (the published types leave it out). */
interface TokenIdHook {
  generateTokenId(this: { format?: string }): string;
}

function tokenIds(model: { prototype: object }, generate: () => string): void {
  (model.prototype as TokenIdHook).generateTokenId = function () {
    this.format = 'opaque';
    return generate();
  };
}

/** Imports the library, leaving out the one line it prints about preferring Node 22 (see the file's opening). */
async function loadLibrary(): Promise<Library> {
  /* eslint-disable no-console -- the library writes that line with console.warn at import; only it is left out */
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime.')) return;
    warn(...args);
  };
  try {
    return await import('oidc-provider');
  } finally {
    console.warn = warn;
  }
  /* eslint-enable no-console */
}

export async function createProvider(deps: ProviderDeps): Promise<Provider> {
  const library = await loadLibrary();
  const { Provider, interactionPolicy, errors } = library;
  const { Check } = interactionPolicy;

  // Every authorization request is decided on our own pages, which consult the dashboard session:
  // the library's own sign-in state never stands in for it (docs/oauth.md, "Sessions").
  const policy = interactionPolicy.base();
  policy.get('login')!.checks.add(
    new Check('sign_in_here', "the person signs in and consents on the service's own pages", 'login_required', (ctx) =>
      ctx.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
    ),
    0,
  );

  const configuration: Configuration = {
    adapter: (model: string) => deps.adapter(model, (description) => new library.errors.InvalidGrant(description)),
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'ES256',
    },
    clientAuthMethods: [...SUPPORTED.clientAuthMethods],
    // The redirect_uri is required in every authorization and token request (RFC 9700 §2.1).
    allowOmittingSingleRegisteredRedirectUri: false,
    cookies: {
      keys: deps.keys.cookies,
      names: { session: 'cms_oauth_session', interaction: 'cms_oauth_interaction', resume: 'cms_oauth_resume' },
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    extraClientMetadata: { properties: ['user_id'] },
    // Browsers may call the token endpoint for public apps, from the origins of their redirect URIs;
    // a confidential app's secret does not belong in a browser.
    clientBasedCORS: (_ctx, origin, client) =>
      client.clientAuthMethod === 'none' && (client.redirectUris ?? []).some((uri) => URL.canParse(uri) && new URL(uri).origin === origin),
    // Client credentials act as the app's registering user: introspection names them in `sub`.
    extraTokenClaims: (ctx, token) => (token.kind === 'ClientCredentials' ? { sub: (ctx.oidc.client as unknown as { user_id: string }).user_id } : undefined),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      // An app sees and revokes only its own tokens; for any other the answer is the same as for an unknown one.
      introspection: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
    },
    pkce: { required: () => true },
    responseTypes: [...SUPPORTED.responseTypes],
    // Every scope of the service is known, so asking for keys:write (which no app may hold) is refused
    // with invalid_scope; scopes the service does not know are dropped, as RFC 6749 §3.3 allows.
    scopes: [...SCOPES],
    jwks: { keys: deps.keys.signing as never },
    ttl: {
      AccessToken: TTL.accessToken,
      ClientCredentials: TTL.accessToken,
      AuthorizationCode: TTL.code,
      RefreshToken: TTL.refreshToken,
      Grant: TTL.grant,
      Interaction: TTL.interaction,
      // Never stored (see the adapter); the library wants a figure all the same.
      Session: TTL.interaction,
      IdToken: TTL.accessToken,
    },
    // RFC 9700 §4.14.2: every refresh rotates; presenting a used one revokes the grant and its tokens.
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId === undefined ? undefined : ctx.oidc.provider.Grant.find(grantId);
    },
    interactions: { policy, url: async (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    findAccount: async (_ctx, sub) => ((await deps.userExists(sub)) ? { accountId: sub, claims: async () => ({ sub }) } : undefined),
    renderError: async (ctx, out) => deps.renderError(ctx, out),
    routes: ROUTES,
  };

  // The library registers its grants from its constructor: the refresh grant is wrapped as it is registered.
  class GracefulProvider extends Provider {
    override registerGrantType<Params extends object>(
      name: string,
      handler: (ctx: TokenEndpointGrantContext<Params>) => CanBePromise<void>,
      ...rest: RegisterRest
    ): void {
      const wrapped = name === 'refresh_token' ? (withRefreshGrace(handler as GrantHandler, deps.refreshGrace, errors) as typeof handler) : handler;
      super.registerGrantType(name, wrapped, ...rest);
    }
  }
  const provider = new GracefulProvider(deps.issuer, configuration);
  provider.proxy = deps.proxy;
  provider.use(clientAuthFailures(provider.issuer, new Set([ROUTES.token, ROUTES.revocation, ROUTES.introspection])));

  // Our formats: prefixed opaque tokens (secret scanners match them), `grant_` ids, hashed client secrets.
  tokenIds(provider.AccessToken, generateAccessToken);
  tokenIds(provider.ClientCredentials, generateAccessToken);
  tokenIds(provider.RefreshToken, generateRefreshToken);
  tokenIds(provider.Grant, () => newId('grant'));
  provider.Client.prototype.compareClientSecret = function (this: { clientSecret?: string }, presented: string) {
    return this.clientSecret !== undefined && secretMatches(presented, this.clientSecret);
  };
  provider.registerGrantType('client_credentials', clientCredentials(provider, errors), 'scope');
  provider.Client.prototype.redirectUriAllowed = function (this: { redirectUris: string[] }, presented: string) {
    return redirectUriAllowed(this.redirectUris, presented);
  };
  return provider;
}
