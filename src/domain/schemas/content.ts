// Content item schemas: one source for request validation, TypeScript types and the OpenAPI document.
import Type, { type Static } from 'typebox';
import { PagingQuery, StringEnum, Text, Timestamp } from './common.js';

export const CONTENT_TYPES = ['blog', 'manual', 'whitepaper', 'strategy'] as const;
export const CONTENT_STATUSES = ['draft', 'published', 'archived'] as const;
export const WRITABLE_STATUSES = ['draft', 'published'] as const;
/** 1 MiB of UTF-8: the largest content body accepted. */
export const MAX_CONTENT_BYTES = 1024 * 1024;

const ContentId = Type.String({ description: 'content_ followed by a lower-case ULID.', examples: ['content_01jd2x3m4n5p6q7r8s9t0v1w2x'] });

export const ContentListItem = Type.Object(
  {
    id: ContentId,
    title: Type.String(),
    type: StringEnum(CONTENT_TYPES),
    status: StringEnum(CONTENT_STATUSES),
    author: Type.String({ description: 'Id of the user who created the item.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);

export const ContentItem = Type.Object(
  {
    ...ContentListItem.properties,
    content: Type.String({ description: 'Body, Markdown supported.' }),
    published_at: Type.Union([Timestamp, Type.Null()], { description: 'When the item was first published; null until then.' }),
    version: Type.Integer({ minimum: 1, description: '1 on create, +1 on every change; also sent as the ETag.' }),
  },
  { additionalProperties: false },
);

/** A full item with its body rendered (GET /v1/content/{id}?render=html). */
export const RenderedContentItem = Type.Object(
  {
    ...ContentItem.properties,
    content_html: Type.Optional(
      Type.String({ description: 'With render=html: the body as sanitized HTML (CommonMark, GitHub tables, strikethrough and autolinks).' }),
    ),
  },
  { additionalProperties: false },
);

export const ContentGetQuery = Type.Object(
  { render: Type.Optional(StringEnum(['html'] as const, { description: 'html adds content_html, the body rendered as sanitized HTML.' })) },
  { additionalProperties: false },
);

const fields = {
  title: Text({ maxLength: 200, description: '1 to 200 characters, not all white space.' }),
  type: StringEnum(CONTENT_TYPES),
  content: Text({ 'x-max-utf8-bytes': MAX_CONTENT_BYTES, 'x-multiline': true, description: 'Markdown; at most 1 MiB of UTF-8.' }),
  status: StringEnum(WRITABLE_STATUSES, {
    description: 'draft or published. To archive an item use POST /v1/content/{id}/archive.',
    'x-hint': 'To archive an item, use POST /v1/content/{id}/archive.',
  }),
};
const READ_ONLY = ['id', 'author', 'created_at', 'updated_at', 'published_at', 'version'];

export const ContentCreate = Type.Object(
  { title: fields.title, type: fields.type, content: fields.content, status: Type.Optional(fields.status) },
  { additionalProperties: false, 'x-read-only': READ_ONLY },
);

export const ContentUpdate = Type.Object(
  {
    title: Type.Optional(fields.title),
    type: Type.Optional(fields.type),
    content: Type.Optional(fields.content),
    status: Type.Optional(fields.status),
  },
  { additionalProperties: false, minProperties: 1, 'x-read-only': READ_ONLY },
);

/** The longest `q` accepted, in characters. */
export const MAX_QUERY_LENGTH = 200;

export const ContentListQuery = Type.Object(
  {
    type: Type.Optional(StringEnum(CONTENT_TYPES, { description: 'Only items of this type.' })),
    status: Type.Optional(StringEnum(CONTENT_STATUSES, { description: 'Only items in this status.' })),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_QUERY_LENGTH,
        description:
          'Full-text search: items whose title or body contain every word (case, accents and English word endings ignored; ' +
          'the last word also matches as a prefix). Without sort: by relevance (title matches first), then newest first.',
      }),
    ),
    sort: Type.Optional(
      Type.String({
        description:
          'Comma-separated fields among created_at, updated_at, published_at, title, each optionally prefixed with - for descending; ' +
          'ties end on id descending. Default -created_at. Items without published_at come after all others in both directions.',
        examples: ['-published_at,title'],
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        description:
          'pagination.next_cursor of the previous page. It carries the filters, q and sort of the first request: repeat them ' +
          'unchanged or leave them out. Not combinable with offset.',
      }),
    ),
    limit: Type.Optional(PagingQuery.limit),
    offset: Type.Optional(Type.Integer({ ...PagingQuery.offset, description: 'Number of items to skip (not with cursor).' })),
  },
  { additionalProperties: false },
);

export const ContentPagination = Type.Object(
  {
    total: Type.Integer({ description: 'Number of items matching the filters and q (see total_exact).' }),
    limit: Type.Integer({ description: 'Page size applied (values above 100 are clamped to 100).' }),
    offset: Type.Union([Type.Integer(), Type.Null()], { description: 'Items skipped; null on a page fetched by cursor.' }),
    has_more: Type.Boolean({ description: 'True when further items exist after this page.' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page.' }),
    total_exact: Type.Optional(
      Type.Boolean({ description: 'Present and false only when a search matched more than 10,000 items: total is then 10000.' }),
    ),
  },
  { additionalProperties: false },
);

export type ContentItem = Static<typeof ContentItem>;
export type RenderedContentItem = Static<typeof RenderedContentItem>;
export type ContentGetQuery = Static<typeof ContentGetQuery>;
export type ContentListItem = Static<typeof ContentListItem>;
export type ContentCreate = Static<typeof ContentCreate>;
export type ContentUpdate = Static<typeof ContentUpdate>;
export type ContentListQuery = Static<typeof ContentListQuery>;
export type ContentPagination = Static<typeof ContentPagination>;
export interface ContentPage {
  data: ContentListItem[];
  pagination: ContentPagination;
}
export type ContentType = (typeof CONTENT_TYPES)[number];
export type ContentStatus = (typeof CONTENT_STATUSES)[number];
