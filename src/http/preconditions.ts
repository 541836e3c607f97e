// If-Match parsing and the ETags answers carry. An item's is its version as a strong tag: "3". "*"
// matches any existing item; weak tags never match, as RFC 9110 requires strong comparison for
// If-Match. A list page's (or a feed's) is a weak tag of what it shows: it changes exactly when the
// page would (If-None-Match, conditional.ts).
import { createHash } from 'node:crypto';
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

/** Tags of answers made from cached values: a cache hit is not hashed again. */
const tags = new WeakMap<object, string>();

/** A weak ETag of `value` as JSON (a page without its meta): the same page, the same tag, on every instance. */
export function weakTag(value: object): string {
  let tag = tags.get(value);
  if (tag === undefined) {
    tag = `W/"${createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 27)}"`;
    tags.set(value, tag);
  }
  return tag;
}
