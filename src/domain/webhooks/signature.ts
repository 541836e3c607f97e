// Signing secrets and signatures as the Standard Webhooks specification defines them: a secret is
// `whsec_` + base64 of random bytes, and a signature is `v1,` + base64 HMAC-SHA256 of
// "{webhook-id}.{webhook-timestamp}.{body}" keyed with those bytes. During a rotation both the new
// and the previous secret sign, space-separated, so a receiver may switch at its own pace.
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** 24 bytes (192 bits) encode to 32 base64 characters without padding, as other Standard Webhooks senders use. */
const SECRET_BYTES = 24;

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three Standard Webhooks headers for one attempt. */
export function signatureHeaders(
  secrets: string[],
  id: string,
  timestamp: number,
  body: string,
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => sign(secret, id, timestamp, body)).join(' '),
  };
}
