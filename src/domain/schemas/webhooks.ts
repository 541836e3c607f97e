// Webhook schemas: one source for request validation, TypeScript types and the OpenAPI document.
import Type, { type Static } from 'typebox';
import { EVENT_TYPES } from '../events/event-log.js';
import { PagingQuery, StringEnum, Timestamp } from './common.js';

/** What an endpoint may subscribe to: any event type, or `*` for all of them (and those added later). */
export const SUBSCRIBABLE = [...EVENT_TYPES, '*'] as const;
export const DISABLED_REASONS = ['requested', 'gone', 'failing'] as const;
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

const EndpointId = Type.String({ description: 'wh_ followed by a lower-case ULID.', examples: ['wh_01jd2x3m4n5p6q7r8s9t0v1w2x'] });

export const WebhookEndpoint = Type.Object(
  {
    id: EndpointId,
    url: Type.String({ description: 'Where events are POSTed.' }),
    description: Type.String(),
    events: Type.Array(StringEnum(SUBSCRIBABLE), { description: 'Event types delivered; `*` means every type.' }),
    enabled: Type.Boolean({ description: 'A disabled endpoint receives nothing and queues nothing.' }),
    disabled_reason: Type.Union([StringEnum(DISABLED_REASONS), Type.Null()], {
      description: 'Why the endpoint is disabled: `requested` (set to false through the API), `gone` (it answered 410) or `failing` (every attempt failed for 3 days); null while enabled.',
    }),
    disabled_at: Type.Union([Timestamp, Type.Null()]),
    failing_since: Type.Union([Timestamp, Type.Null()], { description: 'When the current run of failed attempts began; null after a success.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);

export const WebhookEndpointWithSecret = Type.Object(
  {
    ...WebhookEndpoint.properties,
    secret: Type.String({ description: 'The signing secret (whsec_…), shown this once: store it safely.', examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] }),
  },
  { additionalProperties: false },
);

const fields = {
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'An https URL whose host is, and resolves only to, public addresses (WEBHOOK_ALLOW_PRIVATE=true lifts both rules).',
  }),
  events: Type.Array(StringEnum(SUBSCRIBABLE), { minItems: 1, maxItems: 50, description: 'Event types to deliver, or `["*"]` for all.' }),
  description: Type.String({ maxLength: 500, 'x-multiline': true, description: 'Up to 500 characters; default empty.' }),
  enabled: Type.Boolean({ description: 'Default true. Setting false cancels the attempts still pending.' }),
};
const READ_ONLY = ['id', 'secret', 'disabled_reason', 'disabled_at', 'failing_since', 'created_at', 'updated_at'];

export const WebhookCreate = Type.Object(
  { url: fields.url, events: fields.events, description: Type.Optional(fields.description), enabled: Type.Optional(fields.enabled) },
  { additionalProperties: false, 'x-read-only': READ_ONLY },
);

export const WebhookUpdate = Type.Object(
  {
    url: Type.Optional(fields.url),
    events: Type.Optional(fields.events),
    description: Type.Optional(fields.description),
    enabled: Type.Optional(fields.enabled),
  },
  { additionalProperties: false, minProperties: 1, 'x-read-only': READ_ONLY },
);

export const WebhookListQuery = Type.Object(
  { limit: Type.Optional(PagingQuery.limit), offset: Type.Optional(PagingQuery.offset) },
  { additionalProperties: false },
);

export const WebhookDelivery = Type.Object(
  {
    id: Type.String({ description: 'whd_ followed by a lower-case ULID: one record per attempt.', examples: ['whd_01jd2x3m4n5p6q7r8s9t0v1w2x'] }),
    event_id: Type.String({ description: 'The event delivered; also the webhook-id header, the same on every attempt.' }),
    event_type: Type.String({ description: 'An event type, or webhook.test for a ping.' }),
    attempt: Type.Integer({ minimum: 1, description: '1 for the first attempt of this event at this endpoint, then 2, 3…' }),
    status: StringEnum(DELIVERY_STATUSES),
    response_status: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's HTTP status; null when none was received." }),
    duration_ms: Type.Union([Type.Integer(), Type.Null()], { description: 'How long the attempt took; null until it is made.' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the attempt failed, for people; null otherwise.' }),
    created_at: Timestamp,
    attempted_at: Type.Union([Timestamp, Type.Null()], { description: 'When the request was sent; null while pending or when it never was.' }),
    next_attempt_at: Type.Union([Timestamp, Type.Null()], {
      description: 'Pending: when this attempt is due. Failed: when the next attempt is due, or null when there will be none.',
    }),
  },
  { additionalProperties: false },
);

export type WebhookEndpoint = Static<typeof WebhookEndpoint>;
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecret>;
export type WebhookCreate = Static<typeof WebhookCreate>;
export type WebhookUpdate = Static<typeof WebhookUpdate>;
export type WebhookListQuery = Static<typeof WebhookListQuery>;
export type WebhookDelivery = Static<typeof WebhookDelivery>;
