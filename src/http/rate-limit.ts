// Rate limits at the HTTP edge (CONTRACT.md §8): every request — known route or not (a route error
// counts too, §3), whatever its status — is counted against its key's account, or its client
// address without a valid key, before anything else is checked, and its response shows that policy
// in the X-RateLimit-* headers and the IETF RateLimit-Policy / RateLimit pair. The health probes,
// /metrics, the /docs pages and the dashboard's pages and assets are not part of the interface and
// are left alone (/auth throttles sign-in itself), as is the plain-HTTP refusal (answered before
// Fastify sees the request).
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../domain/auth/authenticator.js';
import type { Principal } from '../domain/auth/permissions.js';
import { secondsUntil } from '../domain/limits/plans.js';
import type { LimitState, RateLimiter, RouteKind } from '../domain/limits/rate-limiter.js';
import { isWebSocketHandshake, resolvePrincipal } from './auth.js';
import { isDashboardRequest } from './dashboard.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The window this request was counted in, as its headers show it; null for the probes and /docs. */
    rateLimit: LimitState | null;
  }
}

export function rateLimitHeaders(state: LimitState): Record<string, string> {
  const name = state.policy === 'ip' ? '"ip"' : '"hourly"';
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(Math.ceil(state.resetAt / 1000)),
    'RateLimit-Policy': `${name};q=${state.limit};w=${state.windowSeconds}`,
    RateLimit: `${name};r=${state.remaining};t=${secondsUntil(state.resetAt, state.now)}`,
  };
}

// /auth, the OAuth sign-in page and the /password pages throttle themselves (admitSignIn); dashboard
// pages and assets are not the API, nor is the OAuth authorization server (/oauth, /.well-known).
const EXEMPT = /^\/(?:healthz|readyz|metrics|docs|auth|password|oauth|\.well-known)(?:[/?]|$)/;

/** Adds the counting hook; register it after the hook that sets the request id, before any route's own. */
export function installRateLimits(app: FastifyInstance, limiter: RateLimiter, auth: Authenticator): void {
  app.decorateRequest('rateLimit', null);
  app.addHook('onRequest', async (request, reply) => {
    if (EXEMPT.test(request.url) || isDashboardRequest(request)) return;
    // 404 and 405 are both answered by the not-found handler, and both come before the key (§3).
    // Only a real handshake to /v1/ws spares the quota (§8); any other request carrying upgrade
    // headers is answered as an ordinary one and is counted as one.
    const kind: RouteKind = request.is404 ? 'unknown' : isWebSocketHandshake(request) ? 'upgrade' : 'route';
    let principal: Principal | null;
    try {
      principal = await resolvePrincipal(auth, request);
    } catch (error) {
      // The key could not be checked (store unreachable): the error is counted under the address.
      request.rateLimit = (await limiter.admitAddress(request.ip, 'unknown')).state;
      reply.headers(rateLimitHeaders(request.rateLimit));
      throw error;
    }
    const admission = principal ? await limiter.admitKey(principal, kind) : await limiter.admitAddress(request.ip, kind);
    request.rateLimit = admission.state;
    reply.headers(rateLimitHeaders(admission.state));
    admission.alert?.catch((error: unknown) => request.log.warn({ err: error }, 'could not record a usage alert'));
    if (admission.failure !== undefined) throw admission.failure;
    if (admission.refusal) throw admission.refusal;

    if (admission.settle) settleWhenOver(request, reply, admission.settle);
  });
}

/** Per connection, the requests whose unit is still to be settled: one 'close' listener serves them all. */
const unsettled = new WeakMap<Socket, Set<() => void>>();

/**
 * Settles the unit of quota a request holds exactly once, when its exchange is over: spent if a 2xx
 * was sent in full, given back otherwise (an error answer, or a client gone before the answer).
 * The response's 'close' comes in both cases; the connection's also covers a response that never
 * got it (a pipelined request behind one that was cut off). The unit is reserved after awaits, so
 * the client may be gone already, those events past: then it is given back at once. (Fastify's
 * onRequestAbort is no substitute: it fires only for a request whose body was still unread.)
 */
function settleWhenOver(request: FastifyRequest, reply: FastifyReply, settle: (succeeded: boolean) => Promise<void>): void {
  const response = reply.raw;
  const socket = request.raw.socket as Socket | null;
  let settled = false;
  const over = () => {
    if (settled) return;
    settled = true;
    response.off('close', over);
    if (socket) unsettled.get(socket)?.delete(over);
    const succeeded = response.writableFinished && response.statusCode >= 200 && response.statusCode < 300;
    settle(succeeded).catch((error: unknown) => request.log.warn({ err: error }, 'could not count quota usage'));
  };
  if (response.closed || !socket || socket.destroyed) return over();
  response.once('close', over);
  let pending = unsettled.get(socket);
  if (!pending) {
    const waiting = new Set<() => void>();
    socket.once('close', () => waiting.forEach((settleNow) => settleNow()));
    unsettled.set(socket, (pending = waiting));
  }
  pending.add(over);
}
