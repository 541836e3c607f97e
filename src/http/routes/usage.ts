// /v1/usage: the account's quota and rate-limit figures (CONTRACT.md §8, an extension).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { UsageService } from '../../domain/limits/usage.js';
import { One } from '../../domain/schemas/common.js';
import { Usage } from '../../domain/schemas/usage.js';
import { errorResponses } from '../schemas.js';

export function usageRoutes(usage: UsageService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/usage', {
      schema: {
        operationId: 'getUsage',
        summary: 'Quota and rate-limit usage of the account',
        description:
          'Any key of the account may read it; it counts toward the hourly limit and the quota like any request. ' +
          'Admins and owners see the usage of every key, other users that of their own keys.',
        tags: ['Usage'],
        security: [{ apiKey: [] }, { oauth2: [] }],
        response: { 200: One(Usage), ...errorResponses() },
      },
    // rateLimit is absent with RATE_LIMITS=off: the report then shows rate_limit: null.
    }, async (request) => ({ data: await usage.report(request.principal!, request.rateLimit ?? null) }));
  };
}
