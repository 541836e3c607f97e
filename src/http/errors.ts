// The one place where errors become HTTP: domain errors, validation errors, Fastify's own errors
// (bad JSON, wrong media type, body too large) and anything unexpected (a 500 that leaks nothing).
import type { FastifyError } from 'fastify';
import { DomainError, LimitExceeded, type ErrorCode, type FieldError } from '../domain/errors.js';
import { StoreUnavailable } from '../storage/errors.js';
import { JsonTooDeep } from './json-depth.js';
import { RequestValidationError } from './validation.js';

export type HttpErrorCode = ErrorCode | 'invalid_json' | 'https_required' | 'method_not_allowed' | 'internal_error';

export interface HttpError {
  status: number;
  code: HttpErrorCode;
  message: string;
  errors?: FieldError[];
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
}

const STATUS: Record<ErrorCode, number> = {
  invalid_parameter: 400,
  unauthorized: 401,
  forbidden: 403,
  plan_required: 403,
  not_found: 404,
  conflict: 409,
  idempotency_key_in_use: 409,
  idempotency_response_lost: 409,
  idempotency_key_reused: 422,
  precondition_failed: 412,
  cursor_expired: 410,
  upgrade_required: 426,
  validation_failed: 422,
  rate_limited: 429,
  quota_exceeded: 429,
  payload_too_large: 413,
  storage_quota_exceeded: 413,
  unsupported_media_type: 415,
  unavailable: 503,
};

/** A bad, expired or revoked OAuth access token: 401 with RFC 6750's `error="invalid_token"`. */
export class InvalidAccessToken extends DomainError {
  constructor() {
    super('unauthorized', 'The access token is invalid, expired or revoked.');
    this.name = 'InvalidAccessToken';
  }
}

/** A plain-HTTP request (or, behind a proxy, one not forwarded as https). */
export class HttpsRequired extends Error {
  constructor() {
    super('This service accepts HTTPS only; send the request to https:// instead.');
  }
}

/** Turns anything thrown while serving a request into the status and body the client sees. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof DomainError) {
    let headers: Record<string, string> | undefined =
      error.code === 'unauthorized' ? { 'WWW-Authenticate': 'Bearer' } : error.code === 'unavailable' ? { 'Retry-After': '5' } : undefined;
    if (error instanceof LimitExceeded) headers = { 'Retry-After': String(error.retryAfterSeconds) };
    if (error instanceof InvalidAccessToken) headers = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };
    return { status: STATUS[error.code], code: error.code, message: error.message, errors: error.errors, details: error.details, headers };
  }
  if (error instanceof HttpsRequired) return { status: 400, code: 'https_required', message: error.message };
  if (error instanceof RequestValidationError) {
    return error.part === 'body'
      ? { status: 422, code: 'validation_failed', message: error.message, errors: error.errors }
      : { status: 400, code: 'invalid_parameter', message: error.message, errors: error.errors };
  }
  if (error instanceof StoreUnavailable) {
    return { status: 503, code: 'unavailable', message: 'The service is temporarily unavailable; try again shortly.', headers: { 'Retry-After': '5' } };
  }
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: 'unsupported_media_type', message: 'Request bodies must be JSON, sent with Content-Type: application/json.' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: 'payload_too_large', message: 'The request body is larger than 2 MiB.' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, code: 'invalid_json', message: 'The Content-Length header does not match the body.' };
  }
  if (error instanceof JsonTooDeep) return { status: 400, code: 'invalid_json', message: error.message };
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return { status: 400, code: 'invalid_json', message: 'The request body is not valid JSON.' };
  }
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    // Another client error detected by Fastify itself (a malformed URL, say): say so plainly.
    return { status: 400, code: 'invalid_parameter', message: 'The request is malformed.' };
  }
  return { status: 500, code: 'internal_error', message: 'An internal error occurred; it has been logged with this request id.' };
}
