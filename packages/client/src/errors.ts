// The one error the client throws for an answer the service refused: the contract's error body
// (CONTRACT.md §3) made into a typed value — `code` to branch on, `errors` per field, the request id
// to quote to support, and `retryAfter` for 429 and 503.

/** One failing field of a `400 invalid_parameter` or `422 validation_failed`. */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

export class CmsApiError extends Error {
  /** HTTP status, e.g. 422. */
  readonly status: number;
  /** The stable machine-readable code, e.g. `validation_failed`, `not_found`, `rate_limited`. */
  readonly code: string;
  /** Every failing field, on 400 and 422; empty otherwise. */
  readonly errors: FieldError[];
  /** The service's request id (`req_…`), also in the X-Request-Id header. */
  readonly requestId: string | undefined;
  /** Seconds to wait, from Retry-After (429, 503). */
  readonly retryAfter: number | undefined;
  /** The content items that still reference a media file whose deletion was refused (409). */
  readonly usedBy: string[] | undefined;

  constructor(status: number, body: unknown, headers: Headers) {
    const b = (body ?? {}) as { message?: unknown; code?: unknown; errors?: unknown; used_by?: unknown; meta?: { request_id?: unknown } };
    super(typeof b.message === 'string' ? b.message : `The service answered ${status}.`);
    this.name = 'CmsApiError';
    this.status = status;
    this.code = typeof b.code === 'string' ? b.code : `http_${status}`;
    this.errors = Array.isArray(b.errors) ? (b.errors as FieldError[]) : [];
    this.requestId = typeof b.meta?.request_id === 'string' ? b.meta.request_id : (headers.get('x-request-id') ?? undefined);
    this.retryAfter = retryAfterSeconds(headers.get('retry-after'));
    this.usedBy = Array.isArray(b.used_by) ? b.used_by.filter((id): id is string => typeof id === 'string') : undefined;
  }
}

/** Retry-After as seconds: a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
