// API key schemas: one source for request validation, TypeScript types and the OpenAPI document.
import Type, { type Static } from 'typebox';
import { PagingQuery, StringEnum, Text, Timestamp } from './common.js';
import { SCOPES } from '../auth/permissions.js';

export const ApiKey = Type.Object(
  {
    id: Type.String({ description: 'key_ followed by a lower-case ULID.', examples: ['key_01jd2x3m4n5p6q7r8s9t0v1w2x'] }),
    name: Type.String(),
    prefix: Type.String({ description: 'The first 12 characters of the key, to recognise it.', examples: ['cms_live_4Fq'] }),
    scopes: Type.Array(StringEnum(SCOPES)),
    user_id: Type.String({ description: 'The user the key acts as.' }),
    created_at: Timestamp,
    last_used_at: Type.Union([Timestamp, Type.Null()], { description: 'May lag by up to a minute.' }),
    expires_at: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);

export const CreatedApiKey = Type.Object(
  { ...ApiKey.properties, key: Type.String({ description: 'The key itself, shown this once: store it safely.' }) },
  { additionalProperties: false },
);

export const ApiKeyCreate = Type.Object(
  {
    name: Text({ maxLength: 100, description: '1 to 100 characters.' }),
    scopes: Type.Optional(
      Type.Array(StringEnum(SCOPES), { minItems: 1, description: "Omitted: every scope the user's role may hold." }),
    ),
    expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'A future time; omitted: never expires.' })),
    user_id: Type.Optional(Type.String({ description: 'Admins and owners: create the key for another user of the account.' })),
  },
  { additionalProperties: false, 'x-read-only': ['id', 'prefix', 'key', 'created_at', 'last_used_at'] },
);

export const ApiKeyListQuery = Type.Object(
  {
    user_id: Type.Optional(Type.String({ description: 'Admins and owners: only the keys of this user.' })),
    limit: Type.Optional(PagingQuery.limit),
    offset: Type.Optional(PagingQuery.offset),
  },
  { additionalProperties: false },
);

export type ApiKey = Static<typeof ApiKey>;
export type CreatedApiKey = Static<typeof CreatedApiKey>;
export type ApiKeyCreate = Static<typeof ApiKeyCreate>;
export type ApiKeyListQuery = Static<typeof ApiKeyListQuery>;
