// The listening socket. With TLS on, one port speaks HTTPS, and a plain-HTTP request that reaches
// it is told so in plain HTTP (400 https_required) without its headers being read: the first byte
// of a connection decides (a TLS handshake starts with 0x16). With TLS off (behind a proxy), the
// socket speaks HTTP and the app checks X-Forwarded-Proto.
import http from 'node:http';
import net from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { newId } from '../domain/ids.js';
import { redactUrl } from './server.js';

const TLS_HANDSHAKE = 0x16;
/** A connection that sends nothing for this long is dropped before it is classified. */
const FIRST_BYTE_TIMEOUT_MS = 10_000;

export interface Listener {
  address: { host: string; port: number };
  /** Stops accepting new connections. */
  stopAccepting(): Promise<void>;
  /** Closes connections with no request in flight (keep-alive ones). */
  closeIdle(): void;
  /** Closes every remaining connection. */
  closeAll(): void;
}

/** Answers in plain HTTP and logs the request line only: the headers (Authorization) are never used. */
function plainHttpRefusal(log: FastifyBaseLogger): http.Server {
  return http.createServer((request, response) => {
    const started = process.hrtime.bigint();
    const requestId = newId('req');
    const elapsedMs = () => Number(process.hrtime.bigint() - started) / 1e6;
    const body = JSON.stringify({
      message: 'This service accepts HTTPS only; send the request to https:// instead.',
      code: 'https_required',
      meta: { request_id: requestId, response_time: `${elapsedMs().toFixed(2)}ms` },
    });
    response.writeHead(400, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'X-Request-Id': requestId,
      Connection: 'close',
    });
    response.end(body);
    log.info(
      {
        request_id: requestId,
        method: request.method,
        url: redactUrl(request.url ?? '/'),
        status: 400,
        duration_ms: Number(elapsedMs().toFixed(2)),
        remote_address: request.socket.remoteAddress,
      },
      'request',
    );
  });
}

export async function listen(app: FastifyInstance, host: string, port: number, tls: boolean): Promise<Listener> {
  await app.ready();
  const target = app.server as http.Server;
  const refusal = plainHttpRefusal(app.log);
  // Node tracks an HTTP server's connections (for closeIdleConnections/closeAllConnections and the
  // header and request timeouts) from its 'listening' event; these two never listen themselves
  // (the socket below hands them connections), so start the tracking explicitly.
  for (const s of [target, refusal]) s.emit('listening');

  const server = net.createServer((socket) => {
    if (!tls) {
      target.emit('connection', socket);
      return;
    }
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
    socket.once('readable', function classify() {
      const first: Buffer | null = socket.read(1);
      if (first === null) {
        // Nothing yet (or the peer closed): wait for more unless the socket is done.
        if (!socket.destroyed && socket.readable) socket.once('readable', classify);
        return;
      }
      socket.setTimeout(0);
      socket.unshift(first);
      (first[0] === TLS_HANDSHAKE ? target : refusal).emit('connection', socket);
    });
    socket.on('error', () => socket.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as net.AddressInfo;
  return {
    address: { host, port: address.port },
    stopAccepting: () => new Promise((resolve) => server.close(() => resolve())),
    closeIdle: () => {
      target.closeIdleConnections();
      refusal.closeIdleConnections();
    },
    closeAll: () => {
      target.closeAllConnections();
      refusal.closeAllConnections();
    },
  };
}
