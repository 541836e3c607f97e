// /v1/events: the account's event log, oldest first, paged by cursor.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { EventFeed } from '../../domain/events/event-feed.js';
import { EventListQuery, EventPage } from '../../domain/schemas/events.js';
import { errorResponses, needs } from '../schemas.js';

export function eventRoutes(feed: EventFeed): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/events', {
      schema: {
        operationId: 'listEvents',
        summary: 'List events after a cursor',
        description:
          'The retained event log (7 days by default), oldest first. Poll with `after` = `pagination.next_after`. ' +
          'Content events need content:read and user events users:read besides events:read.',
        tags: ['Events'],
        ...needs('events:read'),
        querystring: EventListQuery,
        response: { 200: EventPage, ...errorResponses(400, 403, 410) },
      },
    }, async (request) => feed.list(request.principal!, request.query));
  };
}
