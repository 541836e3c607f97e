// Schema pieces shared by every resource: string enums, non-blank strings, timestamps, paging.
import Type, { type Static, type TSchema } from 'typebox';

/** Pattern meaning "has at least one non-white-space character"; a miss maps to `too_short`. */
export const NON_BLANK = '\\S';

export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * A non-blank string. Every string of a body is held to the text rules (domain/text.ts): one line,
 * unless its schema says `'x-multiline': true` (tab and line breaks allowed).
 */
export function Text(options: { minLength?: number; maxLength?: number; description?: string; [k: string]: unknown }) {
  return Type.String({ minLength: 1, pattern: NON_BLANK, ...options });
}

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds.', examples: ['2026-11-22T09:15:03.123Z'] });

export const Meta = Type.Object(
  {
    request_id: Type.String({ description: 'Same as the X-Request-Id header.', examples: ['req_01jd2x3m4n5p6q7r8s9t0v1w2x'] }),
    response_time: Type.String({ description: 'Server time spent, in milliseconds.', examples: ['1.27ms'] }),
  },
  { additionalProperties: false },
);

export const Pagination = Type.Object(
  {
    total: Type.Integer({ description: 'Number of items matching the filters.' }),
    limit: Type.Integer({ description: 'Page size applied (values above 100 are clamped to 100).' }),
    offset: Type.Integer({ description: 'Items skipped.' }),
    has_more: Type.Boolean({ description: 'True when further items exist after this page.' }),
  },
  { additionalProperties: false },
);

export const PagingQuery = {
  limit: Type.Integer({ minimum: 1, default: 10, description: 'Page size, 1 or more; values above 100 are clamped to 100.' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'Number of items to skip.' }),
};
export const MAX_LIMIT = 100;

/** The page a list query asks for: `limit` defaults to 10 and is clamped to 100 (CONTRACT.md §5). */
export function pageWindow(query: { limit?: number; offset?: number }): { limit: number; offset: number } {
  return { limit: Math.min(query.limit ?? 10, MAX_LIMIT), offset: query.offset ?? 0 };
}

/** A page of rows with its pagination object; `has_more` is `offset + len(data) < total`. */
export function pageOf<T>(data: T[], total: number, window: { limit: number; offset: number }): PageResult<T> {
  return { data, pagination: { total, ...window, has_more: window.offset + data.length < total } };
}

/**
 * Marks `meta` required in the JSON schema (it is on every response) while the TypeScript type
 * leaves it optional: handlers return data only and the HTTP layer adds meta to every response.
 */
function withMeta<S extends { required?: string[] }>(schema: S): S {
  return { ...schema, required: [...(schema.required ?? []), 'meta'] };
}

/** `{data, meta}` around one resource. */
export const One = <T extends TSchema>(item: T) => withMeta(Type.Object({ data: item, meta: Type.Optional(Meta) }));
/** `{data: [...], pagination, meta}` around a page of resources (content lists have a pagination of their own). */
export const Page = <T extends TSchema, P extends TSchema = typeof Pagination>(item: T, pagination: P = Pagination as unknown as P) =>
  withMeta(Type.Object({ data: Type.Array(item), pagination, meta: Type.Optional(Meta) }));

export interface PageResult<T> {
  data: T[];
  pagination: Static<typeof Pagination>;
}
