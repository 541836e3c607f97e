// The real-time channel, /v1/ws (CONTRACT.md §9). The upgrade goes through the /v1 hooks like any
// request (401 for a bad key, 403 without events:read, rate limits), then each connection
// subscribes to event names and receives the account's events in commit order, optionally
// replaying the retained log from a cursor first. Connection-wide chores (pings, revoked keys,
// shutdown) run from one timer per instance, not one per socket.
import { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import Type from 'typebox';
import type { Authenticator } from '../domain/auth/authenticator.js';
import type { EventFeed } from '../domain/events/event-feed.js';
import type { EventStream } from '../domain/events/event-stream.js';
import { DomainError } from '../domain/errors.js';
import { errorResponses, needs } from './schemas.js';
import { Connection } from './ws-connection.js';
import { clientAddress } from './rate-limit.js';
import { endExchange } from './exchange.js';

const MAX_MESSAGE_BYTES = 64 * 1024;
const PING_INTERVAL_MS = 30_000;
const RECHECK_INTERVAL_MS = 2_000;

export interface RealtimeDeps {
  auth: Authenticator;
  feed: EventFeed;
  stream: EventStream;
  /** 30 s; tests shorten it. */
  pingIntervalMs?: number;
}

export interface Realtime {
  plugin: FastifyPluginAsync;
  /** Closes every connection with 1001 (going away), for shutdown. */
  closeAll(): void;
  /** Open connections on this instance. */
  count(): number;
  /** Connections attached to the live event stream. */
  subscribers(): number;
}

export function realtime(deps: RealtimeDeps): Realtime {
  const connections = new Set<Connection>();

  // One timer for every connection: ping, and drop those that did not answer the last ping.
  const pinger = setInterval(() => {
    for (const connection of connections) connection.heartbeat();
  }, deps.pingIntervalMs ?? PING_INTERVAL_MS);
  pinger.unref();

  // A key revoked (or its user deleted or demoted) on any instance closes its sockets within
  // seconds; on this instance the Authenticator tells us at once.
  const recheck = () => {
    const byToken = new Map<string, Connection[]>();
    for (const c of connections) byToken.set(c.token, [...(byToken.get(c.token) ?? []), c]);
    for (const [token, group] of byToken) {
      deps.auth.authenticate(token).then(
        (principal) => group.forEach((c) => (principal ? c.updatePrincipal(principal) : c.close(1008, 'API key revoked or expired'))),
        () => {},
      );
    }
  };
  const rechecker = setInterval(recheck, RECHECK_INTERVAL_MS);
  rechecker.unref();
  deps.auth.onInvalidate(recheck);

  const plugin: FastifyPluginAsync = async (app) => {
    // No permessage-deflate (ws's default for servers, said here so that it stays so): events are
    // small, a compressor per connection would cost memory and CPU on every socket, and the
    // fan-out writes one ready-made frame to every socket (ws-connection.ts), which needs it off.
    await app.register(websocket, { options: { maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false } });
    app.addHook('onClose', async () => {
      clearInterval(pinger);
      clearInterval(rechecker);
    });

    app.route({
      method: 'GET',
      url: '/ws',
      schema: {
        operationId: 'realtime',
        summary: 'Real-time events over WebSocket',
        description:
          'Upgrade to a WebSocket (wss://). The key goes in the token query parameter or the Authorization header. ' +
          'See docs/realtime.md for the messages. A plain HTTP GET (no upgrade) gets 426.',
        tags: ['Events'],
        ...needs('events:read'),
        querystring: Type.Object({ token: Type.Optional(Type.String({ description: 'The API key (alternative to the Authorization header).' })) }),
        response: {
          101: Type.Null({ description: 'Switching Protocols: the connection is now a WebSocket.' }),
          ...errorResponses(400, 403, 426),
        },
      },
      handler: async (_request, reply) => {
        // RFC 9110 §7.8: a 426 names the protocol in Upgrade, and a sender of Upgrade lists it in Connection.
        reply.header('Upgrade', 'websocket');
        reply.header('Connection', 'upgrade');
        throw new DomainError('upgrade_required', 'This endpoint speaks WebSocket only: send an upgrade request (wss://…/v1/ws).');
      },
      wsHandler: (socket: WebSocket, request) => {
        const principal = request.principal!;
        const log = request.log;
        log.info({ url: '/v1/ws', account_id: principal.accountId, remote_address: clientAddress(request) }, 'websocket opened');
        releaseExchange(request, socket, log);
        const connection = new Connection(socket, principal, request.credential!, deps.feed, deps.stream, log);
        connections.add(connection);
        socket.once('close', (code) => {
          connections.delete(connection);
          connection.detach();
          log.info({ account_id: principal.accountId, close_code: code }, 'websocket closed');
        });
      },
    });
  };

  return {
    plugin,
    closeAll() {
      for (const connection of connections) connection.close(1001, 'server shutting down');
    },
    count: () => connections.size,
    subscribers: () => deps.stream.subscriberCount(),
  };
}

/**
 * Once upgraded, the HTTP exchange is over: nothing of it may stay reachable from the connection,
 * which lives for hours (each request, reply, response and their headers would cost every idle
 * connection several KB). Ends the exchange (the in-flight count, and exchange.ts's wait for the
 * response or connection to close), takes the response off the socket (@fastify/websocket assigned
 * it one and never takes it back), and replaces @fastify/websocket's error listener, which holds
 * the request and reply, with one that holds the logger only (and does the same: log, terminate).
 */
function releaseExchange(request: FastifyRequest, socket: WebSocket, log: FastifyBaseLogger): void {
  request.endInFlight?.();
  endExchange(request);
  const raw = request.raw.socket as (Socket & { _httpMessage?: unknown }) | null;
  if (raw && raw._httpMessage instanceof ServerResponse) raw._httpMessage.detachSocket(raw);
  socket.removeAllListeners('error');
  socket.on('error', (error) => {
    log.error({ err: error }, 'websocket error');
    socket.terminate();
  });
}
