// The HTTP application: Fastify with request ids, the response envelope's meta, one request log
// line, errors in the contract's shape, 404/405, deprecation headers, and the /v1 routes.
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import type { ContentService } from '../domain/content/content.js';
import type { Authenticator } from '../domain/auth/authenticator.js';
import type { UserService } from '../domain/users/users.js';
import type { ApiKeyService } from '../domain/auth/api-keys.js';
import type { EventFeed } from '../domain/events/event-feed.js';
import type { WebhookService } from '../domain/webhooks/endpoints.js';
import { DomainError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { asksToUpgrade, authenticate, requireDeclaredScope } from './auth.js';
import { HttpsRequired, toHttpError } from './errors.js';
import { Lifecycle } from './lifecycle.js';
import { registerOpenApi } from './openapi.js';
import { RouteIndex } from './route-index.js';
import { contentRoutes } from './routes/content.js';
import { userRoutes } from './routes/users.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { webhookRoutes } from './routes/webhooks.js';
import { healthRoutes } from './routes/health.js';
import { registerMetrics } from './metrics.js';
import type { Realtime } from './ws.js';
import { eventRoutes } from './routes/events.js';
import { ErrorBody } from './schemas.js';
import { validatorCompiler } from './validation.js';
import { strictQuery } from './strict-query.js';
import { responseMeta } from './meta.js';
import { documentIdempotency, installIdempotency } from './idempotency.js';
import type { IdempotencyService } from '../domain/idempotency/idempotency.js';
import { deprecationHeaders } from './deprecation.js';
import type { RateLimiter } from '../domain/limits/rate-limiter.js';
import type { UsageService } from '../domain/limits/usage.js';
import { installRateLimits } from './rate-limit.js';
import { usageRoutes } from './routes/usage.js';
import type { SessionService } from '../domain/auth/sessions.js';
import { registerDashboard } from './dashboard.js';
import { sessionRoutes } from './routes/sessions.js';
import { requireCsrf, resolveSessions } from './sessions.js';

export interface HttpDeps {
  config: Config;
  content: ContentService;
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
  /** Idempotency-Key on every POST under /v1. */
  idempotency: IdempotencyService;
  ready: () => Promise<void>;
  lifecycle: Lifecycle;
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

/** Hides the WebSocket token (and any other secret query value) in logged URLs. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:token|key|api_key)=)[^&]*/gi, '$1[REDACTED]');
}

export async function buildHttpApp(deps: HttpDeps, https?: { cert: string; key: string }): Promise<FastifyInstance> {
  const { config, lifecycle } = deps;
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
    keepAliveTimeout: 72_000,
    requestTimeout: 60_000,
    connectionTimeout: 0,
    return503OnClosing: false,
    trustProxy: config.tls.mode === 'off' ? config.tls.trustProxy : false,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
  };
  const app = Fastify(https ? ({ ...options, https } as FastifyServerOptions) : options).withTypeProvider<TypeBoxTypeProvider>();

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
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, body as string, done),
  );

  const routes = new RouteIndex();
  app.addHook('onRoute', (route) => {
    routes.add(route.method, route.url);
    strictQuery(route);
    documentIdempotency(route);
    if (route.url.startsWith('/docs')) route.config = { ...(route.config ?? {}), raw: true };
  });

  const deprecated = deprecationHeaders(config.deprecations);
  app.addHook('onRequest', async (request, reply) => {
    request.endInFlight = lifecycle.begin();
    if (asksToUpgrade(request)) reply.header('Connection', 'close');
    reply.raw.once('close', request.endInFlight);
    reply.header('X-Request-Id', request.id);
    const headers = deprecated.get(`${request.method} ${request.routeOptions.url}`);
    if (headers) reply.headers(headers);
    if (config.tls.mode === 'off' && request.protocol !== 'https') {
      throw new HttpsRequired();
    }
    if (lifecycle.closing) {
      reply.header('Connection', 'close');
      throw new DomainError('unavailable', 'The server is shutting down; retry shortly.');
    }
  });

  // A dashboard session cookie stands in for a key on /v1; resolved before the limiter counts the request.
  app.addHook('onRequest', resolveSessions(deps.sessions));

  // Rate limits come right after the request id and before everything else (CONTRACT.md §3, §8).
  if (config.limits.enabled) installRateLimits(app, deps.limiter, deps.auth);

  app.addHook('preSerialization', async (request, reply, payload) => {
    if (request.routeOptions.config?.raw || payload === null || typeof payload !== 'object' || Array.isArray(payload)) return payload;
    return { ...payload, meta: responseMeta(request, reply) };
  });

  app.addHook('onResponse', async (request, reply) => {
    // Also here: a refused WebSocket upgrade's response never emits 'close'.
    request.endInFlight?.();
    // An upgrade request that was answered in HTTP leaves a connection that can carry nothing more
    // (it left the server's HTTP parser; the reply said Connection: close): finish writing, close it.
    if (asksToUpgrade(request) && reply.statusCode !== 101) {
      const socket = request.raw.socket;
      socket.end();
      setTimeout(() => socket.destroy(), 1000).unref();
    }
    request.log.info(
      {
        method: request.method,
        url: redactUrl(request.url),
        status: reply.statusCode,
        duration_ms: Number(reply.elapsedTime.toFixed(2)),
        account_id: request.principal?.accountId,
        client_request_id: request.headers['x-request-id'],
        remote_address: request.ip,
      },
      'request',
    );
  });

  app.setErrorHandler(async (error, request, reply) => {
    const e = toHttpError(error);
    if (e.status >= 500) request.log.error({ err: error }, 'request failed');
    return reply
      .code(e.status)
      .headers(e.headers ?? {})
      .send({ message: e.message, code: e.code, ...(e.errors ? { errors: e.errors } : {}) });
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

  await registerOpenApi(app);
  await app.register(healthRoutes(deps.ready));
  registerMetrics(app, { token: config.metricsToken, openSockets: deps.realtime.count, streamSubscribers: deps.realtime.subscribers });
  await app.register(sessionRoutes(deps.sessions, deps.limiter, config.sessions.maxHours * 3600), { prefix: '/auth' });
  await app.register(
    async (v1) => {
      v1.addHook('onRequest', authenticate(deps.auth));
      v1.addHook('onRequest', requireCsrf);
      v1.addHook('preValidation', requireDeclaredScope);
      installIdempotency(v1, deps.idempotency);
      await v1.register(contentRoutes(deps.content));
      await v1.register(userRoutes(deps.users));
      await v1.register(apiKeyRoutes(deps.apiKeys));
      await v1.register(eventRoutes(deps.feed));
      await v1.register(deps.realtime.plugin);
      await v1.register(usageRoutes(deps.usage));
      await v1.register(webhookRoutes(deps.webhooks));
    },
    { prefix: '/v1' },
  );
  return app;
}
