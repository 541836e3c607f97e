// Webhook endpoints and deliveries as API Settings shows them, and the event types in words.

export interface Endpoint {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabled_reason: 'requested' | 'gone' | 'failing' | null;
  failing_since: string | null;
  created_at: string;
}

export interface Delivery {
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

/** The event types an endpoint may subscribe to (GET /v1/openapi.json lists the same). */
export const EVENTS: [string, string][] = [
  ['*', 'All events, including types added later'],
  ['content.created', 'content.created'],
  ['content.updated', 'content.updated'],
  ['content.deleted', 'content.deleted'],
  ['user.created', 'user.created'],
  ['user.updated', 'user.updated'],
  ['user.deleted', 'user.deleted'],
  ['api_key.usage_alert', 'api_key.usage_alert — rate limit and quota alerts'],
];
export const WEBHOOK_PLANS = ['pro', 'enterprise'];
export const REASONS: Record<string, string> = {
  requested: 'Disabled',
  gone: 'Disabled: the receiver answered 410 Gone',
  failing: 'Disabled: every attempt failed for 3 days',
};
