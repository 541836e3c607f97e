// Response pieces every route shares: the error body and helpers that describe operations for the
// OpenAPI document (tags, the scope needed, the error statuses that can occur).
import Type from 'typebox';
import { Meta } from '../domain/schemas/common.js';
import type { Scope } from '../domain/auth/permissions.js';

export const ErrorBody = Type.Object(
  {
    message: Type.String({ description: 'For people.' }),
    code: Type.String({ description: 'Stable and machine-readable, e.g. validation_failed.' }),
    errors: Type.Optional(
      Type.Array(
        Type.Object(
          {
            field: Type.String({ description: 'The field, `scopes[1]` for a list element, "" for the body as a whole.' }),
            code: Type.String({ description: 'required, invalid_type, invalid_value, too_short, too_long, invalid_format, read_only, unknown_field, empty_update, out_of_range, invalid_reference, unsupported_type or precondition_failed.' }),
            message: Type.String(),
            items: Type.Optional(Type.Integer({ description: 'On a content model change refused with 409: how many items hold values in the way.' })),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    used_by: Type.Optional(Type.Array(Type.String(), { description: 'On a media deletion refused with 409: the content items that reference it.' })),
    meta: Meta,
  },
  { additionalProperties: false, $id: 'Error', title: 'Error' },
);

/** What each error status means, for the OpenAPI document (openapi-responses.ts adds the ones every route can answer). */
export const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed JSON (or nested deeper than 64 levels), an unknown or invalid query parameter, a malformed URL or Idempotency-Key.',
  401: 'Missing or invalid API key or access token.',
  403: "The key's role or scopes do not allow this (a delivery key reads published content only).",
  404: 'No such resource in this account.',
  409: 'Conflicts with the current state.',
  410: 'The cursor is unknown or older than the retention period.',
  412: 'If-Match does not match the current ETag.',
  413: 'Body larger than 2 MiB.',
  415: 'Body is not application/json.',
  416: 'The Range starts past the end of the file (Content-Range: bytes */<size>).',
  426: 'A WebSocket endpoint reached without an upgrade request.',
  422: 'The body failed validation; errors lists every failing field.',
  429: 'Rate limit or monthly quota exceeded; see Retry-After.',
  500: 'An internal error; logged with the request id, and nothing of it leaks into the answer.',
  503: 'Shutting down, or the store is unreachable; see Retry-After.',
};

/**
 * Error responses a route adds to what every route can answer, for the serializer and the OpenAPI
 * document: `{401: Error, 404: Error, ...}`. The document completes every operation's list by one
 * rule (openapi-responses.ts), so a list here is never the whole truth and need not try to be.
 */
export function errorResponses(...statuses: number[]): Record<number, unknown> {
  const out: Record<number, unknown> = {};
  for (const status of [401, 429, ...statuses]) {
    out[status] = { description: ERROR_TEXT[status] ?? 'Error.', $ref: 'Error#' };
  }
  return out;
}

/** A route's declaration that its successful answers carry an ETag (and its GET answers 304 to If-None-Match): spread into the schema. */
export function sendsETag(): { 'x-etag': true } {
  return { 'x-etag': true };
}

/** A route's declaration that it answers with a file's bytes: ETag and 304, Range (206, 416), Accept-Ranges, Content-Disposition. */
export function servesFile(): { 'x-etag': true; 'x-file': true } {
  return { 'x-etag': true, 'x-file': true };
}

/** A route's declaration that its 202 says where to follow the work (Location): spread into the schema. */
export function queuesAt(): { 'x-location': true } {
  return { 'x-location': true };
}

/** Actions without fields: the body may be omitted or `{}`, and anything in it is rejected. */
export const NoFields = Type.Object({}, { additionalProperties: false, 'x-optional-body': true, description: 'Optional; no fields.' });

/**
 * The security requirement naming the scope an operation needs: an API key with it, or an OAuth
 * access token granted it (never for keys:write, which no token holds). The key comes first: the
 * scope check before validation reads it there.
 */
export function needs(scope: Scope): { security: Record<string, string[]>[] } {
  return { security: scope === 'keys:write' ? [{ apiKey: [scope] }] : [{ apiKey: [scope] }, { oauth2: [scope] }] };
}
