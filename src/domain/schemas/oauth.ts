// OAuth app and connected-app schemas (CONTRACT.md §15): one source for request validation,
// TypeScript types and the OpenAPI document.
import Type, { type Static } from 'typebox';
import { PagingQuery, StringEnum, Text, Timestamp } from './common.js';
import { GRANTABLE_SCOPES } from '../oauth/scopes.js';

export const APP_TYPES = ['confidential', 'public'] as const;
export const MAX_REDIRECT_URIS = 10;

const AppId = Type.String({ description: 'app_ followed by a lower-case ULID; also the OAuth client_id.', examples: ['app_01jd2x3m4n5p6q7r8s9t0v1w2x'] });
const RedirectUri = Type.String({
  minLength: 1,
  maxLength: 2048,
  'x-no-nul': true,
  description: 'An absolute https:// URL, or for native apps a loopback http://127.0.0.1:<port>/… or http://[::1]:<port>/… (any port is accepted at authorization, RFC 8252); no fragment, no wildcard, written in canonical form (as the WHATWG URL parser serialises it: `https://app.example/`, not `https://app.example`), or 422.',
});
const SCOPES_TEXT = 'The most the app may ask for. keys:write is never grantable: a token never mints keys or apps.';
const Scopes = Type.Array(StringEnum(GRANTABLE_SCOPES), { minItems: 1, description: SCOPES_TEXT });

export const OAuthApp = Type.Object(
  {
    id: AppId,
    name: Type.String(),
    redirect_uris: Type.Array(Type.String(), { description: 'Compared as exact strings, except that a loopback URI may use any port.' }),
    type: StringEnum(APP_TYPES, { description: 'confidential (has a client secret) or public (a native or browser app: client_id only, PKCE).' }),
    scopes: Type.Array(StringEnum(GRANTABLE_SCOPES)),
    user_id: Type.String({ description: 'The user who registered the app.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);

export const OAuthAppWithSecret = Type.Object(
  {
    ...OAuthApp.properties,
    client_secret: Type.Optional(
      Type.String({ description: 'cms_cs_ and 40 base62 characters; confidential apps only, shown this once: store it safely.', examples: ['cms_cs_8Vq2…'] }),
    ),
  },
  { additionalProperties: false },
);

const fields = {
  name: Text({ maxLength: 100, description: '1 to 100 characters; people see it on the consent page.' }),
  redirect_uris: Type.Array(RedirectUri, { minItems: 1, maxItems: MAX_REDIRECT_URIS, description: '1 to 10 redirect URIs.' }),
  type: StringEnum(APP_TYPES, { description: 'Default confidential; cannot be changed later.' }),
  scopes: Type.Array(StringEnum(GRANTABLE_SCOPES), { minItems: 1, description: `${SCOPES_TEXT} Omitted: every grantable scope.` }),
};
const READ_ONLY = ['id', 'user_id', 'client_secret', 'created_at', 'updated_at'];

export const OAuthAppCreate = Type.Object(
  { name: fields.name, redirect_uris: fields.redirect_uris, type: Type.Optional(fields.type), scopes: Type.Optional(fields.scopes) },
  { additionalProperties: false, 'x-read-only': READ_ONLY },
);

export const OAuthAppUpdate = Type.Object(
  { name: Type.Optional(fields.name), redirect_uris: Type.Optional(fields.redirect_uris), scopes: Type.Optional(Scopes) },
  { additionalProperties: false, minProperties: 1, 'x-read-only': [...READ_ONLY, 'type'] },
);

export const OAuthAppListQuery = Type.Object(
  {
    user_id: Type.Optional(Type.String({ description: 'Admins and owners: only the apps of this user.' })),
    limit: Type.Optional(PagingQuery.limit),
    offset: Type.Optional(PagingQuery.offset),
  },
  { additionalProperties: false },
);

export const ConnectedApp = Type.Object(
  {
    id: Type.String({ description: 'grant_ followed by a lower-case ULID.', examples: ['grant_01jd2x3m4n5p6q7r8s9t0v1w2x'] }),
    app: Type.Object({ id: AppId, name: Type.String() }, { additionalProperties: false }),
    scopes: Type.Array(StringEnum(GRANTABLE_SCOPES), { description: 'What you granted; the app acts with these narrowed to what your role allows.' }),
    created_at: Timestamp,
    last_used_at: Type.Union([Timestamp, Type.Null()], { description: 'When a token of this grant was last used; may lag by up to a minute.' }),
  },
  { additionalProperties: false },
);

export const ConnectedAppListQuery = Type.Object(
  { limit: Type.Optional(PagingQuery.limit), offset: Type.Optional(PagingQuery.offset) },
  { additionalProperties: false },
);

export type OAuthApp = Static<typeof OAuthApp>;
export type OAuthAppWithSecret = Static<typeof OAuthAppWithSecret>;
export type OAuthAppCreate = Static<typeof OAuthAppCreate>;
export type OAuthAppUpdate = Static<typeof OAuthAppUpdate>;
export type OAuthAppListQuery = Static<typeof OAuthAppListQuery>;
export type ConnectedApp = Static<typeof ConnectedApp>;
export type ConnectedAppListQuery = Static<typeof ConnectedAppListQuery>;
