// Publishing's routes under /v1/content (CONTRACT.md §19): the Atom feed of published items (open to
// delivery keys) and preview links. The preview page itself is outside /v1 (pages/preview.tsx).
import Type from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AtomFeeds } from '../../domain/publishing/feed.js';
import type { PreviewLinks } from '../../domain/publishing/previews.js';
import { CONTENT_TYPES } from '../../domain/schemas/content.js';
import { One, StringEnum } from '../../domain/schemas/common.js';
import { errorResponses, needs, NoFields, sendsETag } from '../schemas.js';
import { openToDelivery } from '../delivery.js';
import { weakTag } from '../preconditions.js';
import { IdParams, tags } from './content-params.js';

const PreviewLink = Type.Object(
  {
    url: Type.String({ description: 'Opens the item as it is at that moment, rendered as HTML, without a key, until expires_at.' }),
    expires_at: Type.String({ format: 'date-time', description: 'When the link stops working (PREVIEW_TTL after it was made; default 24 hours).' }),
  },
  { additionalProperties: false },
);

const FeedQuery = Type.Object({ type: Type.Optional(StringEnum(CONTENT_TYPES, { description: 'Only items of this type.' })) }, { additionalProperties: false });

export function publishingRoutes(feeds: AtomFeeds, previews: PreviewLinks): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/content/feed.atom', {
      schema: {
        operationId: 'contentFeed', summary: 'Atom feed of published items', ...sendsETag(),
        description:
          'The 50 most recently published items (by first publication), newest first, as Atom 1.0; each entry\'s content is the body rendered as ' +
          'sanitized HTML. For management and delivery keys. Carries a weak ETag: If-None-Match answers 304 while the feed is unchanged.',
        tags, ...needs('content:read'), ...openToDelivery(),
        querystring: FeedQuery,
        response: { 200: { description: 'An Atom 1.0 document.', content: { 'application/atom+xml': { schema: Type.String() } } }, ...errorResponses(400, 403) },
      },
    }, async (request, reply) => {
      const xml = await feeds.atom(request.principal!, request.query);
      return reply.type('application/atom+xml; charset=utf-8').header('ETag', weakTag({ xml })).send(xml);
    });

    app.post('/content/:id/preview', {
      schema: {
        operationId: 'previewContent', summary: 'Make a preview link',
        description:
          'A signed link that shows the item (a draft, say) as it is when opened, rendered as HTML, to anyone who has it, until expires_at; ' +
          'it stops working when the item is deleted. Making one shares the item, so it takes content:write.',
        tags, ...needs('content:write'),
        params: IdParams, body: NoFields,
        response: { 201: One(PreviewLink), ...errorResponses(403, 404, 415, 422) },
      },
    }, async (request, reply) => reply.code(201).header('Cache-Control', 'no-store').send({ data: await previews.create(request.principal!, request.params.id) }));
  };
}
