// Probes outside /v1, without an API key: /healthz (the process answers) and /readyz (the store does).
import type { FastifyPluginAsync } from 'fastify';
import { DomainError } from '../../domain/errors.js';

export function healthRoutes(ready: () => Promise<void>): FastifyPluginAsync {
  return async (app) => {
    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { schema: { hide: true } }, async () => {
      try {
        await ready();
      } catch {
        throw new DomainError('unavailable', 'The store is unreachable.');
      }
      return { status: 'ready' };
    });
  };
}
