// User schemas: one source for request validation, TypeScript types and the OpenAPI document.
import Type, { type Static } from 'typebox';
import { PagingQuery, StringEnum, Text, Timestamp } from './common.js';
import { ROLES } from '../auth/permissions.js';

export const User = Type.Object(
  {
    id: Type.String({ description: 'user_ followed by a lower-case ULID.', examples: ['user_01jd2x3m4n5p6q7r8s9t0v1w2x'] }),
    email: Type.String({ format: 'email', description: 'Lower case; unique across the service.' }),
    name: Type.String(),
    role: StringEnum(ROLES),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);

const fields = {
  email: Type.String({ format: 'email', maxLength: 254, description: 'Trimmed and stored in lower case.' }),
  name: Text({ maxLength: 100, description: '1 to 100 characters.' }),
  role: StringEnum(ROLES, { description: 'owner, admin, editor, author or viewer.' }),
  password: Type.String({ minLength: 12, maxLength: 1024, description: 'At least 12 characters; stored as a scrypt hash, never returned. Taken only from an API key holding `keys:write` (an OAuth token or a narrower key gets 403), and on update only for the key\'s own user (docs/roles.md).' }),
};
const READ_ONLY = ['id', 'created_at', 'updated_at'];

export const UserCreate = Type.Object(
  { email: fields.email, name: fields.name, role: fields.role, password: Type.Optional(fields.password) },
  { additionalProperties: false, 'x-read-only': READ_ONLY },
);

export const UserUpdate = Type.Object(
  {
    email: Type.Optional(fields.email),
    name: Type.Optional(fields.name),
    role: Type.Optional(fields.role),
    password: Type.Optional(fields.password),
  },
  { additionalProperties: false, minProperties: 1, 'x-read-only': READ_ONLY },
);

export const UserListQuery = Type.Object(
  {
    role: Type.Optional(StringEnum(ROLES, { description: 'Only users with this role.' })),
    limit: Type.Optional(PagingQuery.limit),
    offset: Type.Optional(PagingQuery.offset),
  },
  { additionalProperties: false },
);

/** The answer to POST /v1/users/{id}/invite: the invitation is on its way. */
export const Invitation = Type.Object(
  {
    user_id: Type.String({ description: 'The user invited.' }),
    email: Type.String({ format: 'email', description: 'Where the invitation goes.' }),
    expires_at: { ...Timestamp, description: 'When the new link stops working (7 days).' },
  },
  { additionalProperties: false },
);

export type User = Static<typeof User>;
export type UserCreate = Static<typeof UserCreate>;
export type UserUpdate = Static<typeof UserUpdate>;
export type UserListQuery = Static<typeof UserListQuery>;
