// Content item schemas: one source for request validation, TypeScript types and the OpenAPI document.
import Type, { type Static } from 'typebox';
import { PagingQuery, StringEnum, Text, Timestamp } from './common.js';

export const CONTENT_TYPES = ['blog', 'manual', 'whitepaper', 'strategy'] as const;
export const CONTENT_STATUSES = ['draft', 'published', 'archived'] as const;
export const WRITABLE_STATUSES = ['draft', 'published'] as const;
/** 1 MiB of UTF-8: the largest content body accepted. */
export const MAX_CONTENT_BYTES = 1024 * 1024;

const ContentId = Type.String({ description: 'content_ followed by a lower-case ULID.', examples: ['content_01jd2x3m4n5p6q7r8s9t0v1w2x'] });

/** 1–200 characters of a-z and 0-9, with single hyphens between them (CONTRACT.md §19). */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
export const MAX_SLUG_LENGTH = 200;
/** A schedule lies at most this far ahead. */
export const MAX_SCHEDULE_YEARS = 5;
const Slug = (description: string) => Type.String({ minLength: 1, maxLength: MAX_SLUG_LENGTH, pattern: SLUG_PATTERN, description, examples: ['creme-brulee-q3'] });
const ScheduleTime = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

/** An item's typed fields (CONTRACT.md §20): names and kinds as its type's model defines them. */
export const ItemFields = Type.Object({}, {
  additionalProperties: true,
  description: "The item's typed fields, as its type's model defines them (GET /v1/content-types/{type}); {} when it has none.",
});
/** `fields` in a write: merged into the stored ones; null removes an optional field. Strings may span lines (a text field's). */
export const WrittenFields = Type.Object({}, {
  additionalProperties: Type.Unknown({ 'x-multiline': true }),
  'x-multiline': true,
  description: "Values of the type's model fields. On update merged into the stored ones; null removes an optional field. Each failure is listed as fields.<name>.",
});

export const ContentListItem = Type.Object(
  {
    id: ContentId,
    title: Type.String(),
    type: StringEnum(CONTENT_TYPES),
    slug: Type.Union([Slug('Unique per account and type; made from the title unless given. Old slugs stay aliases.'), Type.Null()], {
      description: 'Unique per account and type; made from the title unless given; old slugs stay aliases. Null only for an item written before slugs existed, until it gets one.',
    }),
    status: StringEnum(CONTENT_STATUSES),
    author: Type.String({ description: 'Id of the user who created the item.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    fields: ItemFields,
  },
  { additionalProperties: false },
);

export const ContentItem = Type.Object(
  {
    ...ContentListItem.properties,
    content: Type.String({ description: 'Body, Markdown supported.' }),
    published_at: Type.Union([Timestamp, Type.Null()], { description: 'When the item was first published; null until then.' }),
    publish_at: Type.Union([Timestamp, Type.Null()], { description: 'When the item is to be published; null: no publication scheduled.' }),
    unpublish_at: Type.Union([Timestamp, Type.Null()], { description: 'When the item is to be archived; null: no end scheduled.' }),
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
    description: 'draft or published. To archive an item use POST /v1/content/{id}/archive. Changing it cancels a pending schedule (unless the same request sets one).',
    'x-hint': 'To archive an item, use POST /v1/content/{id}/archive.',
  }),
  slug: Slug('1–200 characters of a-z, 0-9 and single hyphens; unique per account and type (409 when in use). Omitted on create: made from the title.'),
  publish_at: ScheduleTime('Publish the item at this time (ISO 8601; in the future, at most 5 years ahead; not on a published item); null clears it.'),
  unpublish_at: ScheduleTime('Archive the item at this time (after publish_at when both are set; at most 5 years ahead); null clears it.'),
};
const READ_ONLY = ['id', 'author', 'created_at', 'updated_at', 'published_at', 'version'];

export const ContentCreate = Type.Object(
  {
    title: fields.title,
    type: fields.type,
    content: fields.content,
    status: Type.Optional(fields.status),
    slug: Type.Optional(fields.slug),
    publish_at: Type.Optional(fields.publish_at),
    unpublish_at: Type.Optional(fields.unpublish_at),
    fields: Type.Optional(WrittenFields),
  },
  { additionalProperties: false, 'x-read-only': READ_ONLY },
);

export const ContentUpdate = Type.Object(
  {
    title: Type.Optional(fields.title),
    type: Type.Optional(fields.type),
    content: Type.Optional(fields.content),
    status: Type.Optional(fields.status),
    slug: Type.Optional(fields.slug),
    publish_at: Type.Optional(fields.publish_at),
    unpublish_at: Type.Optional(fields.unpublish_at),
    fields: Type.Optional(WrittenFields),
  },
  { additionalProperties: false, minProperties: 1, 'x-read-only': READ_ONLY },
);

/** Typed-field filters (CONTRACT.md §20), as list query parameters and as a bulk job's filter keys. */
export const FIELD_FILTERS = {
  '^fields\\.[a-z][a-z0-9_]{0,39}(\\[(gt|gte|lt|lte|in|contains)\\])?$': Type.String({
    maxLength: 2000,
    description: 'A filter on an indexed typed field of `type`: equal, or [gt|gte|lt|lte] a value, [in] a comma-separated list, [contains] an element of a list field.',
  }),
};

/** The longest `q` accepted, in characters. */
export const MAX_QUERY_LENGTH = 200;

export const ContentListQuery = Type.Object(
  {
    type: Type.Optional(StringEnum(CONTENT_TYPES, { description: 'Only items of this type.' })),
    status: Type.Optional(StringEnum(CONTENT_STATUSES, { description: 'Only items in this status (a delivery key always gets published items).' })),
    slug: Type.Optional(
      Type.String({ maxLength: MAX_SLUG_LENGTH, description: 'Only the item with this slug, current or an old one (at most one per type); data[0].slug is its current slug.' }),
    ),
    scheduled: Type.Optional(StringEnum(['true'] as const, { description: 'true: only items with a pending publish_at or unpublish_at.' })),
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
          'Comma-separated fields among created_at, updated_at, published_at, publish_at, title, each optionally prefixed with - for descending; ' +
          'ties end on id descending. Default -created_at. Items without published_at (or publish_at) come after all others in both directions.',
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
  {
    additionalProperties: false,
    // Typed fields (CONTRACT.md §20): fields.<name>=<v> and fields.<name>[gt|gte|lt|lte|in|contains]=<v>, on indexed fields of the type given.
    patternProperties: FIELD_FILTERS,
  },
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
