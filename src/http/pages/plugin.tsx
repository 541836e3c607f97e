// The scope server-rendered pages are registered in: it parses HTML form posts
// (application/x-www-form-urlencoded, accepted here and nowhere under /v1), answers any error as
// an HTML page in words rather than the API's JSON envelope, and keeps its routes out of the
// OpenAPI document.
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { toHttpError } from '../errors.js';
import { sendPage } from './page.js';

/** Form bodies are small: a few fields. */
const FORM_BODY_LIMIT = 16 * 1024;

export function pagesScope(register: (app: FastifyInstance) => Promise<void>): FastifyPluginAsync {
  return async (app) => {
    await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
    // Pages are for people, not part of the API: they stay out of the OpenAPI document.
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    app.setErrorHandler(async (error, request, reply) => {
      const e = toHttpError(error);
      if (e.status >= 500) request.log.error({ err: error }, 'page failed');
      return sendPage(reply.headers(e.headers ?? {}), { status: e.status, title: e.status >= 500 ? 'Something went wrong' : 'This did not work' }, (
        <>
          <p role="alert">{e.message}</p>
          <p class="hint">Reference: {request.id}</p>
        </>
      ));
    });
    await register(app);
  };
}
