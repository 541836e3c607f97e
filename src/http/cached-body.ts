// Answers made from cached values (list pages, items) are serialised once per value, not once per
// request: the body is kept as text around the place where `meta` goes, and each request splices
// in its own meta (CONTRACT.md §2). The text is made by the route's own response serialiser, so it
// is exactly what serialising the value with meta would give.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { responseMeta } from './meta.js';

/** Stands in for meta while the body is serialised; its JSON text is found and cut out. */
const MARK = { request_id: 'req_\u0001meta\u0001', response_time: '\u0001' };
const MARK_TEXT = JSON.stringify(MARK);

/** The body's text before and after meta, per cached value (gone with the value). */
const templates = new WeakMap<object, readonly [string, string] | null>();

/**
 * Sends `body()` with this request's meta. `value` is what the body is made of: while it is the same
 * object (a cache hit), the body is not serialised again.
 */
export function sendWithMeta(request: FastifyRequest, reply: FastifyReply, value: object, body: () => object): FastifyReply {
  let template = templates.get(value);
  if (template === undefined) {
    const serialised = reply.serialize({ ...body(), meta: MARK });
    const text = typeof serialised === 'string' ? serialised : '';
    const at = text.indexOf(MARK_TEXT);
    // Not found once (a serialiser that writes meta otherwise): this value is sent the usual way.
    template = at < 0 || text.indexOf(MARK_TEXT, at + 1) >= 0 ? null : [text.slice(0, at), text.slice(at + MARK_TEXT.length)];
    templates.set(value, template);
  }
  if (template === null) return reply.send(body());
  return reply.type('application/json; charset=utf-8').send(template[0] + JSON.stringify(responseMeta(request, reply)) + template[1]);
}
