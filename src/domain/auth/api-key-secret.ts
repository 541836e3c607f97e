// The secret side of API keys: generation, hashing and the key's shape. Only the SHA-256 hash is
// stored; lookups go by hash, so the plain key is never compared byte by byte.
import { createHash, randomInt } from 'node:crypto';

import type { CredentialKind } from './permissions.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIX = 'cms_live_';
/** Delivery keys (CONTRACT.md §19) say what they are, so a leaked one is known for read-only at a glance. */
export const DELIVERY_KEY_PREFIX = 'cms_live_dlv_';
const KEY_SHAPE = /^cms_live_(?:dlv_)?[0-9A-Za-z]{40}$/;

/** `length` base62 characters from the CSPRNG (about 5.95 bits each). */
export function randomBase62(length: number): string {
  let body = '';
  for (let i = 0; i < length; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return body;
}

export function generateApiKey(kind: CredentialKind = 'management'): string {
  return (kind === 'delivery' ? DELIVERY_KEY_PREFIX : KEY_PREFIX) + randomBase62(40);
}

/** SHA-256 in hex: how every secret the service hands out (keys, OAuth secrets and tokens) is stored and found. */
export function hashSecret(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export const hashApiKey = hashSecret;

export function looksLikeApiKey(value: string): boolean {
  return KEY_SHAPE.test(value);
}

/**
 * The part of a key that may be shown again: enough to recognise it, useless to an attacker. The
 * first 12 characters; for a delivery key 16, since its first 12 are the same for every one.
 */
export function displayPrefix(key: string): string {
  return key.slice(0, key.startsWith(DELIVERY_KEY_PREFIX) ? 16 : 12);
}
