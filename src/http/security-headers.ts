// The security headers of every answer, set by @fastify/helmet: HSTS when this service terminates
// TLS (a proxy that does sets its own), nosniff, no referrer, no framing, and a Content-Security-
// Policy that lets a JSON answer load nothing. Pages that need more — the dashboard, the server-
// rendered pages, Swagger UI at /docs — set their own CSP over this one; the other headers they
// keep. API answers are never stored by caches (they are per key, and may hold secrets).
import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

export async function registerSecurityHeaders(app: FastifyInstance, tls: boolean): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    strictTransportSecurity: tls ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/v1/')) reply.header('Cache-Control', 'no-store');
  });
}
