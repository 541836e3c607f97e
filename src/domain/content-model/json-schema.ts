// A content model as JSON Schema (2020-12): the one description of a type's fields, from which the
// write validator is compiled (field-validator.ts), the schema clients generate types from is served,
// and the dashboard builds its form. Each kind is one entry of KIND_SCHEMAS: no per-kind checks elsewhere.
import type { FieldDefinition, FieldKind } from '../schemas/content-types.js';
import { CONTENT_TYPES, type ContentType } from '../schemas/content.js';

export type JsonSchema = Record<string, unknown>;

/** Defaults and ceilings where a definition gives none (docs/content-model.md). */
export const LIMITS = { string: 1000, text: 100_000, url: 2048, listItems: 1000, integer: Number.MAX_SAFE_INTEGER } as const;
export const CONTENT_ID_PATTERN = '^content_[0-9a-z]{26}$';
export const MEDIA_ID_PATTERN = '^media_[0-9a-z]{26}$';

const bounds = (field: FieldDefinition, min: string, max: string): JsonSchema => ({
  ...(field.min !== undefined ? { [min]: field.min } : {}),
  ...(field.max !== undefined ? { [max]: field.max } : {}),
});

/** The schema of one value of `kind` under `field`'s rules (for a list: of one element). */
const KIND_SCHEMAS: Record<Exclude<FieldKind, 'list'>, (field: FieldDefinition) => JsonSchema> = {
  string: (f) => ({ type: 'string', maxLength: f.max_length ?? LIMITS.string, 'x-single-line': true }),
  text: (f) => ({ type: 'string', maxLength: f.max_length ?? LIMITS.text, 'x-multiline': true }),
  integer: (f) => ({ type: 'integer', minimum: -LIMITS.integer, maximum: LIMITS.integer, ...bounds(f, 'minimum', 'maximum') }),
  number: (f) => ({ type: 'number', ...bounds(f, 'minimum', 'maximum') }),
  boolean: () => ({ type: 'boolean' }),
  date: (f) => ({ type: 'string', format: 'date', ...bounds(f, 'formatMinimum', 'formatMaximum') }),
  datetime: (f) => ({ type: 'string', format: 'date-time', ...bounds(f, 'formatMinimum', 'formatMaximum') }),
  enum: (f) => ({ type: 'string', enum: f.values ?? [] }),
  url: (f) => ({ type: 'string', format: 'uri', pattern: '^https?://', maxLength: f.max_length ?? LIMITS.url }),
  media: () => ({ type: 'string', pattern: MEDIA_ID_PATTERN, 'x-reference': 'media' }),
  reference: (f) => ({ type: 'string', pattern: CONTENT_ID_PATTERN, 'x-reference': 'content', 'x-types': f.types ?? [...CONTENT_TYPES] }),
};

/** The schema of field `field`'s value (without its description and default). */
export function valueSchema(field: FieldDefinition): JsonSchema {
  if (field.kind === 'list') return { type: 'array', items: KIND_SCHEMAS[field.of ?? 'string'](field), maxItems: LIMITS.listItems };
  return KIND_SCHEMAS[field.kind](field);
}

/** The schema of an item's `fields` object: what a write must leave the item with. */
export function fieldsSchema(fields: FieldDefinition[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(
      fields.map((field) => [
        field.name,
        { ...valueSchema(field), ...(field.description ? { description: field.description } : {}), ...(field.default !== undefined ? { default: field.default } : {}) },
      ]),
    ),
    required: fields.filter((field) => field.required).map((field) => field.name),
    additionalProperties: false,
  };
}

/** The JSON Schema of a `type` item as read (GET /v1/content-types/{type}/schema). */
export function itemSchema(type: ContentType, fields: FieldDefinition[], version: number, baseUrl: string): JsonSchema {
  const nullableTime = { type: ['string', 'null'], format: 'date-time' };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${baseUrl}/v1/content-types/${type}/schema?version=${version}`,
    title: `${type[0]!.toUpperCase()}${type.slice(1)}Item`,
    description: `A ${type} content item, model version ${version}.`,
    type: 'object',
    properties: {
      id: { type: 'string', pattern: CONTENT_ID_PATTERN },
      title: { type: 'string' },
      type: { const: type },
      slug: { type: ['string', 'null'] },
      content: { type: 'string' },
      status: { enum: ['draft', 'published', 'archived'] },
      author: { type: 'string' },
      created_at: { type: 'string', format: 'date-time' },
      updated_at: { type: 'string', format: 'date-time' },
      published_at: nullableTime,
      publish_at: nullableTime,
      unpublish_at: nullableTime,
      version: { type: 'integer', minimum: 1 },
      fields: { ...fieldsSchema(fields), title: `${type[0]!.toUpperCase()}${type.slice(1)}Fields` },
    },
    required: ['id', 'title', 'type', 'slug', 'status', 'author', 'created_at', 'updated_at', 'fields'],
    additionalProperties: false,
  };
}
