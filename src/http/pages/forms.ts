// Forms on server-rendered pages that nobody is signed in to yet (sign-in, "forgot password",
// set-password): protected against cross-site submission by a double-submit token — a random value
// in a `__Host-` cookie (SameSite=Strict, so another site's form never carries it) that the form
// echoes in a hidden field — and by the Origin header, which browsers send on every POST. Pages
// used with a session (consent) use the session's own CSRF token instead.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden } from '../../domain/errors.js';
import { ownOrigin } from '../sessions.js';

export const FORM_COOKIE = '__Host-cms_form';
/** The hidden field that carries the token. */
export const FORM_FIELD = 'form_token';
const SHAPE = /^[A-Za-z0-9_-]{43}$/;

function cookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** The token to put in the page's forms: the browser's current one, or a new one set as a cookie. */
export function issueFormToken(request: FastifyRequest, reply: FastifyReply): string {
  const current = cookie(request, FORM_COOKIE);
  if (current !== undefined && SHAPE.test(current)) return current;
  const token = randomBytes(32).toString('base64url');
  reply.header('Set-Cookie', `${FORM_COOKIE}=${token}; Path=/; Max-Age=3600; Secure; HttpOnly; SameSite=Strict`);
  return token;
}

/** Throws 403 unless the submission came from one of this service's own pages in this browser. */
export function checkFormToken(request: FastifyRequest, presented: unknown): void {
  // Our pages send no referrer, and a browser then sends `Origin: null` on their form posts (Fetch
  // standard): that says nothing either way, and the SameSite=Strict cookie below is what decides.
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== 'null' && origin !== ownOrigin(request)) throw forbidden('Cross-site form submission refused.');
  const expected = cookie(request, FORM_COOKIE);
  const ok =
    typeof presented === 'string' &&
    expected !== undefined &&
    presented.length === expected.length &&
    timingSafeEqual(Buffer.from(presented), Buffer.from(expected));
  if (!ok) throw forbidden('The form has expired or did not come from this site; reload the page and try again.');
}
