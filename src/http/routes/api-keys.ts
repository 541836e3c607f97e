// /v1/api-keys: thin handlers over the API key service (the dashboard's "API Keys" section).
import Type from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiKeyService } from '../../domain/auth/api-keys.js';
import { One, Page } from '../../domain/schemas/common.js';
import { ApiKey, ApiKeyCreate, ApiKeyListQuery, CreatedApiKey } from '../../domain/schemas/api-keys.js';
import { errorResponses, needs } from '../schemas.js';

const IdParams = Type.Object({ id: Type.String({ description: 'The key id (key_…).' }) });
const tags = ['API keys'];

export function apiKeyRoutes(keys: ApiKeyService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/api-keys', {
      schema: {
        operationId: 'listApiKeys', summary: 'List API keys', description: "Your own keys; admins and owners see every key of the account. Revoked keys are not listed.", tags, ...needs('keys:write'),
        querystring: ApiKeyListQuery,
        response: { 200: Page(ApiKey), ...errorResponses(400, 403) },
      },
    }, async (request) => keys.list(request.principal!, request.query));

    app.post('/api-keys', {
      schema: {
        operationId: 'createApiKey', summary: 'Generate an API key', description: 'The response carries the key in `key`, this once: store it safely.', tags, ...needs('keys:write'),
        body: ApiKeyCreate,
        response: { 201: One(CreatedApiKey), ...errorResponses(400, 403, 413, 415, 422) },
      },
    }, async (request, reply) => {
      const key = await keys.create(request.principal!, request.body);
      return reply.code(201).header('Location', `/v1/api-keys/${key.id}`).header('Cache-Control', 'no-store').send({ data: key });
    });

    app.delete('/api-keys/:id', {
      schema: {
        operationId: 'revokeApiKey', summary: 'Revoke an API key', description: 'Takes effect at once on this instance and within a second on every other.', tags, ...needs('keys:write'),
        params: IdParams,
        response: { 204: Type.Null({ description: 'Revoked.' }), ...errorResponses(403, 404) },
      },
    }, async (request, reply) => {
      await keys.revoke(request.principal!, request.params.id);
      return reply.code(204).send(null);
    });
  };
}
