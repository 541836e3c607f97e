// Delivery keys at the HTTP edge (CONTRACT.md §19): every /v1 route is closed to them (403, the
// WebSocket upgrade included) unless it opts in with one declaration in its schema,
// `...openToDelivery()` beside `...needs(scope)`; what "published only" means is the domain's
// (ContentService). Their successful answers (and 304s) may be kept by public caches: Cache-Control
// public with the account's delivery_cache_seconds instead of no-store, and Vary: Authorization so a
// cache never hands one key's answer to another.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden } from '../domain/errors.js';
import { DEFAULT_DELIVERY_CACHE_SECONDS, STALE_WHILE_REVALIDATE_SECONDS } from '../domain/publishing/delivery.js';

const DECLARATION = 'x-delivery';

/** A route's opt-in: delivery keys may call it, and see published content only (spread into the route's schema). */
export function openToDelivery(): { [DECLARATION]: 'published' } {
  return { [DECLARATION]: 'published' };
}

function opensToDelivery(request: FastifyRequest): boolean {
  const schema = request.routeOptions.schema as Record<string, unknown> | undefined;
  return schema?.[DECLARATION] === 'published';
}

/** A preValidation hook of the /v1 scope: a delivery key on a route that did not opt in is refused before anything else is looked at. */
export async function refuseDeliveryKeys(request: FastifyRequest): Promise<void> {
  if (request.principal?.kind === 'delivery' && !opensToDelivery(request)) {
    throw forbidden('A delivery key reads published content only (GET /v1/content, /v1/content/{id}, /v1/content/feed.atom); use a management key for anything else.');
  }
}

/** An onSend hook of the /v1 scope: public caching headers on a delivery key's answers. */
export async function deliveryCaching(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const principal = request.principal;
  if (principal?.kind !== 'delivery' || !opensToDelivery(request)) return;
  const status = reply.statusCode;
  if (!((status >= 200 && status < 300) || status === 304)) return;
  const maxAge = principal.deliveryCacheSeconds ?? DEFAULT_DELIVERY_CACHE_SECONDS;
  reply.header('Cache-Control', `public, max-age=${maxAge}, stale-while-revalidate=${STALE_WHILE_REVALIDATE_SECONDS}`);
  reply.header('Vary', 'Authorization');
}

/** Installs both on the /v1 scope. */
export function installDelivery(v1: FastifyInstance): void {
  v1.addHook('preValidation', refuseDeliveryKeys);
  v1.addHook('onSend', deliveryCaching);
}
