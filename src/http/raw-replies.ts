// Answers written outside Fastify's request pipeline, still in the contract's shape — an error body
// with meta and a request id, one log line, `Connection: close` — for what never becomes a request
// of the API: plain HTTP on the HTTPS port, bytes Node's HTTP parser rejects (a bad method or
// Transfer-Encoding, a duplicate Content-Length, a control character in a header, headers over
// 16 KiB, a request that does not arrive in time), a URL Fastify cannot decode, and CONNECT. Nothing
// of such a request is trusted or counted: no rate-limit headers, its Authorization never read,
// and its path never echoed (it may be anything).
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { newId } from '../domain/ids.js';

export interface RawError {
  status: number;
  code: string;
  message: string;
}

/** How long a connection answered here may go on sending (the rest of an oversized header, say) before it is dropped. */
const LINGER_MS = 1000;

export const HTTPS_REQUIRED: RawError = { status: 400, code: 'https_required', message: 'This service accepts HTTPS only; send the request to https:// instead.' };
const BAD_REQUEST: RawError = { status: 400, code: 'bad_request', message: 'The request is not valid HTTP/1.1.' };
const BAD_URL: RawError = { status: 400, code: 'bad_request', message: 'The URL is not valid: percent-encoding must encode UTF-8.' };
const NO_CONNECT: RawError = { status: 400, code: 'bad_request', message: 'CONNECT is not supported: this service is not a proxy.' };

/** Node's parser errors (https://github.com/nodejs/llhttp) that have an answer of their own. */
const PARSER_ERRORS: Record<string, RawError> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', message: 'The request did not arrive in time.' },
  HPE_HEADER_OVERFLOW: { status: 431, code: 'headers_too_large', message: 'The request line and headers are larger than 16 KiB.' },
};

/** The status line, headers and body of an error answer, as bytes to write on a socket or pieces for a ServerResponse. */
export function rawAnswer(error: RawError, tls: boolean, started = process.hrtime.bigint(), requestId = newId('req')) {
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  const body = JSON.stringify({
    message: error.message,
    code: error.code,
    meta: { request_id: requestId, response_time: `${elapsedMs.toFixed(2)}ms` },
  });
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': requestId,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...(tls ? { 'Strict-Transport-Security': STRICT_TRANSPORT_SECURITY } : {}),
    Connection: 'close',
  };
  const bytes = `HTTP/1.1 ${error.status} ${STATUS_TEXT[error.status] ?? 'Error'}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n${body}`;
  return { requestId, headers, body, bytes, durationMs: Number(elapsedMs.toFixed(2)) };
}

/** HSTS: browsers use https only for a year, subdomains included (sent only when this service terminates TLS). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** Stops writing, lets the peer finish sending (its bytes are read and dropped), then drops the connection. */
export function endGracefully(socket: Duplex): void {
  socket.end();
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * Fastify's clientErrorHandler: the envelope for what Node's parser rejects, or a plain close when
 * nothing may be written (the peer reset, or an answer to an earlier pipelined request is being sent).
 */
export function answerClientError(tls: boolean) {
  // The parser reports again for every later chunk of a connection it has given up on.
  const answered = new WeakSet<Duplex>();
  // Fastify calls it with itself as `this`; the plain-HTTP refusal's server, with a logger bound.
  return function (this: { log: FastifyBaseLogger }, error: NodeJS.ErrnoException, socket: Duplex): void {
    if (answered.has(socket)) return;
    answered.add(socket);
    const inProgress = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inProgress?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = PARSER_ERRORS[error.code ?? ''] ?? BAD_REQUEST;
    const { requestId, bytes, durationMs } = rawAnswer(answer, tls);
    socket.write(bytes);
    endGracefully(socket);
    const remote = (socket as Duplex & { remoteAddress?: string }).remoteAddress;
    this.log.info({ request_id: requestId, status: answer.status, duration_ms: durationMs, remote_address: remote, reason: error.code }, 'request');
  };
}

/** Fastify's frameworkErrors: a URL whose parameters cannot be decoded (FST_ERR_BAD_URL) and the like. */
export function answerFrameworkError(tls: boolean) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const { headers, body, durationMs } = rawAnswer(BAD_URL, tls, undefined, request.id);
    reply.hijack();
    reply.raw.writeHead(BAD_URL.status, headers).end(body);
    request.log.info({ method: request.method, status: BAD_URL.status, duration_ms: durationMs, remote_address: request.raw.socket?.remoteAddress, reason: error.code }, 'request');
  };
}

/** The server's 'connect' listener: CONNECT is answered, not left to Node (which drops the connection unanswered). */
export function answerConnect(log: FastifyBaseLogger, tls: boolean) {
  return (_request: unknown, socket: Duplex): void => {
    const { requestId, bytes, durationMs } = rawAnswer(NO_CONNECT, tls);
    socket.write(bytes);
    endGracefully(socket);
    log.info({ request_id: requestId, method: 'CONNECT', status: NO_CONNECT.status, duration_ms: durationMs }, 'request');
  };
}
