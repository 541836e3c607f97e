// What every request the client sends goes through: the credential, an Idempotency-Key on every
// POST that has none (so a retried create never makes two items, CONTRACT.md §17), and retries of
// 429 and 503 answers after the wait their Retry-After asks for — the service guarantees such a
// request had no effect. A wait longer than `maxRetryWaitSeconds` (a spent monthly quota) is not
// waited out: the error reaches the caller instead.
import { retryAfterSeconds } from './errors.js';

export interface TransportOptions {
  /** API key (`cms_live_…`) or OAuth access token (`cms_oat_…`). */
  token: string;
  fetch: typeof fetch;
  /** Retries after a 429 or 503 (default 3). */
  retries: number;
  /** The longest Retry-After waited for (default 60 s). */
  maxRetryWaitSeconds: number;
  userAgent?: string;
  /** Waits `ms` (tests replace it). */
  sleep?: (ms: number) => Promise<void>;
}

const RETRYABLE = new Set([429, 503]);

export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** How a request's body may be sent again for a retry. */
export interface SendOptions {
  /**
   * Absent: a copy of the request is kept for retries (fine for JSON). A function: makes the
   * request anew for each retry (a Blob read again), so no copy of a large body is held. Null:
   * the body can be sent once (a stream), so the answer is never retried.
   */
  again?: (() => Request) | null;
}

export type Send = (input: Request, send?: SendOptions) => Promise<Response>;

/** A fetch that authenticates, adds idempotency keys to POSTs, and retries 429/503 as asked. */
export function clientFetch(options: TransportOptions): Send {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const prepare = (request: Request, idempotencyKey: string | null) => {
    request.headers.set('authorization', `Bearer ${options.token}`);
    if (options.userAgent) request.headers.set('user-agent', options.userAgent);
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', idempotencyKey ?? newIdempotencyKey());
    return request;
  };
  return async (input: Request, send: SendOptions = {}) => {
    const request = prepare(new Request(input), null);
    // Every attempt carries the same key, so the service answers a retry with the first outcome.
    const key = request.headers.get('idempotency-key');
    for (let attempt = 0; ; attempt++) {
      // Each attempt sends its own copy: a body can be read only once.
      const outgoing = send.again === undefined ? request.clone() : attempt === 0 ? request : prepare(send.again!(), key);
      const response = await options.fetch(outgoing);
      if (!RETRYABLE.has(response.status) || attempt >= options.retries || send.again === null) return response;
      const wait = retryAfterSeconds(response.headers.get('retry-after')) ?? 2 ** attempt;
      if (wait > options.maxRetryWaitSeconds) return response;
      await response.body?.cancel();
      // A little jitter, so that many clients told the same Retry-After do not all return at once.
      await sleep(wait * 1000 + Math.floor(Math.random() * 250));
    }
  };
}
