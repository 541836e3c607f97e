// Identifiers: a type prefix plus a lower-case ULID, monotonic within a process so that ids made in
// the same millisecond still sort in creation order.
import { randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';

// ulid's default generator makes one crypto call per character; draw from a pooled buffer instead
// (same CSPRNG, one call per 4 KiB).
let pool = randomBytes(4096);
let position = 0;
function pooledRandom(): number {
  if (position === pool.length) {
    pool = randomBytes(4096);
    position = 0;
  }
  return pool[position++]! / 256;
}

const next = monotonicFactory(pooledRandom);

export type IdPrefix = 'content' | 'user' | 'key' | 'acct' | 'wh' | 'evt' | 'whd' | 'req' | 'sess' | 'app' | 'grant' | 'mail' | 'job' | 'media';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${next().toLowerCase()}`;
}

/** A clock, injected so tests can move time without sleeping. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
