// /v1/content/{id}/revisions: an item's versions, one version, and restoring one.
import Type from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ContentService } from '../../domain/content/content.js';
import { One, Page } from '../../domain/schemas/common.js';
import { ContentItem } from '../../domain/schemas/content.js';
import { Revision, RevisionListItem, RevisionListQuery } from '../../domain/schemas/revisions.js';
import { errorResponses, needs, sendsETag } from '../schemas.js';
import { parseIfMatch } from '../preconditions.js';
import { changed, IdParams, IfMatchHeaders, NoFields, send, tags } from './content-params.js';

const VersionParams = Type.Object({
  id: IdParams.properties.id,
  version: Type.String({ description: 'A version number (1, 2, …); anything else is 404.', examples: ['3'] }),
});

export function revisionRoutes(content: ContentService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/content/:id/revisions', {
      schema: {
        operationId: 'listContentRevisions', summary: "List an item's revisions",
        description: 'Newest first. The last REVISIONS_KEEP versions (default 100) of each item are kept; bodies are left out.', tags, ...needs('content:read'),
        params: IdParams, querystring: RevisionListQuery,
        response: { 200: Page(RevisionListItem), ...errorResponses(400, 403, 404) },
      },
    }, async (request) => content.revisions.list(request.principal!, request.params.id, request.query));

    app.get('/content/:id/revisions/:version', {
      schema: {
        operationId: 'getContentRevision', summary: 'Get one revision, with its body', tags, ...needs('content:read'),
        params: VersionParams,
        response: { 200: One(Revision), ...errorResponses(403, 404) },
      },
    }, async (request) => ({ data: await content.revisions.get(request.principal!, request.params.id, request.params.version) }));

    app.post('/content/:id/revisions/:version/restore', {
      config: { responseOf: changed },
      schema: {
        operationId: 'restoreContentRevision', summary: 'Restore a revision', ...sendsETag(),
        description:
          "The item takes the revision's title, type, body and status at a new version (an archived revision restores the item archived); " +
          'published_at is still set only once. Needs the right to update the item; honours If-Match; emits content.updated.',
        tags, ...needs('content:write'),
        params: VersionParams, headers: IfMatchHeaders, body: NoFields,
        response: { 200: One(ContentItem), ...errorResponses(403, 404, 412, 415, 422) },
      },
    }, async (request, reply) => {
      const { id, version } = request.params;
      return send(reply, changed(await content.restore(request.principal!, id, version, parseIfMatch(request.headers['if-match']))));
    });
  };
}
