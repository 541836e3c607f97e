// Content model schemas (CONTRACT.md §20): one source for request validation, TypeScript types and the OpenAPI document.
import Type, { type Static } from 'typebox';
import { StringEnum, Timestamp } from './common.js';
import { CONTENT_TYPES } from './content.js';

export const FIELD_KINDS = ['string', 'text', 'integer', 'number', 'boolean', 'date', 'datetime', 'enum', 'url', 'media', 'reference', 'list'] as const;
/** What a list's elements may be: any kind but a list. */
export const ITEM_KINDS = FIELD_KINDS.filter((kind) => kind !== 'list') as Exclude<FieldKind, 'list'>[];
export const MAX_FIELDS = 50;
export const FIELD_NAME_PATTERN = '^[a-z][a-z0-9_]{0,39}$';

const Bound = Type.Union([Type.Number(), Type.String({ maxLength: 40 })], {
  description: 'integer and number: a number; date: YYYY-MM-DD; datetime: ISO 8601. On a list, applies to each element.',
});

export const FieldDefinition = Type.Object(
  {
    name: Type.String({ pattern: FIELD_NAME_PATTERN, description: 'a-z, then up to 39 of a-z, 0-9 and _.', examples: ['product'] }),
    kind: StringEnum(FIELD_KINDS),
    required: Type.Optional(Type.Boolean({ description: 'Default false. Making a field required checks the stored items (409 with counts).' })),
    default: Type.Optional(Type.Unknown({ description: 'Given to new items that leave the field out; must satisfy the field itself.' })),
    indexed: Type.Optional(Type.Boolean({ description: 'Default false. Indexed fields can be filtered (fields.<name>…) and sorted by.' })),
    description: Type.Optional(Type.String({ maxLength: 500, 'x-multiline': true })),
    max_length: Type.Optional(Type.Integer({ minimum: 1, description: 'string (at most 1,000), text (at most 100,000), url (at most 2,048): the most characters.' })),
    min: Type.Optional(Bound),
    max: Type.Optional(Bound),
    values: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 200, description: 'enum: the allowed values.' })),
    of: Type.Optional(StringEnum(ITEM_KINDS, { description: 'list: the kind of each element (the other keys then apply to each element).' })),
    types: Type.Optional(Type.Array(StringEnum(CONTENT_TYPES), { minItems: 1, description: 'reference: the content types it may point to (default: all).' })),
  },
  { additionalProperties: false },
);

export const ContentTypeParams = Type.Object({ type: StringEnum(CONTENT_TYPES) });

export const ContentTypePut = Type.Object(
  { fields: Type.Array(FieldDefinition, { maxItems: MAX_FIELDS, description: `At most ${MAX_FIELDS} fields, in the order forms show them.` }) },
  { additionalProperties: false },
);

export const ContentTypeModel = Type.Object(
  {
    type: StringEnum(CONTENT_TYPES),
    fields: Type.Array(FieldDefinition),
    version: Type.Integer({ minimum: 0, description: '0 for a model never written; +1 on every change; also sent as the ETag.' }),
    updated_at: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);

export type FieldKind = (typeof FIELD_KINDS)[number];
export type FieldDefinition = Static<typeof FieldDefinition>;
export type ContentTypePut = Static<typeof ContentTypePut>;
export type ContentTypeModel = Static<typeof ContentTypeModel>;
