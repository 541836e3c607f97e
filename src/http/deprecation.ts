// Deprecation headers for routes named in configuration: Deprecation (RFC 9745), Sunset
// (RFC 8594) and a Link to the migration notes; and the count of who calls them (§16).
import type { FastifyRequest } from 'fastify';
import type { Deprecation } from '../config.js';
import type { DeprecatedCalls } from '../domain/limits/deprecated-calls.js';

/** Maps "METHOD /route/:pattern" to the headers its responses carry. */
export function deprecationHeaders(deprecations: Deprecation[]): Map<string, Record<string, string>> {
  const map = new Map<string, Record<string, string>>();
  for (const d of deprecations) {
    const headers: Record<string, string> = { Deprecation: `@${Math.floor(d.deprecatedAt.getTime() / 1000)}` };
    if (d.sunset) headers.Sunset = d.sunset.toUTCString();
    if (d.link) headers.Link = `<${d.link}>; rel="deprecation"`;
    map.set(`${d.method} ${d.path}`, headers);
  }
  return map;
}

/** onResponse: a call of a deprecated route with a valid key or session is counted for its account and key (in memory). */
export function countDeprecatedCalls(calls: DeprecatedCalls) {
  return async (request: FastifyRequest): Promise<void> => {
    const route = request.principal ? calls.route(request.method, request.routeOptions.url) : undefined;
    if (route) calls.record(request.principal!, route);
  };
}
