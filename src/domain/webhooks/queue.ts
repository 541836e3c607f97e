// Queues webhook deliveries in the same transaction as the change that emitted the events (an
// EventSink on the EventLog), so a crash after commit cannot lose one, and an endpoint that is
// disabled, or an account whose plan lacks webhooks, queues nothing. Nothing is cached: each batch
// of events reads the account's endpoints with one indexed query, so an endpoint created a moment
// ago on another instance is never missed.
import type { Tx } from '../../storage/db.js';
import type { WebhookDeliveryRepository } from '../../storage/webhook-delivery-repository.js';
import type { WebhookEndpointRepository } from '../../storage/webhook-endpoint-repository.js';
import type { EventSink, StoredEvent } from '../events/event-log.js';
import { newId } from '../ids.js';

/** Plans that include webhooks (CONTRACT.md §10). */
export const WEBHOOK_PLANS = ['pro', 'enterprise'] as const;

export function subscribes(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}

export class WebhookQueue implements EventSink {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
  ) {}

  async recorded(tx: Tx, events: StoredEvent[]): Promise<void> {
    const accountId = events[0]?.accountId;
    if (accountId === undefined) return;
    const endpoints = await this.endpoints.subscribed(tx, accountId, WEBHOOK_PLANS);
    if (endpoints.length === 0) return;
    const rows = [];
    for (const endpoint of endpoints) {
      const types = JSON.parse(endpoint.events) as string[];
      for (const event of events) {
        if (!subscribes(types, event.type)) continue;
        rows.push({
          id: newId('whd'),
          account_id: accountId,
          endpoint_id: endpoint.id,
          event_id: event.id,
          event_type: event.type,
          attempt: 1,
          status: 'pending',
          response_status: null,
          duration_ms: null,
          error: null,
          created_at: event.created_at,
          attempted_at: null,
          next_attempt_at: event.created_at,
          lease: null,
          locked_until: null,
          payload: null,
        });
      }
    }
    await this.deliveries.insert(tx, rows);
  }
}
