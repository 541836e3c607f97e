// The session cookie at the HTTP edge: reading and writing it, turning it into request.principal for
// /v1 (a key in Authorization always wins; WebSocket upgrades take keys only), and the CSRF rule for
// every state-changing request a cookie authenticates: an Origin that is this service and the
// session's X-CSRF-Token. Bearer-key requests never carry the cookie's authority and are unaffected.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden } from '../domain/errors.js';
import { csrfTokenMatches, type ActiveSession, type SessionService } from '../domain/auth/sessions.js';
import { setPrincipal } from './auth.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The dashboard session that authenticated this request, if a cookie did. */
    session: ActiveSession | null;
    /** A session cookie came but opened nothing (ended, unknown): the 401 says so. */
    sessionEnded: boolean;
  }
}

/** `__Host-`: the browser keeps it only if Secure, host-only and Path=/ (no sub-domain can plant one). */
export const SESSION_COOKIE = '__Host-cms_session';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session token from the Cookie header, if any. */
export function sessionToken(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SESSION_COOKIE) return part.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

/** Set on sign-in: the cookie lasts as long as the session may (the server ends it sooner when idle). */
export function setSessionCookie(reply: FastifyReply, token: string, maxAge: number): void {
  reply.header('Set-Cookie', `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${maxAge}; Secure; HttpOnly; SameSite=Strict`);
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.header('Set-Cookie', `${SESSION_COOKIE}=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Strict`);
}

/** The origin this request was addressed to, as a browser on this service would send it in Origin. */
export function ownOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * For a /v1 request, before the rate limiter: with no Authorization header and a session cookie,
 * the request is authenticated by the cookie (and then counted against its account like any request).
 */
export async function resolveSession(sessions: SessionService, request: FastifyRequest): Promise<void> {
  if (request.headers.authorization !== undefined || request.headers.upgrade !== undefined) return;
  const token = sessionToken(request);
  if (token === undefined) return;
  const session = await sessions.authenticate(token);
  request.session = session ?? null;
  request.sessionEnded = !session;
  setPrincipal(request, session?.principal ?? null);
}

/** Throws 403 unless a state-changing request made with the session comes from this service's own pages. */
export function checkCsrf(request: FastifyRequest, session: ActiveSession): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (request.headers.origin !== ownOrigin(request)) {
    throw forbidden('Cross-site request refused: a request signed in with the dashboard session must come from the dashboard (Origin).');
  }
  const presented = request.headers['x-csrf-token'];
  if (!csrfTokenMatches(session, typeof presented === 'string' ? presented : undefined)) {
    throw forbidden('Cross-site request refused: send the session\'s X-CSRF-Token header (sign in again if the page is old).');
  }
}

/** For a /v1 request, after authentication. */
export function requireCsrf(request: FastifyRequest): void {
  if (request.session) checkCsrf(request, request.session);
}
