// The `meta` of every JSON response (CONTRACT.md §2): this request's id and the time spent so far.
import type { FastifyReply, FastifyRequest } from 'fastify';

export function responseMeta(request: FastifyRequest, reply: FastifyReply): { request_id: string; response_time: string } {
  return { request_id: request.id, response_time: `${reply.elapsedTime.toFixed(2)}ms` };
}
