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
            code: Type.String({ description: 'required, invalid_type, invalid_value, too_short, too_long, invalid_format, read_only, unknown_field or empty_update.' }),
            message: Type.String(),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    meta: Meta,
  },
  { additionalProperties: false, $id: 'Error', title: 'Error' },
);

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed JSON or invalid query parameters.',
  401: 'Missing or invalid API key.',
  403: "The key's role or scopes do not allow this.",
  404: 'No such resource in this account.',
  409: 'Conflicts with the current state.',
  410: 'The cursor is unknown or older than the retention period.',
  412: 'If-Match does not match the current ETag.',
  413: 'Body larger than 2 MiB.',
  415: 'Body is not application/json.',
  426: 'A WebSocket endpoint reached without an upgrade request.',
  422: 'The body failed validation; errors lists every failing field.',
  429: 'Rate limit or monthly quota exceeded; see Retry-After.',
};

/** Error responses for the OpenAPI document and the serializer: `{401: Error, 404: Error, ...}`. */
export function errorResponses(...statuses: number[]): Record<number, unknown> {
  const out: Record<number, unknown> = {};
  for (const status of [401, 429, ...statuses]) {
    out[status] = { description: ERROR_TEXT[status] ?? 'Error.', $ref: 'Error#' };
  }
  return out;
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
