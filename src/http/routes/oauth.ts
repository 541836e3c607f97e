// /v1/oauth: thin handlers over the OAuth app service (apps and their secrets) and the connected-app
// service (the grants a person gave). Both need keys:write, which no OAuth token ever holds.
import Type from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OAuthAppService } from '../../domain/oauth/apps.js';
import type { OAuthAuthorizationService } from '../../domain/oauth/authorizations.js';
import { One, Page } from '../../domain/schemas/common.js';
import {
  ConnectedApp,
  ConnectedAppListQuery,
  OAuthApp,
  OAuthAppCreate,
  OAuthAppListQuery,
  OAuthAppUpdate,
  OAuthAppWithSecret,
} from '../../domain/schemas/oauth.js';
import { errorResponses, needs, NoFields } from '../schemas.js';

const AppParams = Type.Object({ id: Type.String({ description: 'The app id (app_…), also its client_id.' }) });
const GrantParams = Type.Object({ id: Type.String({ description: 'The authorization id (grant_…).' }) });
const tags = ['OAuth'];
const scope = needs('keys:write');

export function oauthApiRoutes(apps: OAuthAppService, authorizations: OAuthAuthorizationService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/oauth/apps', {
      schema: {
        operationId: 'listOAuthApps', summary: 'List OAuth apps',
        description: 'Your own apps; admins and owners see every app registered in the account. Secrets are never listed.', tags, ...scope,
        querystring: OAuthAppListQuery,
        response: { 200: Page(OAuthApp), ...errorResponses(400, 403) },
      },
    }, async (request) => apps.list(request.principal!, request.query));

    app.post('/oauth/apps', {
      schema: {
        operationId: 'createOAuthApp', summary: 'Register an OAuth app',
        description: 'A confidential app gets its client secret in `client_secret`, this once: store it safely. Its id is the client_id.', tags, ...scope,
        body: OAuthAppCreate,
        response: { 201: One(OAuthAppWithSecret), ...errorResponses(400, 403, 413, 415, 422) },
      },
    }, async (request, reply) => {
      const created = await apps.create(request.principal!, request.body);
      return reply.code(201).header('Location', `/v1/oauth/apps/${created.id}`).header('Cache-Control', 'no-store').send({ data: created });
    });

    app.get('/oauth/apps/:id', {
      schema: {
        operationId: 'getOAuthApp', summary: 'Get one OAuth app', tags, ...scope,
        params: AppParams,
        response: { 200: One(OAuthApp), ...errorResponses(403, 404) },
      },
    }, async (request) => ({ data: await apps.get(request.principal!, request.params.id) }));

    app.put('/oauth/apps/:id', {
      schema: {
        operationId: 'updateOAuthApp', summary: 'Change some fields of an OAuth app',
        description: 'name, redirect_uris and scopes; type cannot change. Narrowing scopes does not narrow tokens already issued.', tags, ...scope,
        params: AppParams, body: OAuthAppUpdate,
        response: { 200: One(OAuthApp), ...errorResponses(400, 403, 404, 413, 415, 422) },
      },
    }, async (request) => ({ data: await apps.update(request.principal!, request.params.id, request.body) }));

    app.delete('/oauth/apps/:id', {
      schema: {
        operationId: 'deleteOAuthApp', summary: 'Delete an OAuth app',
        description: 'Every grant and token of the app stops working at once (within a second on every instance).', tags, ...scope,
        params: AppParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(403, 404) },
      },
    }, async (request, reply) => {
      await apps.remove(request.principal!, request.params.id);
      return reply.code(204).send(null);
    });

    app.post('/oauth/apps/:id/rotate-secret', {
      schema: {
        operationId: 'rotateOAuthAppSecret', summary: 'Rotate the client secret',
        description: 'The new secret is in `client_secret`, shown this once; the old one stops working at once. Tokens already issued keep working. 409 for a public app.', tags, ...scope,
        params: AppParams, body: NoFields,
        response: { 200: One(OAuthAppWithSecret), ...errorResponses(403, 404, 409, 415, 422) },
      },
    }, async (request, reply) => reply.header('Cache-Control', 'no-store').send({ data: await apps.rotateSecret(request.principal!, request.params.id) }));

    app.get('/oauth/authorizations', {
      schema: {
        operationId: 'listOAuthAuthorizations', summary: 'List your connected apps',
        description: 'The grants you gave to OAuth apps, newest first.', tags, ...scope,
        querystring: ConnectedAppListQuery,
        response: { 200: Page(ConnectedApp), ...errorResponses(400, 403) },
      },
    }, async (request) => authorizations.list(request.principal!, request.query));

    app.delete('/oauth/authorizations/:id', {
      schema: {
        operationId: 'revokeOAuthAuthorization', summary: 'Disconnect an app',
        description: 'Revokes the grant and every token issued from it: at once here, within a second on every instance.', tags, ...scope,
        params: GrantParams,
        response: { 204: Type.Null({ description: 'Revoked.' }), ...errorResponses(403, 404) },
      },
    }, async (request, reply) => {
      await authorizations.revoke(request.principal!, request.params.id);
      return reply.code(204).send(null);
    });
  };
}
