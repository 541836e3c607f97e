// Bearer authentication for /v1: the Authorization header becomes request.principal, or 401.
import type { FastifyRequest } from 'fastify';
import type { Authenticator } from '../domain/auth/authenticator.js';
import { DomainError } from '../domain/errors.js';
import { requireScope, type Principal, type Scope } from '../domain/auth/permissions.js';
import { ACCESS_TOKEN_PREFIX } from '../domain/oauth/secrets.js';
import { InvalidAccessToken } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** The key the principal came from (the WebSocket channel re-checks it while connected). */
    credential: string | null;
  }
}

/** The key from `Authorization: Bearer <key>`, or undefined when absent or not a Bearer header. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}

/** The real-time channel's route (ws.ts): the one place where a handshake opens a WebSocket. */
export const WEBSOCKET_ROUTE = '/v1/ws';

/**
 * A request that says `Connection: upgrade`: Node hands it to the upgrade listener, off the HTTP
 * parser, so its connection can carry nothing after the answer (unless that is 101).
 */
export function asksToUpgrade(request: FastifyRequest): boolean {
  return (request.headers.connection ?? '').split(',').some((token) => token.trim().toLowerCase() === 'upgrade');
}

/**
 * A WebSocket handshake for the real-time channel: it says `Connection: upgrade` as well as
 * `Upgrade: websocket` (so Node handed it to the upgrade listener) and it was routed to /v1/ws.
 * An upgrade header alone proves nothing: without `Connection: upgrade` Node answers the request
 * as an ordinary one, and a handshake to any other route runs that route's REST handler.
 */
export function isWebSocketHandshake(request: FastifyRequest): boolean {
  return (
    request.method === 'GET' &&
    asksToUpgrade(request) &&
    request.headers.upgrade?.toLowerCase() === 'websocket' &&
    request.routeOptions.url === WEBSOCKET_ROUTE
  );
}

/**
 * The key a request presents: the Bearer header, or on a WebSocket handshake the `token` query
 * parameter (browsers cannot set headers on a WebSocket, CONTRACT.md §9).
 */
export function presentedKey(request: FastifyRequest): string | undefined {
  const header = bearerToken(request.headers.authorization);
  if (header !== undefined || !isWebSocketHandshake(request)) return header;
  const token = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

const resolved = new WeakSet<FastifyRequest>();

/**
 * The request's principal, looked up once per request however many hooks ask (the rate limiter
 * asks first, for every /v1 path, known or not): null without a valid key.
 */
export async function resolvePrincipal(auth: Authenticator, request: FastifyRequest): Promise<Principal | null> {
  if (!resolved.has(request)) {
    const token = presentedKey(request);
    request.principal = (token === undefined ? undefined : await auth.authenticate(token)) ?? null;
    request.credential = request.principal ? token! : null;
    resolved.add(request);
  }
  return request.principal;
}

/** Sets the principal another credential (a dashboard session) resolved; later lookups keep it. */
export function setPrincipal(request: FastifyRequest, principal: Principal | null): void {
  request.principal = principal;
  request.credential = null;
  resolved.add(request);
}

export function authenticate(auth: Authenticator) {
  return async (request: FastifyRequest): Promise<void> => {
    const principal = await resolvePrincipal(auth, request);
    if (!principal) {
      const token = presentedKey(request);
      if (token?.startsWith(ACCESS_TOKEN_PREFIX)) throw new InvalidAccessToken();
      throw new DomainError(
        'unauthorized',
        request.sessionEnded
          ? 'Your dashboard session has ended; sign in again.'
          : token === undefined
            ? 'Send your API key as "Authorization: Bearer <key>".'
            : 'The API key is invalid, revoked or expired.',
      );
    }
  };
}

/**
 * Checks the scope a route declares in its OpenAPI security requirement before the body is
 * validated, so a key without the scope gets 403 rather than 422 (CONTRACT.md §3 order). The domain
 * checks again; this only brings the answer forward.
 */
export async function requireDeclaredScope(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema as { security?: { apiKey?: Scope[] }[] } | undefined;
  const scope = schema?.security?.[0]?.apiKey?.[0];
  if (scope !== undefined && request.principal) requireScope(request.principal, scope);
}
