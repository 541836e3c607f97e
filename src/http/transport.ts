// The listening socket. With TLS on, one port speaks HTTPS, and a plain-HTTP request that reaches
// it is told so in plain HTTP (400 https_required) without its headers being read: the first byte
// of a connection decides (a TLS handshake starts with 0x16). With TLS off (behind a proxy), the
// socket speaks HTTP and the app checks X-Forwarded-Proto.
import http from 'node:http';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { newId } from '../domain/ids.js';

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

function plainHttpRefusal(): http.Server {
  return http.createServer((_request, response) => {
    const started = process.hrtime.bigint();
    const body = JSON.stringify({
      message: 'This service accepts HTTPS only; send the request to https:// instead.',
      code: 'https_required',
      meta: { request_id: newId('req'), response_time: `${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(2)}ms` },
    });
    response.writeHead(400, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    response.end(body);
  });
}

export async function listen(app: FastifyInstance, host: string, port: number, tls: boolean): Promise<Listener> {
  await app.ready();
  const target = app.server as http.Server;
  const refusal = plainHttpRefusal();

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
