// When a request's exchange with its client is over: its response has closed (sent in full, or cut
// off), or its connection has — which also covers a pipelined request whose response never got the
// connection, and whose response therefore never closes. One 'close' listener per connection serves
// all of its requests (a keep-alive connection carries many, and listeners would pile up).
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

const waiting = new WeakMap<Socket, Set<() => void>>();

/** Calls `done` once, when the exchange is over (at once if it already is). */
export function whenExchangeOver(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const response = reply.raw;
  const socket = request.raw.socket as Socket | null;
  let called = false;
  const over = () => {
    if (called) return;
    called = true;
    response.off('close', over);
    if (socket) waiting.get(socket)?.delete(over);
    done();
  };
  if (response.closed || !socket || socket.destroyed) return over();
  response.once('close', over);
  let pending = waiting.get(socket);
  if (!pending) {
    const set = new Set<() => void>();
    socket.once('close', () => set.forEach((finish) => finish()));
    waiting.set(socket, (pending = set));
  }
  pending.add(over);
}
