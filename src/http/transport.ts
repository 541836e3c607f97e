// The listening socket. With TLS on, one port speaks HTTPS, and a plain-HTTP request that reaches
// it is told so in plain HTTP (400 https_required) without its headers being read: the first byte
// of a connection decides (a TLS handshake starts with 0x16). With TLS off (behind a proxy), the
// socket speaks HTTP and the app checks X-Forwarded-Proto. Each client address may hold a limited
// number of connections, and one that sends nothing is dropped (docs/reliability.md, D4).
import http from 'node:http';
import net, { BlockList, isIP } from 'node:net';
import type { Config } from '../config.js';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { addressBucket } from '../domain/limits/rate-limiter.js';
import { answerClientError, answerConnect, HTTPS_REQUIRED, rawAnswer } from './raw-replies.js';
import { redactUrl } from './edge.js';

const TLS_HANDSHAKE = 0x16;
/** How often Node looks for connections past their header or request deadline (its default is 30 s). */
const CHECK_TIMEOUTS_EVERY_MS = 1000;
/** TLS 1.2 suites: forward secrecy (ECDHE) and authenticated encryption (GCM, ChaCha20-Poly1305) only; TLS 1.3's are all AEAD. */
const TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

/**
 * What Fastify passes on to Node's server (`{https}` or `{http}`): deadlines for slow clients — the
 * TLS handshake and each request's headers get HEADERS_TIMEOUT_SECONDS — and, with TLS, the
 * certificate, TLS 1.2 at least and AEAD suites only.
 */
export function nodeServerOptions(config: Config, https?: { cert: string; key: string }): object {
  const headersTimeout = config.connections.headersTimeoutSeconds * 1000;
  const deadlines = { headersTimeout, connectionsCheckingInterval: CHECK_TIMEOUTS_EVERY_MS };
  if (!https) return { http: deadlines };
  return { https: { ...https, ...deadlines, handshakeTimeout: headersTimeout, minVersion: 'TLSv1.2', ciphers: TLS12_CIPHERS, honorCipherOrder: true } };
}

export interface ListenOptions {
  host: string;
  port: number;
  tls: boolean;
  /** A connection that sends nothing for this long is dropped before it is classified; a plain-HTTP request's headers get as long. */
  headersTimeoutMs: number;
  /** Connections one address (an IPv6 /64) may hold; 0 for no cap. */
  maxPerAddress: number;
  /** Addresses the cap does not apply to (trusted proxies). */
  exempt: (address: string) => boolean;
  /** Counted here, read by /metrics. */
  counts: ConnectionCounts;
}

export class ConnectionCounts {
  open = 0;
  /** Closed at once because their address already held its share. */
  refused = 0;
}

export interface Listener {
  address: { host: string; port: number };
  /** Stops accepting new connections. */
  stopAccepting(): Promise<void>;
  /** Closes connections with no request in flight (keep-alive ones). */
  closeIdle(): void;
  /** Closes every remaining connection. */
  closeAll(): void;
  /** Resolves once no connection is open, or after `ms`. */
  allClosed(ms: number): Promise<void>;
}

/** Whether an address is one of TRUST_PROXY's (with TLS off): a proxy carries many clients' connections. */
export function trustedProxy(config: Config): (address: string) => boolean {
  if (config.tls.mode === 'on') return () => false;
  const list = new BlockList();
  for (const entry of config.tls.trustProxy) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    return v4 !== undefined ? list.check(v4, 'ipv4') : list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  };
}

/** Answers in plain HTTP and logs the request line only: the headers (Authorization) are never used. */
function plainHttpRefusal(log: FastifyBaseLogger, headersTimeoutMs: number): http.Server {
  return http.createServer({ headersTimeout: headersTimeoutMs, requestTimeout: headersTimeoutMs, connectionsCheckingInterval: CHECK_TIMEOUTS_EVERY_MS }, (request, response) => {
    const started = process.hrtime.bigint();
    // Never HSTS: a browser ignores it over plain HTTP, and it is not this answer's to give.
    const { requestId, headers, body, durationMs } = rawAnswer(HTTPS_REQUIRED, false, started);
    response.writeHead(HTTPS_REQUIRED.status, headers).end(body);
    log.info(
      {
        request_id: requestId,
        method: request.method,
        url: redactUrl(request.url ?? '/'),
        status: HTTPS_REQUIRED.status,
        duration_ms: durationMs,
        remote_address: request.socket.remoteAddress,
      },
      'request',
    );
  });
}

export async function listen(app: FastifyInstance, options: ListenOptions): Promise<Listener> {
  const { host, port, tls, counts } = options;
  await app.ready();
  const target = app.server as http.Server;
  const refusal = plainHttpRefusal(app.log, options.headersTimeoutMs);
  refusal.on('clientError', answerClientError(false).bind({ log: app.log }));
  refusal.on('connect', answerConnect(app.log, false));
  // Node tracks an HTTP server's connections (for closeIdleConnections/closeAllConnections and the
  // header and request timeouts) from its 'listening' event; these two never listen themselves
  // (the socket below hands them connections), so start the tracking explicitly.
  for (const s of [target, refusal]) s.emit('listening');

  const perAddress = new Map<string, number>();
  let drained: (() => void) | undefined;
  /** Counts the connection in under its address; false when the address already holds its share. */
  function admit(socket: net.Socket): boolean {
    const address = socket.remoteAddress;
    if (address === undefined) return false;
    const bucket = options.maxPerAddress > 0 && !options.exempt(address) ? addressBucket(address) : undefined;
    const held = bucket === undefined ? 0 : (perAddress.get(bucket) ?? 0);
    if (bucket !== undefined && held >= options.maxPerAddress) {
      counts.refused++;
      return false;
    }
    if (bucket !== undefined) perAddress.set(bucket, held + 1);
    counts.open++;
    socket.once('close', () => {
      counts.open--;
      if (bucket !== undefined) {
        const left = (perAddress.get(bucket) ?? 1) - 1;
        if (left > 0) perAddress.set(bucket, left);
        else perAddress.delete(bucket);
      }
      if (counts.open === 0) drained?.();
    });
    return true;
  }

  const server = net.createServer((socket) => {
    socket.on('error', () => socket.destroy());
    if (!admit(socket)) {
      // Nothing can be said before TLS, and a TLS answer would cost the very resources being rationed.
      socket.destroy();
      return;
    }
    if (!tls) {
      target.emit('connection', socket);
      return;
    }
    socket.setTimeout(options.headersTimeoutMs, () => socket.destroy());
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
    allClosed: (ms) =>
      new Promise((resolve) => {
        if (counts.open === 0) return resolve();
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          drained = undefined;
          resolve();
        }
        drained = done;
      }),
  };
}
