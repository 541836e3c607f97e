// One writer on SQLite with WORKERS > 1 (issue 22, docs/cluster.md "One writer"): a worker that is
// not the writer hands every request that may write (any method but GET, HEAD and OPTIONS) to the
// writer worker over a local socket, before any of its own hooks run, and relays the answer as it
// comes. The writer runs it through its own pipeline as if the client had sent it there — the
// client's address rides along in a header only the local socket accepts, so rate limits and logs
// see the client — and so every write transaction of the service runs in one process, where group
// commit batches them all into one fsync and no lock is ever contended between workers. Reads stay
// on the worker the connection landed on.
import fs from 'node:fs';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The client's address, set by the forwarding worker; the writer's local socket alone honours it. */
const CLIENT_ADDRESS = 'x-cms-client-address';
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Hop-by-hop headers (RFC 9110 §7.6.1): each connection's own, never relayed. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer'];

const UNAVAILABLE = JSON.stringify({ message: 'The service is temporarily unavailable; try again shortly.', code: 'unavailable' });

/** Installs the hand-over on a worker that is not the writer; call before any other hook is added. */
export function forwardWrites(app: FastifyInstance, socketPath: string): void {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  app.addHook('onRequest', (request, reply, done) => {
    if (READS.has(request.method)) return done();
    reply.hijack();
    const req = request.raw;
    const res = reply.raw;
    const headers: http.OutgoingHttpHeaders = { ...req.headers, [CLIENT_ADDRESS]: req.socket.remoteAddress ?? '' };
    for (const name of HOP_BY_HOP) delete headers[name];
    if (req.headers['transfer-encoding'] !== undefined) delete headers['content-length'];
    const upstream = http.request({ socketPath, agent, method: req.method, path: req.url, headers }, (answer) => {
      const relayed: http.OutgoingHttpHeaders = { ...answer.headers };
      for (const name of HOP_BY_HOP) delete relayed[name];
      res.writeHead(answer.statusCode ?? 502, relayed);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', () => {
      // The writer is gone (restarting): a status while nothing was sent, a reset otherwise — never silence.
      if (!res.headersSent) {
        res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1', 'content-length': Buffer.byteLength(UNAVAILABLE) });
        res.end(UNAVAILABLE);
      } else res.destroy();
    });
    // The client gone before the answer: the writer's exchange ends too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
}

/**
 * The writer's local socket: requests handed over by the other workers go into `app`'s own request
 * handler, with the client's address (and, behind TLS, `encrypted`) as the client's connection had
 * them. Only this host's processes can reach the socket (a file, mode 0600).
 */
export async function listenForWrites(app: FastifyInstance, socketPath: string, tls: boolean): Promise<http.Server> {
  const handler = app.server.listeners('request')[0] as (req: http.IncomingMessage, res: http.ServerResponse) => void;
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const address = req.headers[CLIENT_ADDRESS];
    delete req.headers[CLIENT_ADDRESS];
    // Requests on one kept-alive connection come one after another: the address is this request's.
    Object.defineProperty(req.socket, 'remoteAddress', { value: typeof address === 'string' && address !== '' ? address : '127.0.0.1', configurable: true });
    if (tls) Object.defineProperty(req.socket, 'encrypted', { value: true, configurable: true });
    handler(req, res);
  });
  fs.rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o600);
  return server;
}
