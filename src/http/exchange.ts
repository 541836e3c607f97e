// When a request's exchange with its client is over: its response has closed (sent in full, or cut
// off), or its connection has — which also covers a pipelined request whose response never got the
// connection, and whose response therefore never closes. One 'close' listener per connection serves
// all of its requests (a keep-alive connection carries many, and listeners would pile up).
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

const waiting = new WeakMap<Socket, Set<() => void>>();
/** Each open exchange's ending, by its request, for exchanges that end other than by a close. */
const ending = new WeakMap<FastifyRequest, () => void>();

/**
 * Ends an exchange now: a WebSocket upgrade is over as an HTTP exchange once upgraded, but its
 * response never closes and its connection stays open, and what waits for either would keep the
 * request and response alive as long as the WebSocket.
 */
export function endExchange(request: FastifyRequest): void {
  ending.get(request)?.();
}

/** Calls `done` once, when the exchange is over (at once if it already is). */
export function whenExchangeOver(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const response = reply.raw;
  const socket = request.raw.socket as Socket | null;
  let called = false;
  const over = () => {
    if (called) return;
    called = true;
    response.off('close', over);
    ending.delete(request);
    if (socket) waiting.get(socket)?.delete(over);
    done();
  };
  if (response.closed || !socket || socket.destroyed) return over();
  response.once('close', over);
  ending.set(request, over);
  waitingOn(socket).add(over);
}

/**
 * The exchanges waiting for a connection to close. Its listener is made here, not in
 * whenExchangeOver, so that it does not hold (through the closure's scope) the first request and
 * response of the connection for as long as the connection lives.
 */
function waitingOn(socket: Socket): Set<() => void> {
  let pending = waiting.get(socket);
  if (!pending) {
    const set = new Set<() => void>();
    socket.once('close', () => set.forEach((finish) => finish()));
    waiting.set(socket, (pending = set));
  }
  return pending;
}
