// The media library's shapes (CONTRACT.md §18): one source for validation, the types and the OpenAPI document.
import Type, { type Static } from 'typebox';
import { StringEnum, Timestamp } from './common.js';
import { ContentPagination } from './content.js';

export const MEDIA_KINDS = ['image', 'document', 'other'] as const;
export const VARIANT_FITS = ['cover', 'contain', 'inside'] as const;
export const VARIANT_FORMATS = ['webp', 'avif', 'jpeg', 'png'] as const;

export const MediaRecord = Type.Object(
  {
    id: Type.String({ examples: ['media_01jd2x3m4n5p6q7r8s9t0v1w2x'] }),
    filename: Type.String(),
    content_type: Type.String({ description: 'Read from the bytes, never taken from the client.' }),
    size: Type.Integer({ description: 'Bytes.' }),
    sha256: Type.String({ description: 'Hex SHA-256 of the bytes; also the file ETag.' }),
    width: Type.Union([Type.Integer(), Type.Null()], { description: 'Pixels (images; SVG from its attributes or viewBox), else null.' }),
    height: Type.Union([Type.Integer(), Type.Null()]),
    alt: Type.String(),
    title: Type.String(),
    public: Type.Boolean({ description: 'Served without a key at url when true.' }),
    url: Type.Union([Type.String(), Type.Null()], { description: '{base_url}/media/{id}/{filename} when public, else null.' }),
    used_by: Type.Array(Type.String(), { description: 'Ids of the content items that reference it.' }),
    version: Type.Integer(),
    created_by: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);

/** The parts of POST /v1/media, for the OpenAPI document (the body is streamed, never buffered). */
export const MediaUpload = Type.Object(
  {
    file: Type.String({ format: 'binary', description: 'The file: one part; its type is read from the bytes.' }),
    alt: Type.Optional(Type.String({ maxLength: 500 })),
    title: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false, 'x-optional-body': true, 'x-multipart': true },
);

export const MediaUpdate = Type.Object(
  {
    alt: Type.Optional(Type.String({ maxLength: 500 })),
    title: Type.Optional(Type.String({ maxLength: 200 })),
    filename: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'No `/`, `\\`, control characters or NUL.' })),
    public: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const MediaListQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Words found in the filename, title or alt (case-insensitive).' })),
    type: Type.Optional(StringEnum(MEDIA_KINDS)),
    limit: Type.Optional(Type.Integer({ minimum: 1, description: 'Page size, 1 or more; values above 100 are clamped to 100.' })),
    offset: Type.Optional(Type.Integer({ minimum: 0 })),
    cursor: Type.Optional(Type.String({ minLength: 1, description: 'pagination.next_cursor of the previous page.' })),
  },
  { additionalProperties: false },
);

export const MediaDeleteQuery = Type.Object(
  { force: Type.Optional(StringEnum(['true', 'false'], { description: 'true deletes media still referenced by content.' })) },
  { additionalProperties: false },
);

export const VariantQuery = Type.Object(
  {
    w: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096 })),
    h: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096 })),
    fit: Type.Optional(StringEnum(VARIANT_FITS)),
    format: Type.Optional(StringEnum(VARIANT_FORMATS)),
    q: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    // Signed links to private media (render=html).
    expires: Type.Optional(Type.Integer({ minimum: 0 })),
    sig: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,100}$' })),
  },
  { additionalProperties: false },
);

export const MediaPagination = ContentPagination;

export type MediaRecord = Static<typeof MediaRecord>;
export type MediaUpdate = Static<typeof MediaUpdate>;
export type MediaListQuery = Static<typeof MediaListQuery>;
export type VariantQuery = Static<typeof VariantQuery>;
export type MediaKind = (typeof MEDIA_KINDS)[number];
export interface MediaPage {
  data: MediaRecord[];
  pagination: Static<typeof ContentPagination>;
}
