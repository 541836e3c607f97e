// The request pipeline's edge, in one hook per stage instead of one per concern: what every
// request gets before routing's own hooks run (counted in flight for graceful shutdown, its request
// id, the security and deprecation headers, refusals of plain HTTP and of requests during shutdown,
// the dashboard session on /v1, the rate limit), what every answer gets as it is sent (Connection:
// close while shutting down, 304 for a conditional GET, the quota unit settled), and what is recorded once it has been sent
// (the request log line, /metrics, deprecated calls).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Authenticator } from '../domain/auth/authenticator.js';
import type { SessionService } from '../domain/auth/sessions.js';
import { DomainError } from '../domain/errors.js';
import type { DeprecatedCalls } from '../domain/limits/deprecated-calls.js';
import type { RateLimiter } from '../domain/limits/rate-limiter.js';
import { asksToUpgrade } from './auth.js';
import { conditionalPayload } from './conditional.js';
import { deprecationHeaders } from './deprecation.js';
import { HttpsRequired } from './errors.js';
import { whenExchangeOver } from './exchange.js';
import type { Lifecycle } from './lifecycle.js';
import type { RecordRequest } from './metrics.js';
import { clientAddress, countRequests } from './rate-limit.js';
import { endGracefully } from './raw-replies.js';
import { securityHeaders } from './security-headers.js';
import { resolveSession } from './sessions.js';

export interface EdgeDeps {
  config: Config;
  /** This service terminates TLS (HSTS is then sent). */
  tls: boolean;
  lifecycle: Lifecycle;
  sessions: SessionService;
  limiter: RateLimiter;
  auth: Authenticator;
  deprecatedCalls: DeprecatedCalls;
}

const V1 = /^\/v1(?:[/?]|$)/;

/** Hides the WebSocket token (and any other secret query value) in logged URLs. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:token|key|api_key)=)[^&]*/gi, '$1[REDACTED]');
}

/**
 * Installs the edge hooks; call it before any route or other hook is added. `record` counts an
 * answered request for /metrics (it exists only once the metrics are registered, later).
 */
export function installEdge(app: FastifyInstance, deps: EdgeDeps, record: () => RecordRequest): void {
  const { config, lifecycle } = deps;
  const headers = securityHeaders(deps.tls);
  const deprecated = deprecationHeaders(config.deprecations);
  const countRequest = config.limits.enabled ? countRequests(deps.limiter, deps.auth) : undefined;
  const plainHttpRefused = config.tls.mode === 'off';
  app.decorateRequest('rateLimit', null);
  app.decorateRequest('settleQuota', null);

  app.addHook('onRequest', async (request, reply) => {
    const endInFlight = (request.endInFlight = lifecycle.begin());
    let over = false;
    // A client gone before its body arrived in full: no handler runs, so no answer settles its quota.
    const giveBackIfAbandoned = () => {
      if (over && !request.raw.complete) request.settleQuota?.(false);
    };
    whenExchangeOver(request, reply, () => {
      over = true;
      endInFlight();
      giveBackIfAbandoned();
    });
    // Public media take the API's headers too (an error there is never cached); a file they serve
    // sets its own caching.
    const v1 = V1.test(request.url);
    reply.headers(v1 || request.url.startsWith('/media/') ? headers.api : headers.all);
    reply.header('X-Request-Id', request.id);
    if (asksToUpgrade(request)) reply.header('Connection', 'close');
    const deprecation = deprecated.size > 0 ? deprecated.get(`${request.method} ${request.routeOptions.url}`) : undefined;
    if (deprecation) reply.headers(deprecation);
    if (plainHttpRefused && request.protocol !== 'https') throw new HttpsRequired();
    if (lifecycle.closing) {
      reply.header('Connection', 'close');
      throw new DomainError('unavailable', 'The server is shutting down; retry shortly.');
    }
    // A dashboard session cookie stands in for a key on /v1; resolved before the limiter counts the request.
    if (v1) await resolveSession(deps.sessions, request);
    // Rate limits come right after the request id and before everything else (CONTRACT.md §3, §8).
    if (countRequest) {
      await countRequest(request, reply);
      // The client may have gone while its request was being counted, before it held a unit.
      giveBackIfAbandoned();
    }
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    // Shutting down: answers still being made end their connection too, so no client sends more on it.
    if (lifecycle.closing) reply.header('Connection', 'close');
    // Before the quota is settled: a 304 is not a 2xx, so it spends none.
    const sent = conditionalPayload(request, reply, payload);
    request.settleQuota?.(reply.statusCode >= 200 && reply.statusCode < 300);
    done(null, sent);
  });

  const countDeprecated = config.deprecations.length > 0;
  // LOG_LEVEL=warn writes no request lines: then the line is not even put together.
  const logsRequests = (app.log as unknown as { isLevelEnabled(level: string): boolean }).isLevelEnabled('info');
  app.addHook('onResponse', (request, reply, done) => {
    // Also here: a refused WebSocket upgrade's response never emits 'close'.
    request.endInFlight?.();
    // An upgrade request that was answered in HTTP leaves a connection that can carry nothing more
    // (it left the server's HTTP parser; the reply said Connection: close): finish writing, close it.
    if (reply.statusCode !== 101 && asksToUpgrade(request)) endGracefully(request.raw.socket);
    if (countDeprecated) recordDeprecatedCall(deps.deprecatedCalls, request);
    if (logsRequests) logRequest(request, reply);
    record()(request, reply);
    done();
  });
}

/** A call of a deprecated route with a valid key or session is counted for its account and key (in memory). */
function recordDeprecatedCall(calls: DeprecatedCalls, request: FastifyRequest): void {
  const route = request.principal ? calls.route(request.method, request.routeOptions.url) : undefined;
  if (route) calls.record(request.principal!, route);
}

/** The request's one log line. */
function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  request.log.info(
    {
      method: request.method,
      url: redactUrl(request.url),
      // The route as registered (`/v1/content/:id`), when one matched: for grouping, and to tie an answer to its operation.
      route: request.routeOptions.url,
      status: reply.statusCode,
      duration_ms: Number(reply.elapsedTime.toFixed(2)),
      account_id: request.principal?.accountId,
      client_request_id: request.headers['x-request-id'],
      remote_address: clientAddress(request),
    },
    'request',
  );
}
