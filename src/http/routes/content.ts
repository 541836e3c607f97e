// /v1/content: thin handlers that call the content service and shape the response.
import Type from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ContentService } from '../../domain/content/content.js';
import { One, Page } from '../../domain/schemas/common.js';
import { ContentCreate, ContentGetQuery, ContentItem, ContentListItem, ContentListQuery, ContentPagination, ContentUpdate, RenderedContentItem } from '../../domain/schemas/content.js';
import { errorResponses, needs, sendsETag } from '../schemas.js';
import { etag, parseIfMatch, weakTag } from '../preconditions.js';
import { openToDelivery } from '../delivery.js';
import { sendWithMeta } from '../cached-body.js';

import { changed, created, IdParams, IfMatchHeaders, NoFields, send, tags } from './content-params.js';
import { revisionRoutes } from './content-revisions.js';

export function contentRoutes(content: ContentService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/content', {
      schema: {
        operationId: 'listContent', summary: 'List, search and sort content items', ...sendsETag(),
        description:
          'Newest first by default (created_at, then id, descending); q searches, sort orders. Page with limit and offset, or follow ' +
          'pagination.next_cursor with cursor (stable while items are created and deleted). The body is not included; fetch an item for it.',
        tags, ...needs('content:read'), ...openToDelivery(),
        querystring: ContentListQuery,
        response: { 200: Page(ContentListItem, ContentPagination), ...errorResponses(400, 403) },
      },
    }, async (request, reply) => {
      const page = await content.list(request.principal!, request.query);
      return sendWithMeta(request, reply.header('ETag', weakTag(page)), page, () => page);
    });

    app.post('/content', {
      config: { responseOf: created },
      schema: {
        operationId: 'createContent', summary: 'Create a content item', tags, ...sendsETag(), ...needs('content:write'),
        body: ContentCreate,
        response: { 201: One(ContentItem), ...errorResponses(400, 403, 413, 415, 422) },
      },
    }, async (request, reply) => send(reply, created(await content.create(request.principal!, request.body))));

    app.get('/content/:id', {
      schema: {
        operationId: 'getContent', summary: 'Get one content item, with its body', tags, ...sendsETag(), ...needs('content:read'), ...openToDelivery(),
        description: 'render=html adds content_html: the Markdown body as sanitized HTML, rendered once per version.',
        params: IdParams, querystring: ContentGetQuery,
        response: { 200: One(RenderedContentItem), ...errorResponses(400, 403, 404) },
      },
    }, async (request, reply) => {
      const item = await content.get(request.principal!, request.params.id, request.query);
      return sendWithMeta(request, reply.header('ETag', etag(item.version)), item, () => ({ data: item }));
    });

    app.put('/content/:id', {
      schema: {
        operationId: 'updateContent', summary: 'Change some fields of a content item', tags, ...sendsETag(), ...needs('content:write'),
        params: IdParams, headers: IfMatchHeaders, body: ContentUpdate,
        response: { 200: One(ContentItem), ...errorResponses(400, 403, 404, 412, 413, 415, 422) },
      },
    }, async (request, reply) => send(reply, changed(await content.update(request.principal!, request.params.id, request.body, parseIfMatch(request.headers['if-match'])))));

    app.post('/content/:id/archive', {
      config: { responseOf: changed },
      schema: {
        operationId: 'archiveContent', summary: 'Archive a content item', ...sendsETag(), description: 'Archiving an archived item succeeds and changes nothing.', tags, ...needs('content:write'),
        params: IdParams, headers: IfMatchHeaders, body: NoFields,
        response: { 200: One(ContentItem), ...errorResponses(403, 404, 412, 415, 422) },
      },
    }, async (request, reply) => send(reply, changed(await content.archive(request.principal!, request.params.id, parseIfMatch(request.headers['if-match'])))));

    app.delete('/content/:id', {
      schema: {
        operationId: 'deleteContent', summary: 'Delete a content item permanently', tags, ...needs('content:write'),
        params: IdParams, headers: IfMatchHeaders,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(403, 404, 412) },
      },
    }, async (request, reply) => {
      await content.remove(request.principal!, request.params.id, parseIfMatch(request.headers['if-match']));
      return reply.code(204).send(null);
    });

    await app.register(revisionRoutes(content));
  };
}
