// /v1/users: thin handlers over the user service.
import Type from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { passwordRule, type UserService } from '../../domain/users/users.js';
import { One, Page } from '../../domain/schemas/common.js';
import { Invitation, User, UserCreate, UserListQuery, UserUpdate } from '../../domain/schemas/users.js';
import { errorResponses, needs, NoFields } from '../schemas.js';

const IdParams = Type.Object({ id: Type.String({ description: 'The user id.' }) });
const tags = ['Users'];

/** `password` is allowed only to some credentials (403): answered before the body is validated (CONTRACT.md §3 order). */
async function passwordFirst(request: FastifyRequest): Promise<void> {
  const body = request.body as Record<string, unknown> | null | undefined;
  if (request.principal && body !== null && typeof body === 'object' && 'password' in body) {
    passwordRule(request.principal, (request.params as { id?: string }).id);
  }
}

export function userRoutes(users: UserService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/users', {
      schema: {
        operationId: 'listUsers', summary: 'List the users of the account', description: 'Newest first.', tags, ...needs('users:read'),
        querystring: UserListQuery,
        response: { 200: Page(User), ...errorResponses(400, 403) },
      },
    }, async (request) => users.list(request.principal!, request.query));

    app.post('/users', {
      schema: {
        operationId: 'createUser', summary: 'Add a user to the account',
        description: 'Admins may add users up to admin; only owners add owners. Without `password`, the user is e-mailed an invitation: a link to choose a password, valid 7 days (docs/email.md).',
        tags, ...needs('users:write'),
        body: UserCreate,
        response: { 201: One(User), ...errorResponses(400, 403, 409, 413, 415, 422) },
      },
      preValidation: passwordFirst,
    }, async (request, reply) => {
      const user = await users.create(request.principal!, request.body);
      return reply.code(201).header('Location', `/v1/users/${user.id}`).send({ data: user });
    });

    app.get('/users/:id', {
      schema: {
        operationId: 'getUser', summary: 'Get one user', tags, ...needs('users:read'),
        params: IdParams,
        response: { 200: One(User), ...errorResponses(403, 404) },
      },
    }, async (request) => ({ data: await users.get(request.principal!, request.params.id) }));

    app.put('/users/:id', {
      schema: {
        operationId: 'updateUser', summary: 'Change some fields of a user', description: 'Nobody changes their own role; an account keeps at least one owner.', tags, ...needs('users:write'),
        params: IdParams, body: UserUpdate,
        response: { 200: One(User), ...errorResponses(400, 403, 404, 409, 413, 415, 422) },
      },
      preValidation: passwordFirst,
    }, async (request) => ({ data: await users.update(request.principal!, request.params.id, request.body) }));

    app.post('/users/:id/invite', {
      schema: {
        operationId: 'inviteUser', summary: 'Send a user a fresh invitation',
        description:
          'E-mails a new link to choose a password, valid 7 days; earlier links stop working. Who may: as for changing the user. ' +
          'A user who has chosen a password already gets 409 (they use "Forgot password?").',
        tags, ...needs('users:write'),
        params: IdParams, body: NoFields,
        response: { 202: One(Invitation), ...errorResponses(403, 404, 409, 415, 422) },
      },
    }, async (request, reply) => reply.code(202).send({ data: await users.invite(request.principal!, request.params.id) }));

    app.delete('/users/:id', {
      schema: {
        operationId: 'deleteUser', summary: 'Remove a user', description: 'Their API keys stop working at once; their content stays.', tags, ...needs('users:write'),
        params: IdParams,
        response: { 204: Type.Null({ description: 'Removed.' }), ...errorResponses(403, 404, 409) },
      },
    }, async (request, reply) => {
      await users.remove(request.principal!, request.params.id);
      return reply.code(204).send(null);
    });
  };
}
