// The secret side of OAuth: client secrets and token values with prefixes that secret scanners can
// match (like API keys), stored only as SHA-256 hashes. A client secret is checked by hashing what
// was presented and comparing the hashes in constant time.
import { timingSafeEqual } from 'node:crypto';
import { hashSecret, randomBase62 } from '../auth/api-key-secret.js';

export const CLIENT_SECRET_PREFIX = 'cms_cs_';
export const ACCESS_TOKEN_PREFIX = 'cms_oat_';
export const REFRESH_TOKEN_PREFIX = 'cms_ort_';
/** 43 base62 characters: 256 bits, as much as the authorization server's own opaque tokens carry. */
const TOKEN_LENGTH = 43;
const ACCESS_TOKEN_SHAPE = /^cms_oat_[0-9A-Za-z]{43}$/;

export function generateClientSecret(): string {
  return CLIENT_SECRET_PREFIX + randomBase62(40);
}

export function generateAccessToken(): string {
  return ACCESS_TOKEN_PREFIX + randomBase62(TOKEN_LENGTH);
}

export function generateRefreshToken(): string {
  return REFRESH_TOKEN_PREFIX + randomBase62(TOKEN_LENGTH);
}

export function looksLikeAccessToken(value: string): boolean {
  return ACCESS_TOKEN_SHAPE.test(value);
}

/** Whether `presented` is the secret whose hash is `storedHash`, in time that does not depend on where they differ. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(presented), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export { hashSecret };
