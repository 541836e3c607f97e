// Rate limits at the HTTP edge (CONTRACT.md §8): every request — known route or not (a route error
// counts too, §3), whatever its status — is counted against its key's account, or its client
// address without a valid key, before anything else is checked, and its response shows that policy
// in the X-RateLimit-* headers and the IETF RateLimit-Policy / RateLimit pair. The health probes,
// /metrics, the /docs pages and the dashboard's pages and assets are not part of the interface and
// are left alone (/auth throttles sign-in itself), as is the plain-HTTP refusal (answered before
// Fastify sees the request).
import type { FastifyReply, FastifyRequest } from 'fastify';
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
    /** Spends (true) or gives back the unit of quota this request holds; null when it holds none. */
    settleQuota: ((succeeded: boolean) => void) | null;
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

/**
 * The client's address. Node forgets the peer of a destroyed socket, so once the client has gone
 * `request.ip` is undefined (or throws, behind a trusted proxy); such a request is counted under
 * "gone": its answer reaches nobody.
 */
export function clientAddress(request: FastifyRequest): string {
  return request.raw.socket?.remoteAddress === undefined ? 'gone' : request.ip;
}

// /auth, the OAuth sign-in page and the /password pages throttle themselves (admitSignIn); dashboard
// pages and assets are not the API, nor is the OAuth authorization server (/oauth, /.well-known).
const EXEMPT = /^\/(?:healthz|readyz|metrics|docs|auth|password|oauth|\.well-known|preview\/style\.css)(?:[/?]|$)/;

/**
 * What counts a request: run by the edge's request hook after the request id, before any route's
 * own hooks. The edge's send hook settles the quota unit the request holds (request.settleQuota),
 * and gives it back when the client left before its body arrived in full.
 */
export function countRequests(limiter: RateLimiter, auth: Authenticator) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
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
      request.rateLimit = (await limiter.admitAddress(clientAddress(request), 'unknown')).state;
      reply.headers(rateLimitHeaders(request.rateLimit));
      throw error;
    }
    const admission = principal ? await limiter.admitKey(principal, kind) : await limiter.admitAddress(clientAddress(request), kind);
    request.rateLimit = admission.state;
    reply.headers(rateLimitHeaders(admission.state));
    admission.alert?.catch((error: unknown) => request.log.warn({ err: error }, 'could not record a usage alert'));
    if (admission.failure !== undefined) throw admission.failure;
    if (admission.refusal) throw admission.refusal;

    if (admission.settle) holdQuota(request, admission.settle);
  };
}

/**
 * Settles the unit of quota a request holds exactly once: spent if the request was answered 2xx —
 * when its answer is sent, so a write whose client left before the 2xx reached it is charged like
 * any other, the work being done — and given back otherwise: an error answer, or a client gone
 * before its request's body arrived in full (no handler can run, so no answer will come).
 */
function holdQuota(request: FastifyRequest, settle: (succeeded: boolean) => Promise<void>): void {
  let settled = false;
  request.settleQuota = (succeeded) => {
    if (settled) return;
    settled = true;
    settle(succeeded).catch((error: unknown) => request.log.warn({ err: error }, 'could not count quota usage'));
  };
}

/**
 * Counts a request that carries `n` operations (a content batch) as `n` requests (CONTRACT.md §21):
 * the edge counted one; this counts the other n − 1 in the hourly window and reserves a unit of
 * quota for each. Over the limit or the quota, the whole request is refused (429) and every unit
 * reserved for it is given back. Returns where to say which operations succeeded: each succeeded
 * one spends its unit when the request ends 2xx; the others give theirs back.
 */
export async function chargeOperations(request: FastifyRequest, reply: FastifyReply, limiter: RateLimiter, n: number): Promise<(succeeded: boolean[]) => void> {
  const principal = request.principal;
  const own = request.settleQuota;
  if (n <= 1 || !principal || request.rateLimit?.policy !== 'hourly') return () => {};
  const admissions = await Promise.all(Array.from({ length: n - 1 }, () => limiter.admitKey(principal, 'route')));
  const last = admissions.reduce((a, b) => (b.state.remaining < a.state.remaining ? b : a));
  request.rateLimit = last.state;
  reply.headers(rateLimitHeaders(last.state));
  const refused = admissions.find((a) => a.failure !== undefined) ?? admissions.find((a) => a.refusal?.code === 'rate_limited') ?? admissions.find((a) => a.refusal);
  for (const admission of admissions) admission.alert?.catch((error: unknown) => request.log.warn({ err: error }, 'could not record a usage alert'));
  const settle = (admission: (typeof admissions)[number], succeeded: boolean) =>
    admission.settle?.(succeeded).catch((error: unknown) => request.log.warn({ err: error }, 'could not count quota usage'));
  if (refused) {
    for (const admission of admissions) settle(admission, false);
    throw refused.failure ?? refused.refusal;
  }
  let outcomes: boolean[] | undefined;
  let settled = false;
  request.settleQuota = (succeeded) => {
    if (settled) return;
    settled = true;
    own?.(succeeded && (outcomes?.[0] ?? false));
    admissions.forEach((admission, i) => settle(admission, succeeded && (outcomes?.[i + 1] ?? false)));
  };
  return (succeeded) => {
    outcomes = succeeded;
  };
}
