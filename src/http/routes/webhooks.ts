// /v1/webhooks: thin handlers over the webhook service. Pro and Enterprise only: the plan is
// checked before the body is validated, so a plan without webhooks gets 403 rather than 422.
import Type from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireWebhookPlan, type WebhookService } from '../../domain/webhooks/endpoints.js';
import { One, Page } from '../../domain/schemas/common.js';
import {
  WebhookCreate,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookListQuery,
  WebhookUpdate,
} from '../../domain/schemas/webhooks.js';
import { errorResponses, needs, NoFields } from '../schemas.js';

const IdParams = Type.Object({ id: Type.String({ description: 'The endpoint id (wh_…).' }) });
const DeliveryParams = Type.Object({
  id: Type.String({ description: 'The endpoint id (wh_…).' }),
  delivery_id: Type.String({ description: 'A delivery record id (whd_…).' }),
});
const tags = ['Webhooks'];
const scope = needs('webhooks:write');

export function webhookRoutes(webhooks: WebhookService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('preValidation', async (request) => {
      if (request.principal) requireWebhookPlan(request.principal);
    });

    app.get('/webhooks', {
      schema: {
        operationId: 'listWebhooks', summary: 'List webhook endpoints', description: 'Newest first. Secrets are never listed.', tags, ...scope,
        querystring: WebhookListQuery,
        response: { 200: Page(WebhookEndpoint), ...errorResponses(400, 403) },
      },
    }, async (request) => webhooks.list(request.principal!, request.query));

    app.post('/webhooks', {
      schema: {
        operationId: 'createWebhook', summary: 'Add a webhook endpoint',
        description: 'The response carries the signing secret in `secret`, this once: store it safely. At most 20 endpoints per account (409).', tags, ...scope,
        body: WebhookCreate,
        response: { 201: One(WebhookEndpointWithSecret), ...errorResponses(400, 403, 409, 413, 415, 422) },
      },
    }, async (request, reply) => {
      const endpoint = await webhooks.create(request.principal!, request.body);
      return reply.code(201).header('Location', `/v1/webhooks/${endpoint.id}`).header('Cache-Control', 'no-store').send({ data: endpoint });
    });

    app.get('/webhooks/:id', {
      schema: {
        operationId: 'getWebhook', summary: 'Get one webhook endpoint', tags, ...scope,
        params: IdParams,
        response: { 200: One(WebhookEndpoint), ...errorResponses(403, 404) },
      },
    }, async (request) => ({ data: await webhooks.get(request.principal!, request.params.id) }));

    app.put('/webhooks/:id', {
      schema: {
        operationId: 'updateWebhook', summary: 'Change some fields of a webhook endpoint',
        description: 'Disabling cancels the attempts still pending; enabling clears disabled_reason and failing_since.', tags, ...scope,
        params: IdParams, body: WebhookUpdate,
        response: { 200: One(WebhookEndpoint), ...errorResponses(400, 403, 404, 413, 415, 422) },
      },
    }, async (request) => ({ data: await webhooks.update(request.principal!, request.params.id, request.body) }));

    app.delete('/webhooks/:id', {
      schema: {
        operationId: 'deleteWebhook', summary: 'Delete a webhook endpoint', description: 'Its delivery records go with it.', tags, ...scope,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(403, 404) },
      },
    }, async (request, reply) => {
      await webhooks.remove(request.principal!, request.params.id);
      return reply.code(204).send(null);
    });

    app.post('/webhooks/:id/rotate-secret', {
      schema: {
        operationId: 'rotateWebhookSecret', summary: 'Rotate the signing secret',
        description: 'The new secret is in `secret`, shown this once. For 24 hours both secrets sign every delivery (two space-separated signatures).', tags, ...scope,
        params: IdParams, body: NoFields,
        response: { 200: One(WebhookEndpointWithSecret), ...errorResponses(403, 404, 415, 422) },
      },
    }, async (request, reply) => {
      const endpoint = await webhooks.rotateSecret(request.principal!, request.params.id);
      return reply.header('Cache-Control', 'no-store').send({ data: endpoint });
    });

    app.post('/webhooks/:id/test', {
      schema: {
        operationId: 'testWebhook', summary: 'Send a webhook.test ping',
        description: 'Queues a `webhook.test` delivery (not written to the event log) and answers with its record. 409 when the endpoint is disabled.', tags, ...scope,
        params: IdParams, body: NoFields,
        response: { 202: One(WebhookDelivery), ...errorResponses(403, 404, 409, 415, 422) },
      },
    }, async (request, reply) => reply.code(202).send({ data: await webhooks.test(request.principal!, request.params.id) }));

    app.get('/webhooks/:id/deliveries', {
      schema: {
        operationId: 'listWebhookDeliveries', summary: 'List delivery attempts of an endpoint', description: 'One record per attempt, newest first.', tags, ...scope,
        params: IdParams, querystring: WebhookListQuery,
        response: { 200: Page(WebhookDelivery), ...errorResponses(400, 403, 404) },
      },
    }, async (request) => webhooks.listDeliveries(request.principal!, request.params.id, request.query));

    app.post('/webhooks/:id/deliveries/:delivery_id/retry', {
      schema: {
        operationId: 'retryWebhookDelivery', summary: 'Deliver an event again',
        description: 'Queues a new attempt of the delivery’s event, due now, and answers with its record. 409 while an attempt of that event is pending, while the endpoint is disabled, or once the event has left the event log.', tags, ...scope,
        params: DeliveryParams, body: NoFields,
        response: { 202: One(WebhookDelivery), ...errorResponses(403, 404, 409, 415, 422) },
      },
    }, async (request, reply) =>
      reply.code(202).send({ data: await webhooks.retry(request.principal!, request.params.id, request.params.delivery_id) }));
  };
}
