// Idempotency-Key on every POST under /v1 (CONTRACT.md §17), one mechanism at the HTTP edge for
// every route, whoever wrote it: after the permission check the key is claimed (or answered for:
// a replay, 409 or 422), the handler runs inside the claim's transaction scope, and the response is
// stored before it is sent. The guarantee, and what a crash leaves: docs/content.md#idempotency-keys.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions, onSendHookHandler, preHandlerHookHandler, preValidationHookHandler } from 'fastify';
import Type from 'typebox';
import type { Claim, IdempotencyService, ResponseOf, StoredResponse } from '../domain/idempotency/idempotency.js';
import { responseMeta } from './meta.js';
import { appendHook } from './route-hooks.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's hold on its Idempotency-Key; null without one (or on a replay). */
    idempotency: Claim | null;
  }
  interface FastifyContextConfig {
    /**
     * The route's response made from the result of its change's transaction (the handler sends the
     * same): with it, a keyed request's response is stored in that transaction, not after it.
     */
    responseOf?: ResponseOf;
  }
}

function replay(request: FastifyRequest, reply: FastifyReply, stored: StoredResponse): FastifyReply {
  reply.code(stored.status).headers({ ...stored.headers, 'idempotent-replayed': 'true' });
  if (stored.body === null) return reply.send();
  // Sent as text: the first body as it was (its one-time secrets gone), with this request's meta.
  return reply.type('application/json; charset=utf-8').send(JSON.stringify({ ...stored.body, meta: responseMeta(request, reply) }));
}

/**
 * Adds the hooks to every POST route of the /v1 scope (no other request passes through them); they
 * run after the scope's own hooks (the permission check) and before the route's own.
 */
export function installIdempotency(v1: FastifyInstance, idempotency: IdempotencyService): void {
  v1.decorateRequest('idempotency', null);
  const claim: preValidationHookHandler = async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || !request.principal) return;
    const key = Array.isArray(header) ? header.join(', ') : header;
    const shape = { method: request.method, url: request.url, body: request.body };
    const answer = await idempotency.claim(request.principal, key, shape, request.routeOptions.config.responseOf);
    if ('owner' in answer) request.idempotency = answer;
    else return replay(request, reply, answer);
  };
  // A callback hook, so that the handler runs inside the scope (an async hook's continuation would not).
  const scope: preHandlerHookHandler = (request, _reply, done) => (request.idempotency ? idempotency.run(request.idempotency, done) : done());
  const store: onSendHookHandler = async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    // Stored before it is sent: a client that has the response can always have it again.
    await idempotency
      .complete(claim, reply.statusCode, reply.getHeaders(), payload)
      .catch((error: unknown) => request.log.warn({ err: error }, 'could not store the response of an idempotent request'));
    return payload;
  };
  v1.addHook('onRoute', (route) => {
    if (route.method !== 'POST') return;
    appendHook(route, 'preValidation', claim, { first: true });
    appendHook(route, 'preHandler', scope, { first: true });
    appendHook(route, 'onSend', store);
  });
}

const KEY_HEADER = Type.String({
  minLength: 1,
  maxLength: 255,
  description:
    'Makes the request safe to repeat: for 24 hours a repeat with this key, the same path and body gets the first response again ' +
    '(marked Idempotent-Replayed: true) and changes nothing. 1–255 printable ASCII characters.',
});

const KEY_ERRORS: Record<number, string> = {
  409: 'Conflicts with the current state; or the Idempotency-Key is in use by a request still running (idempotency_key_in_use), or its request was applied and the response lost (idempotency_response_lost).',
  422: 'The body failed validation, or the Idempotency-Key was used for another request (idempotency_key_reused).',
};

/** An onRoute hook: documents the header and its answers on every POST under /v1. */
export function documentIdempotency(route: RouteOptions): void {
  if (route.method !== 'POST' || !route.url.startsWith('/v1/') || !route.schema) return;
  const schema = route.schema as { headers?: { properties?: Record<string, unknown> }; response?: Record<number, unknown> };
  // Added to the route's own header schema, whatever else it says (required headers, say).
  const headers = schema.headers ?? Type.Object({});
  schema.headers = { ...headers, properties: { ...headers.properties, 'idempotency-key': Type.Optional(KEY_HEADER) } };
  for (const status of [409, 422]) {
    if (schema.response) schema.response[status] = { description: KEY_ERRORS[status], $ref: 'Error#' };
  }
}
