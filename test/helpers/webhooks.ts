// Factories and waits for webhook suites: endpoints made through the API, and polling of the
// delivery records (the worker runs in the background, so tests wait for what a client would see).
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import type { Client } from './client.js';
import type { Received } from './receiver.js';
import type { TestServer } from './server.js';

export interface Endpoint {
  id: string;
  url: string;
  secret: string;
  events: string[];
  enabled: boolean;
}

export interface DeliveryRecord {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: 'pending' | 'succeeded' | 'failed';
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: string;
  attempted_at: string | null;
  next_attempt_at: string | null;
}

/** Verifies a received request with the standardwebhooks package (never our own code); returns the parsed payload. */
export function verify(secret: string, request: Received): unknown {
  return new Webhook(secret).verify(request.body, request.headers);
}

/** POST /v1/webhooks; returns the created record with its secret. */
export async function addEndpoint(server: TestServer, key: string, fields: Record<string, unknown>): Promise<Endpoint> {
  const res = await server.client.post('/v1/webhooks', { key, json: { events: ['*'], ...fields } });
  if (res.status !== 201) throw new Error(`addEndpoint: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Every delivery record of an endpoint, newest first (up to 100). */
export async function deliveriesOf(client: Client, key: string, endpointId: string): Promise<DeliveryRecord[]> {
  const res = await client.get(`/v1/webhooks/${endpointId}/deliveries?limit=100`, { key });
  if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Polls the endpoint's delivery records until `predicate` holds; returns them. */
export async function waitForDeliveries(
  client: Client,
  key: string,
  endpointId: string,
  predicate: (records: DeliveryRecord[]) => boolean,
  timeoutMs = 10_000,
): Promise<DeliveryRecord[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const records = await deliveriesOf(client, key, endpointId);
    if (predicate(records)) return records;
    if (Date.now() > deadline) throw new Error(`deliveries of ${endpointId} not as expected within ${timeoutMs} ms: ${JSON.stringify(records)}`);
    await sleep(50);
  }
}
