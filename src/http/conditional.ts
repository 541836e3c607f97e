// Conditional reads (CONTRACT.md §19), once for every route: a GET whose answer carries an ETag —
// an item's "<version>", a list page's weak tag, a media record or file — is answered 304 with no
// body when the request's If-None-Match names that tag (RFC 9110 §13.1.2: weak comparison, `*`
// matches any). Run by the edge as the answer is sent, before the quota unit is settled, so a 304
// counts toward the hourly limit (it was admitted) and never toward the quota (it is not a 2xx).
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The opaque part of an entity tag, `W/` dropped: weak comparison looks at that alone. */
const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** Whether an If-None-Match header names `etag` (or is `*`). */
export function noneMatchHits(header: string, etag: string): boolean {
  const wanted = opaque(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}

/**
 * Turns a 200 answer to a GET into 304 Not Modified when the client already holds it. Returns the
 * payload to send: null for a 304 (a stream that would have been the body is closed unread).
 */
export function conditionalPayload<P>(request: FastifyRequest, reply: FastifyReply, payload: P): P | null {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
  const header = request.headers['if-none-match'];
  const etag = reply.getHeader('etag');
  if (typeof header !== 'string' || typeof etag !== 'string' || !noneMatchHits(header, etag)) return payload;
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  const stream = payload as { destroy?: () => void } | null;
  if (stream && typeof stream.destroy === 'function') stream.destroy();
  return null;
}
