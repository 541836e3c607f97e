// The HTTP application: Fastify with request ids, the response envelope's meta, one request log
// line, errors in the contract's shape, 404/405, deprecation headers, and the /v1 routes.
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { forwardWrites } from './write-forwarding.js';
import type { Config } from '../config.js';
import type { ContentService } from '../domain/content/content.js';
import type { Authenticator } from '../domain/auth/authenticator.js';
import type { UserService } from '../domain/users/users.js';
import type { ApiKeyService } from '../domain/auth/api-keys.js';
import type { EventFeed } from '../domain/events/event-feed.js';
import type { WebhookService } from '../domain/webhooks/endpoints.js';
import { newId } from '../domain/ids.js';
import { authenticate, requireDeclaredScope } from './auth.js';
import { toHttpError } from './errors.js';
import { Lifecycle } from './lifecycle.js';
import { registerOpenApi } from './openapi.js';
import { RouteIndex } from './route-index.js';
import { contentRoutes } from './routes/content.js';
import { contentBatchRoutes } from './routes/content-batch.js';
import { jobRoutes } from './routes/jobs.js';
import type { BulkJobs } from '../domain/jobs/bulk-jobs.js';
import type { ContentBatch } from '../domain/content/content-batch.js';
import { userRoutes } from './routes/users.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { webhookRoutes } from './routes/webhooks.js';
import { healthRoutes } from './routes/health.js';
import { registerMetrics, type ClusterMetrics, type RecordRequest } from './metrics.js';
import type { Realtime } from './ws.js';
import { nodeServerOptions, type ConnectionCounts } from './transport.js';
import { eventRoutes } from './routes/events.js';
import { ErrorBody } from './schemas.js';
import { refuseUnusableParams, validatorCompiler } from './validation.js';
import { JsonTooDeep, nestsDeeperThan } from './json-depth.js';
import { answerClientError, answerConnect, answerFrameworkError } from './raw-replies.js';
import { strictQuery } from './strict-query.js';
import { installEdge } from './edge.js';
import { installDelivery } from './delivery.js';
import { appendHook } from './route-hooks.js';
import { responseMeta } from './meta.js';
import { documentIdempotency, installIdempotency } from './idempotency.js';
import type { IdempotencyService } from '../domain/idempotency/idempotency.js';
import type { RateLimiter } from '../domain/limits/rate-limiter.js';
import type { UsageService } from '../domain/limits/usage.js';
import { usageRoutes } from './routes/usage.js';
import type { SessionService } from '../domain/auth/sessions.js';
import { registerDashboard } from './dashboard.js';
import { sessionRoutes } from './routes/sessions.js';
import { requireCsrf } from './sessions.js';
import type { OAuthAppService } from '../domain/oauth/apps.js';
import type { OAuthAuthorizationService } from '../domain/oauth/authorizations.js';
import type { AuthorizationServerStore } from '../domain/oauth/server-store.js';
import { oauthRoutes } from './oauth/mount.js';
import { oauthApiRoutes } from './routes/oauth.js';
import type { PasswordLinks } from '../domain/auth/password-links.js';
import type { DeprecatedCalls } from '../domain/limits/deprecated-calls.js';
import { pagesScope } from './pages/plugin.js';
import { passwordPages } from './pages/password.js';
import { previewPages } from './pages/preview.js';
import { publishingRoutes } from './routes/publishing.js';
import { contentTypeRoutes } from './routes/content-types.js';
import type { ContentTypes } from '../domain/content-model/content-types.js';
import type { AtomFeeds } from '../domain/publishing/feed.js';
import type { PreviewLinks } from '../domain/publishing/previews.js';
import type { MediaService } from '../domain/media/media.js';
import type { MediaVariants } from '../domain/media/variants.js';
import { mediaRoutes } from './routes/media.js';
import { mediaFileRoutes } from './routes/media-files.js';
import { buildSerializer } from './serializer.js';

export interface HttpDeps {
  config: Config;
  /** The media library (/v1/media, /media). */
  media: { media: MediaService; variants: MediaVariants };
  content: ContentService;
  /** Several content changes in one request (POST /v1/content/batch). */
  contentBatch: ContentBatch;
  /** Bulk jobs (POST /v1/content/bulk, /v1/jobs). */
  jobs: BulkJobs;
  users: UserService;
  apiKeys: ApiKeyService;
  webhooks: WebhookService;
  auth: Authenticator;
  feed: EventFeed;
  /** The WebSocket channel (/v1/ws), built by the composition root with the live event stream. */
  realtime: Realtime;
  limiter: RateLimiter;
  usage: UsageService;
  /** Dashboard sign-in sessions: a second way to authenticate /v1 requests (docs/dashboard.md). */
  sessions: SessionService;
  oauthApps: OAuthAppService;
  authorizations: OAuthAuthorizationService;
  /** What the OAuth authorization server keeps (docs/oauth.md). */
  authorizationServer: AuthorizationServerStore;
  /** PUBLIC_URL, or this instance's own address once it listens: the OAuth issuer. */
  publicUrl: () => string;
  /** One-time links to set a password: the /password pages (docs/email.md). */
  passwordLinks: PasswordLinks;
  /** Who calls deprecated routes, for the notices and GET /v1/usage. */
  deprecatedCalls: DeprecatedCalls;
  /** Idempotency-Key on every POST under /v1. */
  idempotency: IdempotencyService;
  /** The Atom feed of published items. */
  feeds: AtomFeeds;
  /** Preview links and what they open (/preview). */
  previews: PreviewLinks;
  /** Content models: typed fields per content type (/v1/content-types). */
  contentTypes: ContentTypes;
  ready: () => Promise<void>;
  lifecycle: Lifecycle;
  /** Client connections, as the listener counts them (for /metrics). */
  connections: ConnectionCounts;
  /** Seconds spent with Redis unreachable, rate limits counted alone or refused (for /metrics). */
  rateLimitDegradedSeconds: () => number;
  /** With WORKERS > 1: /metrics shows every worker's figures, gathered by the cluster primary. */
  cluster?: ClusterMetrics;
  /** A worker that is not SQLite's one writer: its requests that may write go to the writer over this socket (write-forwarding.ts). */
  forwardWritesTo?: string;
  /** Where log lines go; defaults to stdout. Tests pass a stream they can read. */
  logStream?: NodeJS.WritableStream;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Marks the request finished for graceful shutdown (an upgraded WebSocket is no longer a request). */
    endInFlight: (() => void) | null;
  }
  interface FastifyContextConfig {
    /** The response is a document of its own (OpenAPI, docs assets): no meta is added. */
    raw?: boolean;
  }
}

export const BODY_LIMIT = 2 * 1024 * 1024;

export async function buildHttpApp(deps: HttpDeps, https?: { cert: string; key: string }): Promise<FastifyInstance> {
  const { config } = deps;
  const tls = https !== undefined;
  const options: FastifyServerOptions = {
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], censor: '[REDACTED]' },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    // One log line per request, written by our onResponse hook, labelled request_id.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    genReqId: () => newId('req'),
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    keepAliveTimeout: config.connections.keepAliveTimeoutSeconds * 1000,
    requestTimeout: 60_000,
    connectionTimeout: 0,
    // Malformed requests, undecodable URLs: the contract's envelope, never Fastify's own body.
    clientErrorHandler: answerClientError(tls),
    frameworkErrors: answerFrameworkError(tls),
    return503OnClosing: false,
    trustProxy: config.tls.mode === 'off' ? config.tls.trustProxy : false,
    // No parameter is too long to be looked up (it is then simply not found): the 16 KiB header limit bounds it.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 16 * 1024 },
    // Responses serialized without a validator run per nullable value (serializer.ts).
    schemaController: { compilersFactory: { buildSerializer: buildSerializer() } },
  };
  const app = Fastify({ ...options, ...nodeServerOptions(config, https) } as FastifyServerOptions).withTypeProvider<TypeBoxTypeProvider>();
  app.server.on('connect', answerConnect(app.log, tls));

  // Registered before anything else, so its hooks run first on every request.
  let recordRequest: RecordRequest = () => {};
  if (deps.forwardWritesTo) forwardWrites(app, deps.forwardWritesTo);
  installEdge(app, { ...deps, tls }, () => recordRequest);
  app.setValidatorCompiler(validatorCompiler());
  app.addSchema(ErrorBody);
  app.decorateRequest('principal', null);
  app.decorateRequest('credential', null);
  app.decorateRequest('endInFlight', null);
  app.decorateRequest('session', null);
  app.decorateRequest('sessionEnded', false);

  // JSON is the only media type accepted (Fastify's built-in text/plain parser goes too: 415).
  // An empty JSON body on a route without one (archive) is no body at all, not a syntax error.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  // Nesting is bounded before parsing, so no walk over a client's value can run out of stack (json-depth.ts).
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    if (nestsDeeperThan(body as string)) return done(new JsonTooDeep(), undefined);
    return parseJson(request, body as string, done);
  });

  const routes = new RouteIndex();
  app.addHook('onRoute', (route) => {
    routes.add(route.method, route.url);
    strictQuery(route);
    // A path parameter that breaks the text rules is 404 (validation.ts); only routes with one check.
    if (route.url.includes(':')) appendHook(route, 'preHandler', refuseUnusableParams);
    documentIdempotency(route);
    if (route.url.startsWith('/docs')) route.config = { ...(route.config ?? {}), raw: true };
  });

  app.addHook('preSerialization', async (request, reply, payload) => {
    if (request.routeOptions.config?.raw || payload === null || typeof payload !== 'object' || Array.isArray(payload)) return payload;
    return { ...payload, meta: responseMeta(request, reply) };
  });

  app.setErrorHandler(async (error, request, reply) => {
    const e = toHttpError(error);
    // A 503 is expected (shutting down, or the store unavailable, which is logged once per outage):
    // the request's own line says it. Anything else at 500 is a fault, logged with its stack.
    if (e.status >= 500 && e.status !== 503) request.log.error({ err: error }, 'request failed');
    return reply
      .code(e.status)
      .headers(e.headers ?? {})
      .send({ message: e.message, code: e.code, ...(e.errors ? { errors: e.errors } : {}), ...(e.details ?? {}) });
  });

  const dashboardPage = await registerDashboard(app);
  app.setNotFoundHandler(async (request, reply) => {
    const page = dashboardPage(request, reply);
    if (page) return page;
    const path = request.url.split('?')[0] ?? '/';
    const allowed = routes.methodsFor(path);
    if (allowed.length > 0) {
      return reply
        .code(405)
        .header('Allow', allowed.join(', '))
        .send({ message: `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`, code: 'method_not_allowed' });
    }
    return reply.code(404).send({ message: `No endpoint at ${request.method} ${path}.`, code: 'not_found' });
  });

  await registerOpenApi(app, { rateLimits: config.limits.enabled });
  await app.register(healthRoutes(deps.ready));
  recordRequest = registerMetrics(app, { caches: () => deps.content.cacheStats(), variantsMade: () => deps.media.variants.made, token: config.metricsToken, openSockets: deps.realtime.count, streamSubscribers: deps.realtime.subscribers, connections: deps.connections, rateLimitDegradedSeconds: deps.rateLimitDegradedSeconds, cluster: deps.cluster });
  await app.register(sessionRoutes(deps.sessions, deps.users, deps.limiter, config.sessions.maxHours * 3600), { prefix: '/auth' });
  await app.register(pagesScope(passwordPages(deps.passwordLinks, deps.limiter)), { prefix: '/password' });
  await app.register(previewPages(deps.previews, deps.content), { prefix: '/preview' });
  await app.register(mediaFileRoutes(deps.media.media, deps.media.variants, 'public'));
  await app.register(
    oauthRoutes({
      server: deps.authorizationServer,
      sessions: deps.sessions,
      limiter: deps.limiter,
      authorizations: deps.authorizations,
      sessionMaxAgeSeconds: config.sessions.maxHours * 3600,
      publicUrl: deps.publicUrl,
      proxy: config.tls.mode === 'off',
    }),
  );
  await app.register(
    async (v1) => {
      const authenticated = authenticate(deps.auth);
      v1.addHook('onRequest', async (request) => {
        await authenticated(request);
        requireCsrf(request);
      });
      installDelivery(v1);
      v1.addHook('preValidation', requireDeclaredScope);
      installIdempotency(v1, deps.idempotency);
      // Before the item routes, so that nothing reads feed.atom as an id.
      await v1.register(publishingRoutes(deps.feeds, deps.previews));
      await v1.register(contentBatchRoutes(deps.contentBatch, config.limits.enabled ? deps.limiter : undefined));
      await v1.register(jobRoutes(deps.jobs));
      await v1.register(contentRoutes(deps.content));
      await v1.register(contentTypeRoutes(deps.contentTypes, deps.publicUrl));
      await v1.register(mediaRoutes(deps.media.media, deps.media.variants, config.media.maxBytes));
      await v1.register(userRoutes(deps.users));
      await v1.register(apiKeyRoutes(deps.apiKeys));
      await v1.register(eventRoutes(deps.feed));
      await v1.register(deps.realtime.plugin);
      await v1.register(usageRoutes(deps.usage));
      await v1.register(webhookRoutes(deps.webhooks));
      await v1.register(oauthApiRoutes(deps.oauthApps, deps.authorizations));
    },
    { prefix: '/v1' },
  );
  return app;
}
