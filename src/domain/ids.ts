// Identifiers: a type prefix plus a lower-case ULID, monotonic within a process so that ids made in
// the same millisecond still sort in creation order.
import { monotonicFactory } from 'ulid';

const next = monotonicFactory();

export type IdPrefix = 'content' | 'user' | 'key' | 'acct' | 'wh' | 'evt' | 'whd' | 'req';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${next().toLowerCase()}`;
}

/** A clock, injected so tests can move time without sleeping. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
