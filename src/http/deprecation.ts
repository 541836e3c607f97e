// Deprecation headers for routes named in configuration: Deprecation (RFC 9745), Sunset
// (RFC 8594) and a Link to the migration notes. Who calls them is counted at the edge (edge.ts, §16).
import type { Deprecation } from '../config.js';

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
