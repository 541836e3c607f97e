// If-Match parsing. ETags are the item's version as a strong tag: "3". "*" matches any existing
// item; weak tags never match, as RFC 9110 requires strong comparison for If-Match.
import type { Precondition } from '../domain/content/content.js';

export function parseIfMatch(header: string | undefined): Precondition {
  if (header === undefined) return undefined;
  const tags = header.split(',').map((t) => t.trim()).filter(Boolean);
  if (tags.includes('*')) return undefined;
  return tags.flatMap((tag) => {
    const m = /^"(\d{1,15})"$/.exec(tag);
    return m ? [Number(m[1])] : [];
  });
}

export function etag(version: number): string {
  return `"${version}"`;
}
