// Cursor paging (CONTRACT.md §17) for the lists ordered newest first by (created_at, id) — media and
// bulk jobs: the cursor is the last item's position, the account and the filters of the first
// request, as base64url JSON. A cursor with an offset, a malformed one, another account's, or one
// sent with other filters → 400, as on content lists.
import { DomainError, type FieldError } from './errors.js';
import type { ContentPagination } from './schemas/content.js';

export interface KeysetPosition {
  created_at: string;
  id: string;
}

type Filters = Record<string, string | undefined>;

function encodeCursor(accountId: string, last: KeysetPosition, filters: Filters = {}): string {
  return Buffer.from(JSON.stringify({ a: accountId, c: last.created_at, i: last.id, ...filters })).toString('base64url');
}

/**
 * Where a list query continues: after the cursor's position, with the cursor's filters (which the
 * query may repeat, unchanged); without a cursor, from `offset` with the query's own filters.
 */
export function continuation<F extends Filters>(query: { cursor?: string; offset?: number }, accountId: string, filters: F): { after?: KeysetPosition; offset: number; filters: F } {
  if (query.cursor === undefined) return { offset: query.offset ?? 0, filters };
  const cursor = decode(query.cursor, accountId);
  const errors: FieldError[] = [];
  if (query.offset !== undefined) errors.push({ field: 'offset', code: 'invalid_value', message: 'Send cursor or offset, not both.' });
  if (!cursor) errors.push({ field: 'cursor', code: 'invalid_value', message: 'The cursor is malformed.' });
  else if (Object.entries(filters).some(([name, value]) => value !== undefined && value !== cursor[name])) {
    errors.push({ field: 'cursor', code: 'invalid_value', message: 'The cursor was made with other filters.' });
  }
  if (errors.length) throw new DomainError('invalid_parameter', 'Some query parameters are invalid; see errors.', errors);
  const carried = Object.fromEntries(Object.keys(filters).map((name) => [name, cursor![name]])) as F;
  return { after: { created_at: cursor!.c!, id: cursor!.i! }, offset: 0, filters: carried };
}

/**
 * A page made of the `limit + 1` rows read where `continuation` said: the rows shown and the
 * pagination, with a cursor (carrying `filters`) when more rows follow.
 */
export function cursorPage<R extends KeysetPosition>(
  rows: R[],
  at: { limit: number; offset: number; after?: KeysetPosition; total: number },
  accountId: string,
  filters: Filters = {},
): { rows: R[]; pagination: ContentPagination } {
  const shown = rows.slice(0, at.limit);
  const last = shown.at(-1);
  const next = rows.length > at.limit && last ? encodeCursor(accountId, last, filters) : null;
  return { rows: shown, pagination: { total: at.total, limit: at.limit, offset: at.after ? null : at.offset, has_more: next !== null, next_cursor: next } };
}

function decode(text: string, accountId: string): Filters | undefined {
  try {
    const cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Filters;
    if (cursor === null || typeof cursor !== 'object' || cursor.a !== accountId || typeof cursor.c !== 'string' || typeof cursor.i !== 'string') return undefined;
    return cursor;
  } catch {
    return undefined;
  }
}
