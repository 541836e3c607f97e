// POST /v1/content/batch (CONTRACT.md §21): one schema per kind of operation, told apart by `op`
// (an OpenAPI discriminator, which the validator also uses, so an operation's errors are those of
// its own kind only). `data` is exactly the single routes' body, so a batch accepts what they accept.
import Type, { type Static, type TSchema } from 'typebox';
import { ContentCreate, ContentItem, ContentUpdate } from './content.js';

export const MAX_BATCH_OPERATIONS = 100;
export const BATCH_OPS = ['create', 'update', 'delete', 'publish', 'archive'] as const;
export type BatchOp = (typeof BATCH_OPS)[number];

const Id = Type.String({ minLength: 1, description: 'The content item id.' });
const IfMatch = Type.String({ description: 'The ETag, as the If-Match header ("3"); a stale one fails this operation with 412 (atomic: 422 on operations[i].if_match).' });
const op = <T extends BatchOp>(name: T) => Type.Literal(name);

const Create = Type.Object({ op: op('create'), data: ContentCreate }, { additionalProperties: false, title: 'BatchCreate' });
const Update = Type.Object({ op: op('update'), id: Id, data: ContentUpdate, if_match: Type.Optional(IfMatch) }, { additionalProperties: false, title: 'BatchUpdate' });
const ById = <T extends 'delete' | 'publish' | 'archive'>(name: T) =>
  Type.Object({ op: op(name), id: Id, if_match: Type.Optional(IfMatch) }, { additionalProperties: false, title: `Batch${name[0]!.toUpperCase()}${name.slice(1)}` });
const Delete = ById('delete');
const Publish = ById('publish');
const Archive = ById('archive');

export type BatchOperationBody = Static<typeof Create> | Static<typeof Update> | Static<typeof Delete> | Static<typeof Publish> | Static<typeof Archive>;

/** A oneOf with a discriminator (TypeBox writes unions as anyOf, which carries none). */
const OperationSchema = Type.Unsafe<BatchOperationBody>({
  type: 'object',
  oneOf: [Create, Update, Delete, Publish, Archive] as TSchema[],
  discriminator: { propertyName: 'op' },
  description: 'create (data: the create body), update (id, data: the update body), delete, publish, archive (id); if_match on all but create.',
});

export const ContentBatchBody = Type.Object(
  {
    operations: Type.Array(OperationSchema, { minItems: 1, maxItems: MAX_BATCH_OPERATIONS, description: '1 to 100 operations, applied in order.' }),
    atomic: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'true (default): all or nothing in one transaction; false: each operation stands alone, with a result of its own.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ContentBatchBody = Static<typeof ContentBatchBody>;

const ResultError = Type.Object(
  {
    message: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), code: Type.String(), message: Type.String() }, { additionalProperties: false }))),
  },
  { additionalProperties: false },
);

export const BatchResult = Type.Object(
  {
    status: Type.Integer({ description: 'The HTTP status the operation alone would have had (201, 200, 204, 403, 404, 409, 412, 422…).' }),
    data: Type.Optional(Type.Union([ContentItem, Type.Null()], { description: 'The item (create, update, publish, archive); null for a delete.' })),
    error: Type.Optional(ResultError),
  },
  { additionalProperties: false },
);
export type BatchResult = Static<typeof BatchResult>;
