// One webhook attempt on the wire: check the target again (its host resolved now, every address
// public unless WEBHOOK_ALLOW_PRIVATE), connect to exactly the addresses checked, POST the signed
// body, and report the status. Redirects are not followed, the whole attempt (resolution included)
// has 10 s, and at most a little of the response body is read.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { AttemptResult, OutgoingAttempt } from '../domain/webhooks/deliveries.js';
import type { Clock } from '../domain/ids.js';
import { signatureHeaders } from '../domain/webhooks/signature.js';
import { resolveTarget, systemResolver, TargetRefused, type Resolver, type Target } from '../domain/webhooks/targets.js';

export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Response bytes read before the connection is dropped: the body is not used, only the status. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = 'cms-webhooks/1.0 (+Standard Webhooks)';

class AttemptTimeout extends Error {
  constructor(ms: number) {
    super(`No response within ${ms / 1000} s.`);
  }
}

export class WebhookSender {
  // Keep-alive pools: a pooled socket was connected to an address that was checked when it opened.
  // Idle pooled sockets are dropped after a minute (an attempt in flight is bounded by its own timer).
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, maxFreeSockets: 16, timeout: 60_000 }),
    https: new https.Agent({ keepAlive: true, maxFreeSockets: 16, timeout: 60_000 }),
  };

  constructor(
    private readonly allowPrivate: boolean,
    private readonly clock: Clock,
    private readonly resolve: Resolver = systemResolver,
    private readonly timeoutMs = ATTEMPT_TIMEOUT_MS,
  ) {}

  /** Makes the attempt; resolves with its result, or rejects only when `cancel` aborted it. */
  async send(attempt: OutgoingAttempt, cancel: AbortSignal): Promise<AttemptResult> {
    const attemptedAt = this.clock();
    const started = performance.now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new AttemptTimeout(this.timeoutMs)), this.timeoutMs);
    const onCancel = () => controller.abort(cancel.reason);
    cancel.addEventListener('abort', onCancel);
    const elapsed = () => performance.now() - started;
    try {
      const target = await abortable(resolveTarget(attempt.url, this.allowPrivate, this.resolve), controller.signal);
      const timestamp = Math.floor(this.clock().getTime() / 1000);
      const headers = {
        ...signatureHeaders(attempt.secrets, attempt.eventId, timestamp, attempt.body),
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(attempt.body)),
        'user-agent': USER_AGENT,
      };
      const { status, retryAfter } = await this.post(target, headers, attempt.body, controller.signal);
      return { status, retryAfter, error: null, durationMs: elapsed(), attemptedAt };
    } catch (error) {
      if (cancel.aborted) throw error;
      return { status: null, error: describe(controller.signal.reason ?? error), durationMs: elapsed(), attemptedAt };
    } finally {
      clearTimeout(timer);
      cancel.removeEventListener('abort', onCancel);
    }
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private post(target: Target, headers: Record<string, string>, body: string, signal: AbortSignal) {
    const { url } = target;
    const secure = url.protocol === 'https:';
    return new Promise<{ status: number; retryAfter?: string }>((resolve, reject) => {
      const request = (secure ? https : http).request({
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers,
        agent: secure ? this.agents.https : this.agents.http,
        lookup: target.addresses.length ? pinnedLookup(target.addresses) : undefined,
        signal,
      });
      request.once('response', (response) => {
        const answer = { status: response.statusCode ?? 0, retryAfter: header(response.headers['retry-after']) };
        // The status decides the attempt; read (a little of) the body so the connection can be reused.
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.once('end', () => resolve(answer));
        response.once('close', () => resolve(answer));
        response.once('error', () => resolve(answer));
      });
      request.once('error', reject);
      request.end(body);
    });
  }
}

/** A `lookup` that answers with the addresses already checked, so the connection cannot go elsewhere. */
function pinnedLookup(addresses: Target['addresses']): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  }) as LookupFunction;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Rejects when `signal` aborts, even if `work` never settles (a DNS lookup cannot be cancelled). */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A short reason, for the delivery record's `error`. */
function describe(error: unknown): string {
  if (error instanceof AttemptTimeout || error instanceof TargetRefused) return error.message;
  const e = error as { code?: string; message?: string };
  const known: Record<string, string> = {
    ECONNREFUSED: 'Connection refused.',
    ECONNRESET: 'The connection was reset.',
    EHOSTUNREACH: 'Host unreachable.',
    ENETUNREACH: 'Network unreachable.',
    EPIPE: 'The connection was closed while sending.',
  };
  if (e?.code !== undefined && known[e.code]) return known[e.code]!;
  return `The request failed: ${e?.message ?? String(error)}${e?.code ? ` (${e.code})` : ''}`;
}
