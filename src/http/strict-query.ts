// Every API route refuses query parameters it does not declare (CONTRACT.md §17): a route without
// a querystring schema is given an empty one, so the strict parser runs for it too. On routes that
// also take a body, the query is checked before the body, so a bad parameter is the 400 the
// contract's order puts ahead of the body's 422 (Fastify itself validates the body first).
import type { FastifyRequest, RouteOptions } from 'fastify';
import { appendHook } from './route-hooks.js';
import Type from 'typebox';
import { compileQuery, type QuerySchema } from './validation.js';

const NO_QUERY = Type.Object({}, { additionalProperties: false });

/**
 * The routes this applies to: the API under /v1 and the probes. Not the dashboard's pages and
 * assets, /docs, or the dashboard's /auth routes (not the API), nor OAuth protocol endpoints, which
 * RFC 6749 §3.1 requires to ignore parameters they do not know.
 */
function isApiRoute(url: string): boolean {
  return url.startsWith('/v1/') || url === '/healthz' || url === '/readyz' || url === '/metrics';
}

/** An onRoute hook: declares the empty query where none is, and checks the query before a body. */
export function strictQuery(route: RouteOptions): void {
  if (!isApiRoute(route.url)) return;
  const schema = (route.schema ??= {});
  schema.querystring ??= NO_QUERY;
  if (schema.body === undefined) return;
  const check = compileQuery(schema.querystring as QuerySchema);
  const queryFirst = async (request: FastifyRequest) => {
    const result = check(request.query);
    if (result.error) throw result.error;
  };
  appendHook(route, 'preValidation', queryFirst);
}
