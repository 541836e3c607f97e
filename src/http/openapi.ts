// The OpenAPI 3.1 document, generated from the route schemas, at /v1/openapi.json, and a readable
// reference at /docs served from the installed swagger-ui package (no CDN).
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { documentResponses } from './openapi-responses.js';
import { SCOPE_WORDS } from '../domain/oauth/scopes.js';
import { nameDiscriminatedBranches } from './openapi-discriminators.js';

/** `rateLimits`: whether answers carry the rate-limit headers (RATE_LIMITS=off sends none). */
export async function registerOpenApi(app: FastifyInstance, options: { rateLimits: boolean } = { rateLimits: true }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Content Management Service',
        version: '1.0.0',
        description:
          'Multi-tenant JSON API for content items (blog posts, manuals, white papers, strategy documents) and the users of an account. ' +
          'Every response under /v1 carries meta.request_id (also the X-Request-Id header); errors carry message, code and, for validation, errors. ' +
          'Each operation lists every status it can answer and the headers clients rely on. Beyond those, every answer carries the security ' +
          'headers (Strict-Transport-Security, X-Content-Type-Options: nosniff, Content-Security-Policy, Referrer-Policy, X-Frame-Options, ' +
          'and the Cross-Origin-* and X-* headers helmet sets), and a method a path does not list answers 405 with an Allow header.',
        license: { name: 'UNLICENSED', identifier: 'LicenseRef-Proprietary' },
        contact: { name: 'API support', email: 'support@example.com' },
      },
      servers: [{ url: '/', description: 'This server' }],
      tags: [
        { name: 'Content', description: 'Content items and their lifecycle: draft, published, archived.' },
        { name: 'Users', description: 'The people of an account and their roles.' },
        { name: 'API keys', description: 'Keys act as their user, limited to their scopes.' },
        { name: 'Events', description: 'The event log of every change, by polling or over a WebSocket (wss://…/v1/ws).' },
        { name: 'Usage', description: 'Hourly rate limit and monthly quota (every /v1 response also shows the limit in X-RateLimit-* headers).' },
        { name: 'Webhooks', description: 'Signed deliveries of events to your endpoints (Pro and Enterprise).' },
        {
          name: 'OAuth',
          description:
            'OAuth apps (clients) and the apps you authorized. The protocol endpoints themselves live outside /v1: see /.well-known/oauth-authorization-server and docs/oauth.md.',
        },
      ],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key (cms_live_…) as a Bearer token. The scopes listed on an operation are the key scopes it needs.',
          },
          oauth2: {
            type: 'oauth2',
            description:
              'An OAuth 2.0 access token (cms_oat_…) as a Bearer token: it acts as the person who authorized the app (or, for client credentials, ' +
              "the app's registering user) with the granted scopes narrowed to what that person's role allows. PKCE (S256) is required. " +
              'Metadata: /.well-known/oauth-authorization-server.',
            flows: {
              authorizationCode: { authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token', refreshUrl: '/oauth/token', scopes: SCOPE_WORDS },
              clientCredentials: { tokenUrl: '/oauth/token', scopes: SCOPE_WORDS },
            },
          },
        },
      },
    },
    // A body marked x-optional-body (archive) may be left out; the generator always says required.
    transformObject: (documentObject) => {
      const document = 'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject;
      for (const item of Object.values((document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {})) {
        for (const operation of Object.values(item) as { requestBody?: { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> } }[]) {
          const json = operation?.requestBody?.content?.['application/json'];
          // A streamed upload (POST /v1/media) is multipart, and required: its schema only documents the parts.
          if (json?.schema?.['x-multipart']) operation.requestBody = { required: true, content: { 'multipart/form-data': json } };
          else if (json?.schema?.['x-optional-body']) operation.requestBody!.required = false;
        }
      }
      documentResponses(document as Parameters<typeof documentResponses>[0], options);
      nameDiscriminatedBranches(document as Parameters<typeof nameDiscriminatedBranches>[0]);
      return document;
    },
    refResolver: {
      // Name shared schemas after their $id (Error) rather than def-0.
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { deepLinking: true, defaultModelsExpandDepth: 0 },
    staticCSP: true,
  });
  app.get('/v1/openapi.json', { schema: { hide: true }, config: { raw: true } }, async () => app.swagger());
}
