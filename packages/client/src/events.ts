// The events the service emits (CONTRACT.md §9, §10), as WebSocket messages and webhook payloads
// carry them.
import type { components } from './schema.js';

export type EventType =
  | 'content.created'
  | 'content.updated'
  | 'content.deleted'
  | 'user.created'
  | 'user.updated'
  | 'user.deleted'
  | 'api_key.usage_alert'
  | 'webhook.test';

/** One event: its id (`evt_…`, also a resume point), type, time and data. */
export interface CmsEvent {
  id: string;
  type: EventType;
  created_at: string;
  data: Record<string, unknown>;
}

export type ErrorBody = components['schemas']['Error'];
