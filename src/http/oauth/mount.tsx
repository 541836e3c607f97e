// The authorization server in the HTTP app (CONTRACT.md §15): RFC 8414 metadata at
// /.well-known/oauth-authorization-server, the sign-in and consent pages, and everything else under
// /oauth handed as raw request and response to oidc-provider before Fastify reads the body (the
// protocol speaks form posts; the API accepts JSON only). None of it is the API: no envelope, no
// rate-limit headers, not counted; each request still gets its request id and one log line. The
// server is built on first use, when the public URL (its issuer) is known.
import type { EventEmitter } from 'node:events';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { AuthorizationServerStore } from '../../domain/oauth/server-store.js';
import { pageHeaders, renderPage } from '../pages/page.js';
import { pagesScope } from '../pages/plugin.js';
import { interactionRoutes, type InteractionDeps } from './interactions.js';
import { ErrorText } from './pages.js';
import { createProvider, OAUTH_PREFIX, SUPPORTED, type Provider } from './provider.js';

export const DISCOVERY_PATH = '/.well-known/oauth-authorization-server';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

export interface OAuthDeps extends Omit<InteractionDeps, 'provider'> {
  server: AuthorizationServerStore;
  /** The issuer: PUBLIC_URL, or this instance's address once it listens. */
  publicUrl: () => string;
  /** Behind a TLS-terminating proxy (TLS=off). */
  proxy: boolean;
}

export function oauthRoutes(deps: OAuthDeps): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    let built: Promise<{ provider: Provider; handle: ReturnType<Provider['callback']> }> | undefined;
    const server = () => {
      built ??= build(deps, app.log).catch((error: unknown) => {
        built = undefined;
        throw error;
      });
      return built;
    };
    const provider = async () => (await server()).provider;

    app.get(DISCOVERY_PATH, { schema: { hide: true }, config: { raw: true } }, async (_request, reply) => {
      const p = await provider();
      reply.header('Cache-Control', 'public, max-age=300');
      return {
        issuer: p.issuer,
        authorization_endpoint: p.urlFor('authorization'),
        token_endpoint: p.urlFor('token'),
        revocation_endpoint: p.urlFor('revocation'),
        introspection_endpoint: p.urlFor('introspection'),
        scopes_supported: SUPPORTED.scopes,
        response_types_supported: SUPPORTED.responseTypes,
        grant_types_supported: SUPPORTED.grantTypes,
        code_challenge_methods_supported: SUPPORTED.codeChallengeMethods,
        token_endpoint_auth_methods_supported: SUPPORTED.clientAuthMethods,
        authorization_response_iss_parameter_supported: true,
      };
    });

    app.route({
      method: [...METHODS],
      url: `${OAUTH_PREFIX}/*`,
      schema: { hide: true },
      // Before the body is read: the library reads it itself.
      onRequest: async (request, reply) => {
        const { handle } = await server();
        reply.hijack();
        // What the hooks before this one set (the request id, the security headers) would only be
        // written by reply.send(), which a hijacked reply never calls: hand them over to the raw answer.
        for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
        await handle(request.raw, reply.raw);
      },
      handler: async () => undefined,
    });

    await app.register(pagesScope(interactionRoutes({ ...deps, provider })));
  };
}

async function build(deps: OAuthDeps, log: FastifyBaseLogger) {
  const keys = await deps.server.keys();
  const provider = await createProvider({
    issuer: deps.publicUrl(),
    keys,
    proxy: deps.proxy,
    refreshGrace: deps.server.refreshGrace,
    adapter: (model, invalidGrant) => deps.server.adapter(model, invalidGrant),
    userExists: (userId) => deps.server.userExists(userId),
    renderError(ctx, out) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.set(pageHeaders());
      ctx.body = renderPage({ title: 'This sign-in link does not work' }, (
        <ErrorText error={out.error} description={out.error_description} requestId={ctx.response.get('X-Request-Id') || undefined} />
      ));
    },
  });
  provider.on('server_error', (_ctx: unknown, error: unknown) => log.error({ err: error }, 'authorization server failed'));
  // Anything that escapes the library's own handling (Koa would print it to stderr).
  (provider as unknown as EventEmitter).on('error', (error: unknown) => log.error({ err: error }, 'authorization server failed'));
  return { provider, handle: provider.callback() };
}
