// The dashboard's pages: the files `npm run build` puts in dist/dashboard (Vite), served at / from
// this process, never from a CDN. Any GET of a page path that is not an API path gets index.html (the
// app routes on the client). Pages carry a strict Content-Security-Policy (only this origin's scripts,
// styles and connections; no inline script), refuse framing and send no referrer outward. They are
// not part of the API: no envelope, no rate-limit headers, not counted.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

/** src/http or dist/http → <project>/dist/dashboard. */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../dist/dashboard/', import.meta.url));

export const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

const NOT_PAGES = /^\/(?:v\d+|auth|oauth|\.well-known|docs|healthz|readyz|metrics|preview)(?:[/?]|$)/;

/** A browser asking for a dashboard page or asset: served here, and left alone by the API's hooks. */
export function isDashboardRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (NOT_PAGES.test(request.url)) return false;
  return request.url.startsWith('/assets/') || (request.headers.accept ?? '').includes('text/html') || request.url === '/' || request.url === '/favicon.svg';
}

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Dashboard not built</title>
<h1>The dashboard is not built</h1><p>Run <code>npm run build</code> (npm start does it), then reload.</p></html>`;

/** Registers the built files; returns the fallback that answers page paths with index.html. */
export async function registerDashboard(app: FastifyInstance): Promise<(request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined> {
  const indexFile = `${DASHBOARD_DIR}index.html`;
  const built = fs.existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: DASHBOARD_DIR,
      prefix: '/',
      wildcard: false,
      index: false,
      decorateReply: false,
      // Asset names carry a content hash: they never change. Pages are checked on every load.
      cacheControl: false,
      setHeaders(reply, file) {
        reply.headers(PAGE_HEADERS);
        reply.header('Cache-Control', file.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  return (request, reply) => {
    if (!isDashboardRequest(request) || request.url.startsWith('/assets/')) return undefined;
    // Read each time (a few KiB): a rebuild while running is picked up, like the assets.
    const page = built && fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : NOT_BUILT;
    return reply.code(built ? 200 : 503).headers(PAGE_HEADERS).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(page);
  };
}
