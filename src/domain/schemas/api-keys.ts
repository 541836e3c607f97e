// API key schemas: one source for request validation, TypeScript types and the OpenAPI document.
import Type, { type Static } from 'typebox';
import { PagingQuery, StringEnum, Text, Timestamp } from './common.js';
import { SCOPES } from '../auth/permissions.js';

export const KEY_KINDS = ['management', 'delivery'] as const;

export const ApiKey = Type.Object(
  {
    id: Type.String({ description: 'key_ followed by a lower-case ULID.', examples: ['key_01jd2x3m4n5p6q7r8s9t0v1w2x'] }),
    name: Type.String(),
    kind: StringEnum(KEY_KINDS, {
      description: 'management: acts with its scopes. delivery: reads published content only (for sites and apps), with public caching headers.',
    }),
    prefix: Type.String({ description: 'The first 12 characters of the key (16 of a delivery key: cms_live_dlv_ and 3 more), to recognise it.', examples: ['cms_live_4Fq'] }),
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
    kind: Type.Optional(
      StringEnum(KEY_KINDS, {
        description: 'management (default), or delivery: a read-only key (cms_live_dlv_…) that sees published items only, for websites and apps.',
      }),
    ),
    scopes: Type.Optional(
      Type.Array(StringEnum(SCOPES), { minItems: 1, description: "Omitted: every scope the user's role may hold (a delivery key: content:read, the only one it may hold)." }),
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
