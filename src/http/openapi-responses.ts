// Every operation's responses in the OpenAPI document, by one rule instead of lists picked by hand
// (issue 21): what the pipeline can answer on any /v1 route — 400 (an unknown query parameter, a
// malformed URL or JSON), 401, 403, 429, 500 and 503 — plus what follows from the operation's own
// shape (404 with a path parameter; 413 and 415 for a method that may carry a body; 422 with a body
// schema; 409 and 422 for POST, which takes Idempotency-Key; 412 with If-Match; 304 where the route
// sends an ETag; 416 where it serves a file), plus what the route itself declares. The headers clients rely on are declared on
// the responses that carry them, those always sent as `required`.
import { ERROR_TEXT } from './schemas.js';

type Header = { description: string; schema: Record<string, unknown>; required?: boolean };

/** Sent with every /v1 answer (CONTRACT.md §2, §8; Cache-Control: no-store, or public caching for a delivery key). */
const ALWAYS: Record<string, Header> = {
  'X-Request-Id': { description: 'The request id (req_…), also meta.request_id and in every log line of the request.', schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: "Requests allowed in the window: the hourly limit of the key's account, or 60 a minute per address without a valid key.", schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the window, this one counted.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the window closes, in Unix seconds.', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: 'The same policy in the IETF form: `"hourly";q=<limit>;w=3600` or `"ip";q=60;w=60`.', schema: { type: 'string' } },
  RateLimit: { description: 'The current window in the IETF form: `"hourly";r=<remaining>;t=<seconds to reset>`.', schema: { type: 'string' } },
  'Cache-Control': {
    description: '`no-store`; a delivery key\'s successful reads: `public, max-age=<delivery_cache_seconds>, stale-while-revalidate=600`.',
    schema: { type: 'string' },
  },
};

/** Sent on some answers only; each named where it applies below. */
const SOMETIMES: Record<string, Header> = {
  'Retry-After': { description: 'Whole seconds (≥ 1) to wait: until the window closes, the quota renews, or the service is back.', schema: { type: 'integer', minimum: 1 } },
  'WWW-Authenticate': { description: '`Bearer` (RFC 6750), with `error="invalid_token"` for a bad OAuth access token.', schema: { type: 'string' } },
  Location: { description: 'The path of the resource created: /v1/….', schema: { type: 'string' } },
  ETag: { description: 'An item\'s version as a strong tag ("3"), or a weak tag of a list page or feed; If-None-Match with it answers 304.', schema: { type: 'string' } },
  'Idempotent-Replayed': { description: '`true` on an answer replayed for a repeated Idempotency-Key; absent otherwise.', schema: { type: 'string', enum: ['true'] } },
  Vary: { description: '`Authorization`, on a delivery key\'s cacheable answers.', schema: { type: 'string' } },
  Upgrade: { description: '`websocket`: the protocol this endpoint speaks.', schema: { type: 'string' } },
  Connection: { description: '`upgrade` (RFC 9110 §7.8).', schema: { type: 'string' } },
  'Accept-Ranges': { description: '`bytes`: a Range of the file may be asked for.', schema: { type: 'string', enum: ['bytes'] } },
  'Content-Disposition': { description: '`inline` with the media\'s filename (RFC 6266, `filename*` for non-ASCII names).', schema: { type: 'string' } },
  'Content-Range': { description: '`bytes <first>-<last>/<size>` on a 206; `bytes */<size>` on a 416.', schema: { type: 'string' } },
};

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

interface Parameter {
  in: string;
  name: string;
}

interface Response {
  description?: string;
  $ref?: string;
  content?: Record<string, unknown>;
  headers?: Record<string, unknown>;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> };
  responses?: Record<string, Response>;
  'x-etag'?: boolean;
  'x-location'?: boolean;
  'x-delivery'?: string;
  'x-file'?: boolean;
}

interface Document {
  paths?: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown> | undefined>;
}

/** The statuses `operation` can answer besides what its route declares. */
export function pipelineStatuses(method: string, path: string, operation: Operation): number[] {
  const statuses = [400, 401, 403, 429, 500, 503];
  const has = (where: string, name: string) => (operation.parameters ?? []).some((p) => p.in === where && p.name.toLowerCase() === name);
  if (path.includes('{')) statuses.push(404);
  if (BODY_METHODS.has(method)) statuses.push(413, 415);
  if (operation.requestBody) statuses.push(422);
  if (method === 'post') statuses.push(409, 422);
  if (has('header', 'if-match')) statuses.push(412);
  if (operation['x-etag'] && method === 'get') statuses.push(304);
  if (operation['x-file']) statuses.push(416);
  return statuses;
}

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

const RATE_LIMIT_HEADERS = new Set(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit']);

/** The headers of one response (the rule's part; what the route declared stays). */
function headersOf(method: string, status: number, operation: Operation, response: Response, always: string[]): Record<string, unknown> {
  const headers: Record<string, unknown> = Object.fromEntries(always.map((name) => [name, ref(name)]));
  if (status === 401) headers['WWW-Authenticate'] = ref('WWW-Authenticate');
  if (status === 429 || status === 503) headers['Retry-After'] = ref('Retry-After');
  if (status === 426) Object.assign(headers, { Upgrade: ref('Upgrade'), Connection: ref('Connection') });
  // Every 201 that creates something with an id says where it is (CONTRACT.md §7); a preview link has none.
  if (status === 201 && createsWithId(response)) headers.Location = ref('Location');
  // A 202 that queued work names where to follow it (a bulk job: CONTRACT.md §21).
  if (status === 202 && operation['x-location']) headers.Location = ref('Location');
  if (operation['x-etag'] && ((status >= 200 && status < 300) || status === 304)) headers.ETag = ref('ETag');
  // The first answer to a keyed POST is kept and replayed, whatever it was, but a 429 or a 5xx (and a 401 has no account to keep it in).
  if (method === 'post' && status !== 401 && status !== 429 && status < 500) headers['Idempotent-Replayed'] = ref('Idempotent-Replayed');
  if (operation['x-delivery'] && ((status >= 200 && status < 300) || status === 304)) headers.Vary = ref('Vary');
  if (operation['x-file'] && ((status >= 200 && status < 300) || status === 304)) Object.assign(headers, { 'Accept-Ranges': ref('Accept-Ranges'), 'Content-Disposition': ref('Content-Disposition') });
  if (operation['x-file'] && (status === 206 || status === 416)) Object.assign(headers, { 'Accept-Ranges': ref('Accept-Ranges'), 'Content-Range': ref('Content-Range') });
  return headers;
}

function createsWithId(response: Response): boolean {
  const schema = (response.content?.['application/json'] as { schema?: { properties?: { data?: { properties?: Record<string, unknown> } } } } | undefined)?.schema;
  return schema?.properties?.data?.properties?.id !== undefined;
}

/**
 * Where a header is named, is it always there? A reference cannot say (OpenAPI allows no sibling to
 * `$ref`), so the component does: each is referenced only from responses that always carry it, but
 * Idempotent-Replayed (a replay only) and Vary (a delivery key only). (Allow goes with a 405, which
 * answers a method an operation does not exist for: the document's description says so, as OpenAPI
 * has no place for it.)
 */
const OPTIONAL = new Set(['Idempotent-Replayed', 'Vary']);

/**
 * Applies the rule to every /v1 operation of `document` and declares the headers it names; with
 * rate limits switched off (RATE_LIMITS=off) no answer carries the five rate-limit headers, so none
 * is declared.
 */
export function documentResponses(document: Document, options: { rateLimits: boolean } = { rateLimits: true }): void {
  const always = Object.keys(ALWAYS).filter((name) => options.rateLimits || !RATE_LIMIT_HEADERS.has(name));
  const declared = { ...Object.fromEntries(always.map((name) => [name, ALWAYS[name]!])), ...SOMETIMES };
  const headers = Object.fromEntries(Object.entries(declared).map(([name, header]) => [name, { ...header, required: !OPTIONAL.has(name) }]));
  document.components = { ...document.components, headers: { ...document.components?.headers, ...headers } };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    // The API's routes: /v1 and public media (/media/{id}/{filename}), which go through the same pipeline.
    if (!path.startsWith('/v1/') && !path.startsWith('/media/')) continue;
    for (const [method, operation] of Object.entries(item)) {
      const responses = (operation.responses ??= {});
      for (const status of pipelineStatuses(method, path, operation)) {
        if (responses[status] !== undefined) continue;
        responses[status] = status === 304
          ? { description: 'Not Modified: If-None-Match names the current ETag; no body.' }
          : { description: ERROR_TEXT[status] ?? 'Error.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
      }
      if (operation['x-etag'] && method === 'get' && !(operation.parameters ?? []).some((p) => p.in === 'header' && p.name.toLowerCase() === 'if-none-match')) {
        (operation.parameters ??= []).push({
          in: 'header',
          name: 'if-none-match',
          required: false,
          description: 'An ETag from an earlier answer: 304, with no body, while it is still current.',
          schema: { type: 'string' },
        } as Parameter);
      }
      for (const [status, response] of Object.entries(responses)) {
        response.headers = { ...response.headers, ...headersOf(method, Number(status), operation, response, always) };
      }
      // Ordered by status, as a reader expects.
      operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
}
