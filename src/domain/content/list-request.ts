// A content list request as the store runs it (CONTRACT.md §17): the sort parsed, the search
// words found, and a cursor checked and opened. A cursor is base64url JSON of the list it belongs
// to (filters, q, sort), a tag of its account, and the position of the last item shown; every
// value in it is checked before use and reaches SQL only as a bound parameter, and a cursor made
// for another account is refused like any malformed one, so it reveals nothing.
import { createHash } from 'node:crypto';
import { searchWords, type SearchWords } from '../../storage/content-search.js';
import { isModelField, SORT_FIELDS, type KeyValue, type Position, type SortKey } from '../../storage/content-sort.js';
import { FIELD_PARAM, fieldFilters, sortFieldProblem } from '../content-model/field-filters.js';
import type { FieldDefinition } from '../schemas/content-types.js';
import type { ContentFilter, Floor } from '../../storage/content-list.js';
import { DomainError, type FieldError } from '../errors.js';
import { pageWindow } from '../schemas/common.js';
import { CONTENT_STATUSES, CONTENT_TYPES, MAX_QUERY_LENGTH, type ContentListQuery } from '../schemas/content.js';

export interface ListRequest {
  filter: ContentFilter;
  q?: string;
  words?: SearchWords;
  /** The sort as given (normalised), or undefined for the default. */
  sort?: string;
  order: SortKey[];
  after?: Position;
  limit: number;
  /** Null on a page fetched by cursor. */
  offset: number | null;
  /** The `fields.*` filter parameters as sent (sorted), which a cursor carries. */
  fieldParams?: [string, string][];
  /** A search by relevance fetched by cursor: the window its first page ranked (ListQuery.floor). */
  floor?: Floor | null;
}

interface CursorBody {
  v: 1;
  /** Tag of the account the cursor was made for. */
  a: string;
  t: string | null;
  s: string | null;
  /** Publishing's filters (slug, scheduled); absent in a cursor of a list without them. */
  g?: string | null;
  p?: 1 | null;
  /** Typed-field filters as sent (parameter, value), sorted; absent when there are none. */
  f?: [string, string][];
  q: string | null;
  o: string | null;
  k: KeyValue[];
  i: string;
  /**
   * A search by relevance: the floor of its ranked window [created_at, id], plus on SQLite the
   * item's place in creation order (ListQuery's Floor.item), or null (every match ranked).
   */
  w?: [string, string] | [string, string, number] | null;
}

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const CONTENT_ID = /^content_[0-9a-z]{26}$/;

/** The model of a type, for typed-field filters and sort keys (undefined: no type given). */
export type ModelLookup = (accountId: string, type: string) => Promise<FieldDefinition[]>;

/** Parses `sort`; undefined when it is not a list of distinct known fields (typed fields are checked against the model later). */
function parseSort(sort: string): SortKey[] | undefined {
  const keys = sort.split(',').map((part) => ({ field: part.replace(/^-/, ''), desc: part.startsWith('-') }));
  const fields = keys.map((k) => k.field);
  const known = fields.every((f) => (SORT_FIELDS as readonly string[]).includes(f) || /^fields\.[a-z][a-z0-9_]{0,39}$/.test(f));
  return known && new Set(fields).size === fields.length ? (keys as SortKey[]) : undefined;
}

/** The order a list runs in: the sort given, else by relevance for a search, else newest first. */
function orderOf(sort: SortKey[] | undefined, searching: boolean): SortKey[] {
  if (sort) return sort;
  return searching ? [{ field: 'relevance', desc: true }, { field: 'created_at', desc: true }] : [{ field: 'created_at', desc: true }];
}

const sortText = (order: SortKey[]) => order.map((k) => `${k.desc ? '-' : ''}${k.field}`).join(',');

function accountTag(accountId: string): string {
  return createHash('sha256').update(accountId).digest('base64url').slice(0, 12);
}

export function encodeCursor(accountId: string, request: ListRequest, position: Position, floor?: Floor | null): string {
  const body: CursorBody = {
    v: 1,
    a: accountTag(accountId),
    t: request.filter.type ?? null,
    s: request.filter.status ?? null,
    ...(request.filter.slug !== undefined ? { g: request.filter.slug } : {}),
    ...(request.filter.scheduled ? { p: 1 as const } : {}),
    ...(request.fieldParams?.length ? { f: request.fieldParams } : {}),
    q: request.q ?? null,
    o: request.sort ?? null,
    k: position.values,
    i: position.id,
    ...(floor !== undefined ? { w: floor && (floor.item !== undefined ? [floor.created_at, floor.id, floor.item] : [floor.created_at, floor.id]) } : {}),
  };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

function validValue(field: SortKey['field'], value: unknown): boolean {
  if (isModelField(field)) return value === null || typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= 2048);
  switch (field) {
    case 'relevance':
      // 1: the title matches, 0: the body does, -1: outside the ranked window (storage/content-list.ts).
      return value === 0 || value === 1 || value === -1;
    case 'title':
      return typeof value === 'string' && value.length <= 1000;
    case 'published_at':
    case 'publish_at':
      return value === null || (typeof value === 'string' && TIMESTAMP.test(value));
    default:
      return typeof value === 'string' && TIMESTAMP.test(value);
  }
}

/** The cursor's list and position, or undefined when it is malformed or another account's. */
function decodeCursor(accountId: string, cursor: string): { body: CursorBody; order: SortKey[] } | undefined {
  let body: CursorBody;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorBody;
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || body.v !== 1 || body.a !== accountTag(accountId)) return undefined;
  const optional = (value: unknown, allowed?: readonly string[]) =>
    value === null || (typeof value === 'string' && (allowed ? allowed.includes(value) : value.length > 0));
  if (!optional(body.t, CONTENT_TYPES) || !optional(body.s, CONTENT_STATUSES) || !optional(body.q) || !optional(body.o)) return undefined;
  if (!(body.g === undefined || optional(body.g)) || !(body.p === undefined || body.p === null || body.p === 1)) return undefined;
  if (body.f !== undefined && !(Array.isArray(body.f) && body.f.every((e) => Array.isArray(e) && e.length === 2 && FIELD_PARAM.test(String(e[0])) && optional(e[1])))) return undefined;
  if (body.q !== null && ([...body.q].length > MAX_QUERY_LENGTH || !searchWords(body.q))) return undefined;
  const sort = body.o === null ? undefined : parseSort(body.o);
  if (body.o !== null && !sort) return undefined;
  const order = orderOf(sort, body.q !== null);
  if (!Array.isArray(body.k) || body.k.length !== order.length || !order.every((key, i) => validValue(key.field, body.k[i]))) return undefined;
  if (typeof body.i !== 'string' || !CONTENT_ID.test(body.i)) return undefined;
  const ranked = order.some((key) => key.field === 'relevance');
  if (ranked ? !(body.w === null || validFloor(body.w)) : body.w !== undefined) return undefined;
  return { body, order };
}

/** A cursor's floor: [created_at, id], or [created_at, id, item] (a positive integer). */
function validFloor(w: unknown): boolean {
  if (!Array.isArray(w) || (w.length !== 2 && w.length !== 3)) return false;
  return TIMESTAMP.test(String(w[0])) && CONTENT_ID.test(String(w[1])) && (w.length === 2 || (Number.isSafeInteger(w[2]) && (w[2] as number) > 0));
}

const bad = (field: string, message: string): FieldError => ({ field, code: 'invalid_value', message });

/** The `fields.*` parameters of a query, sorted by name. */
function fieldParamsOf(query: ContentListQuery): [string, string][] {
  return Object.entries(query as Record<string, unknown>)
    .filter((entry): entry is [string, string] => entry[0].startsWith('fields.') && typeof entry[1] === 'string')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Turns the validated query into what the store runs; bad combinations are one 400 listing each.
 * Typed-field filters and sort keys are read against the model of the list's type (`models`).
 */
export async function listRequest(accountId: string, query: ContentListQuery, models?: ModelLookup): Promise<ListRequest> {
  const errors: FieldError[] = [];
  const window = pageWindow(query);
  const sort = query.sort === undefined ? undefined : parseSort(query.sort);
  if (query.sort !== undefined && !sort) {
    errors.push(bad('sort', `sort must be a comma-separated list of distinct fields among ${SORT_FIELDS.join(', ')} and indexed fields.<name>, each optionally prefixed with -.`));
  }
  if (query.q !== undefined && !searchWords(query.q)) errors.push(bad('q', 'q must contain at least one letter or digit.'));
  const fieldParams = fieldParamsOf(query);

  let request: ListRequest = {
    filter: { type: query.type, status: query.status, slug: query.slug, scheduled: query.scheduled === 'true' || undefined },
    q: query.q,
    words: query.q === undefined ? undefined : searchWords(query.q),
    sort: sort && sortText(sort),
    order: orderOf(sort, query.q !== undefined),
    limit: window.limit,
    offset: window.offset,
    fieldParams,
  };
  if (query.cursor !== undefined) {
    const opened = decodeCursor(accountId, query.cursor);
    if (query.offset !== undefined) errors.push(bad('offset', 'offset cannot be combined with cursor: the cursor says where the page starts.'));
    if (!opened) {
      errors.push(bad('cursor', 'cursor is not a cursor this list gave out; start again without it.'));
    } else {
      const { body, order } = opened;
      // Filters, q and sort may be repeated unchanged or left out; anything else is another list.
      // A sort is compared as the order it means: -created_at is the default's order too.
      const givenOrder = sort && sortText(orderOf(sort, body.q !== null));
      const carriedFields = new Map(body.f ?? []);
      const given: [string, string | undefined, string | null][] = [
        ['type', query.type, body.t],
        ['status', query.status, body.s],
        ['slug', query.slug, body.g ?? null],
        ['scheduled', query.scheduled, body.p ? 'true' : null],
        ['q', query.q, body.q],
        ['sort', givenOrder, sortText(order)],
        ...fieldParams.map(([param, value]): [string, string, string | null] => [param, value, carriedFields.get(param) ?? null]),
      ];
      for (const [name, value, carried] of given) {
        if (value !== undefined && value !== carried) errors.push(bad(name, `${name} does not match the cursor's; repeat it unchanged or leave it out.`));
      }
      request = {
        filter: { type: body.t ?? undefined, status: body.s ?? undefined, slug: body.g ?? undefined, scheduled: body.p ? true : undefined },
        q: body.q ?? undefined,
        words: body.q === null ? undefined : searchWords(body.q),
        sort: body.o ?? undefined,
        order,
        after: { values: body.k, id: body.i },
        limit: window.limit,
        offset: null,
        fieldParams: body.f ?? [],
        ...(body.w !== undefined ? { floor: body.w && { created_at: body.w[0], id: body.w[1], ...(body.w.length === 3 ? { item: body.w[2] } : {}) } } : {}),
      };
    }
  }
  const modelFields = request.order.filter((key) => isModelField(key.field));
  if (request.fieldParams?.length || modelFields.length) {
    // Typed fields are read against the model of the list's type, as it is now.
    const type = request.filter.type;
    const model = type !== undefined && models ? await models(accountId, type) : undefined;
    request.filter.fields = fieldFilters(request.fieldParams ?? [], type, model, errors);
    for (const key of modelFields) {
      const problem = sortFieldProblem(key.field.slice('fields.'.length), type, model);
      if (problem) errors.push(bad('sort', problem));
    }
  }
  if (errors.length) throw new DomainError('invalid_parameter', 'One or more query parameters are invalid; see errors.', errors);
  return request;
}
