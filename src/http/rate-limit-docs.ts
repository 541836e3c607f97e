// The rate-limit headers in the OpenAPI document: declared once under components.headers and
// referenced from every response of every operation, since every counted response carries them
// (CONTRACT.md §8); 429 responses also name Retry-After.
const HEADERS: Record<string, { description: string; schema: Record<string, unknown> }> = {
  'X-RateLimit-Limit': { description: 'Requests allowed in the window: the hourly limit of the key\'s account, or 60 a minute per address without a valid key.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the window, this one counted.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the window closes, in Unix seconds.', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: 'The same policy in the IETF form: `"hourly";q=<limit>;w=3600` or `"ip";q=60;w=60`.', schema: { type: 'string' } },
  RateLimit: { description: 'The current window in the IETF form: `"hourly";r=<remaining>;t=<seconds to reset>`.', schema: { type: 'string' } },
};
const RETRY_AFTER = { description: 'Whole seconds (≥ 1) until the window closes (rate_limited) or the quota renews (quota_exceeded).', schema: { type: 'integer', minimum: 1 } };

interface Document {
  paths?: Record<string, Record<string, { responses?: Record<string, { headers?: Record<string, unknown> }> }>>;
  components?: Record<string, unknown>;
}

export function documentRateLimitHeaders(document: Document): void {
  document.components = { ...document.components, headers: { ...HEADERS, 'Retry-After': RETRY_AFTER } };
  const refs = Object.fromEntries(Object.keys(HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]));
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        response.headers = { ...response.headers, ...refs, ...(status === '429' ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}) };
      }
    }
  }
}
