// /v1/content-types (CONTRACT.md §20): each content type's model of typed fields, and its JSON Schema.
import Type from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ContentTypes } from '../../domain/content-model/content-types.js';
import { requireModelEditor } from '../../domain/content-model/content-types.js';
import { One } from '../../domain/schemas/common.js';
import { ContentTypeModel, ContentTypePut } from '../../domain/schemas/content-types.js';
import { errorResponses, needs } from '../schemas.js';
import { etag, parseIfMatch } from '../preconditions.js';
import { IfMatchHeaders } from './content-params.js';

const tags = ['Content model'];
const TypeParams = Type.Object({ type: Type.String({ description: 'blog, manual, whitepaper or strategy.' }) });
const NoQuery = Type.Object({}, { additionalProperties: false });

export function contentTypeRoutes(types: ContentTypes, baseUrl: () => string): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/content-types', {
      schema: {
        operationId: 'listContentTypes', summary: 'The four content types and their models', tags, ...needs('content:read'),
        querystring: NoQuery,
        response: { 200: One(Type.Array(ContentTypeModel)), ...errorResponses(400, 403) },
      },
    }, async (request) => ({ data: await types.list(request.principal!) }));

    app.get('/content-types/:type', {
      schema: {
        operationId: 'getContentType', summary: "A content type's model of typed fields", tags, ...needs('content:read'),
        description: 'A model never written is {"fields": [], "version": 0, "updated_at": null}. ETag: the model version.',
        params: TypeParams, querystring: NoQuery,
        response: { 200: One(ContentTypeModel), ...errorResponses(400, 403, 404) },
      },
    }, async (request, reply) => {
      const model = await types.get(request.principal!, request.params.type);
      return reply.header('ETag', etag(model.version)).send({ data: model });
    });

    app.put('/content-types/:type', {
      schema: {
        operationId: 'putContentType', summary: "Replace a content type's model", tags, ...needs('content:write'),
        description:
          'Admins and owners. The whole list of fields, in order. Checked against the stored items: 409 names each field in the way with the ' +
          'number of items (`items`). A removed field is dropped from the items (their revisions keep it). Emits content_type.updated.',
        params: TypeParams, headers: IfMatchHeaders, body: ContentTypePut,
        response: { 200: One(ContentTypeModel), ...errorResponses(403, 404, 409, 412, 413, 415, 422) },
      },
      // An editor's attempt is 403 before its body is looked at (CONTRACT.md §3 order).
      preValidation: async (request) => requireModelEditor(request.principal!),
    }, async (request, reply) => {
      const model = await types.put(request.principal!, request.params.type, request.body.fields, parseIfMatch(request.headers['if-match']));
      return reply.header('ETag', etag(model.version)).send({ data: model });
    });

    app.get('/content-types/:type/schema', {
      schema: {
        operationId: 'getContentTypeSchema', summary: "JSON Schema (2020-12) of a content type's items", tags, ...needs('content:read'),
        description: 'The item as read, its fields typed by the model: for generating client types (cms types generate). Not wrapped in data.',
        params: TypeParams, querystring: NoQuery,
        response: { 200: { description: 'A JSON Schema document.', content: { 'application/schema+json': { schema: Type.Object({}, { additionalProperties: true }) } } }, ...errorResponses(400, 403, 404) },
      },
    }, async (request, reply) => {
      const schema = await types.schema(request.principal!, request.params.type, baseUrl());
      return reply.type('application/schema+json; charset=utf-8').send(JSON.stringify(schema, null, 2) as never);
    });
  };
}
