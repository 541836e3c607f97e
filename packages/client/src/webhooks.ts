// Verifying a webhook delivery on the receiving side (CONTRACT.md §10): the Standard Webhooks
// signature checked by the `standardwebhooks` library itself (constant-time, timestamp tolerance,
// several signatures during a secret rotation), and the payload handed back typed.
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { CmsEvent } from './events.js';

export { WebhookVerificationError };

/** Header values as Node (`IncomingHttpHeaders`) or fetch (`Headers`) give them. */
export type IncomingHeaders = Headers | Record<string, string | string[] | undefined>;

function flatten(headers: IncomingHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((value, name) => (out[name.toLowerCase()] = value));
    return out;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Checks a delivery against the endpoint's signing secret (`whsec_…`) and returns its event.
 * `body` must be the raw request body, exactly as received (not re-serialised JSON).
 * Throws WebhookVerificationError when the signature or timestamp does not hold.
 *
 * @example
 * const event = verifyWebhook(process.env.CMS_WEBHOOK_SECRET!, rawBody, request.headers);
 * if (event.type === 'content.updated') …
 */
export function verifyWebhook(secret: string, body: string | Uint8Array, headers: IncomingHeaders): CmsEvent {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  return new Webhook(secret).verify(text, flatten(headers)) as CmsEvent;
}
