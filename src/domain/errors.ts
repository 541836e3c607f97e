// Errors are domain values with stable codes; src/http/errors.ts maps them to HTTP in one place.

export type ErrorCode =
  | 'invalid_parameter'
  | 'unauthorized'
  | 'forbidden'
  | 'plan_required'
  | 'not_found'
  | 'conflict'
  | 'idempotency_key_in_use'
  | 'idempotency_response_lost'
  | 'idempotency_key_reused'
  | 'precondition_failed'
  | 'cursor_expired'
  | 'upgrade_required'
  | 'validation_failed'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'payload_too_large'
  | 'storage_quota_exceeded'
  | 'unsupported_media_type'
  | 'unavailable';

/** The closed list of per-field codes of CONTRACT.md §3. */
export type FieldCode =
  | 'required'
  | 'invalid_type'
  | 'invalid_value'
  | 'too_short'
  | 'too_long'
  | 'invalid_format'
  | 'read_only'
  | 'unknown_field'
  | 'empty_update'
  // Since §18–21:
  | 'out_of_range'
  | 'invalid_reference'
  | 'unsupported_type'
  | 'precondition_failed';

export interface FieldError {
  /** Field name, `scopes[1]` for a list element, `""` for the body as a whole. */
  field: string;
  code: FieldCode;
  message: string;
  /** A model change's 409 (CONTRACT.md §20): how many items hold values in the way. */
  items?: number;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    /** More members of the error body, such as a media deletion's `used_by` (CONTRACT.md §18). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string) => new DomainError('not_found', `${what} not found.`);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const invalid = (errors: FieldError[]) =>
  new DomainError('validation_failed', 'The request body failed validation; see errors for each field.', errors);

/** A 429 (CONTRACT.md §8): the hourly limit or the monthly quota is used up until `retryAfterSeconds` from now. */
export class LimitExceeded extends DomainError {
  constructor(
    code: 'rate_limited' | 'quota_exceeded',
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, message);
    this.name = 'LimitExceeded';
  }
}
