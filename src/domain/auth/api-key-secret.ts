// The secret side of API keys: generation, hashing and the key's shape. Only the SHA-256 hash is
// stored; lookups go by hash, so the plain key is never compared byte by byte.
import { createHash, randomInt } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIX = 'cms_live_';
const KEY_SHAPE = /^cms_live_[0-9A-Za-z]{40}$/;

export function generateApiKey(): string {
  let body = '';
  for (let i = 0; i < 40; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return KEY_PREFIX + body;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_SHAPE.test(value);
}

/** The part of a key that may be shown again: enough to recognise it, useless to an attacker. */
export function displayPrefix(key: string): string {
  return key.slice(0, 12);
}
