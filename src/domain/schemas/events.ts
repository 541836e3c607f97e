// Event schemas: the event object (GET /v1/events, WebSocket messages, webhook payloads) and the
// query of the event list, which pages by cursor rather than by offset.
import Type, { type Static } from 'typebox';
import { Meta, PagingQuery, StringEnum, Timestamp } from './common.js';
import { EVENT_TYPES } from '../events/event-log.js';

export const Event = Type.Object(
  {
    id: Type.String({ description: 'evt_ followed by a lower-case ULID.', examples: ['evt_01jd2x3m4n5p6q7r8s9t0v1w2x'] }),
    type: StringEnum(EVENT_TYPES),
    created_at: Timestamp,
    data: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'content.created / content.updated: the full content item; content.deleted: {id}; user.created / user.updated: the user; ' +
          'user.deleted: {id}; api_key.usage_alert: {kind, threshold, used, limit, period_end}.',
      },
    ),
  },
  { additionalProperties: false },
);
export type EventMessage = Static<typeof Event>;

export const EventListQuery = Type.Object(
  {
    after: Type.Optional(Type.String({ pattern: '^evt_[0-9a-z]{26}$', description: 'Events after this one; omitted: from the oldest retained event.' })),
    limit: Type.Optional(PagingQuery.limit),
  },
  { additionalProperties: false },
);
export type EventListQuery = Static<typeof EventListQuery>;

export const EventPage = Type.Object(
  {
    data: Type.Array(Event),
    pagination: Type.Object(
      {
        limit: Type.Integer({ description: 'Page size applied (values above 100 are clamped to 100).' }),
        has_more: Type.Boolean({ description: 'True when further events exist after this page.' }),
        next_after: Type.Union([Type.String(), Type.Null()], {
          description: 'Pass as `after` to continue: the last event of this page, or the `after` given (null at the start) when the page is empty.',
        }),
      },
      { additionalProperties: false },
    ),
    meta: Type.Optional(Meta),
  },
  { required: ['data', 'pagination', 'meta'] },
);
export type EventPage = Static<typeof EventPage>;
