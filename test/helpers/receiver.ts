// A real webhook receiver for tests: plain HTTP on 127.0.0.1 (the server under test runs with
// WEBHOOK_ALLOW_PRIVATE=true), recording every request with its raw body and answering as the
// test decides, including never (a held request) until the test lets go.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Received {
  path: string;
  headers: Record<string, string>;
  /** The raw body, exactly as sent (signatures are over these bytes). */
  body: string;
  // Tests read arbitrary JSON; `any` keeps assertions short.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  /** Date.now() when the request had arrived in full. */
  at: number;
}

/** How to answer one request; `hold: true` leaves it unanswered until `release()` or close. */
export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  hold?: boolean;
}

export type Responder = (request: Received, index: number) => Answer;

export class Receiver {
  readonly received: Received[] = [];
  /** TCP connections accepted so far (a refused target never gets as far as one). */
  connections = 0;
  respond: Responder = () => ({ status: 200 });
  private readonly server = http.createServer((req, res) => this.handle(req, res));
  private readonly sockets = new Set<Socket>();
  private readonly held: http.ServerResponse[] = [];
  port = 0;

  /** Listens on `host` (127.0.0.1) and `port` (any free one). */
  static async start(respond?: Responder, host = '127.0.0.1', port = 0): Promise<Receiver> {
    const receiver = new Receiver();
    if (respond) receiver.respond = respond;
    receiver.server.on('connection', (socket) => {
      receiver.connections++;
      receiver.sockets.add(socket);
      socket.once('close', () => receiver.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => receiver.server.listen(port, host, resolve));
    receiver.port = (receiver.server.address() as AddressInfo).port;
    return receiver;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests received on `path`. */
  on(path = '/hook'): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Waits until `predicate` holds over the requests received so far; returns them. */
  async waitFor(predicate: (received: Received[]) => boolean, timeoutMs = 10_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.received)) {
      if (Date.now() > deadline) throw new Error(`receiver: condition not met within ${timeoutMs} ms; got ${this.received.length} request(s)`);
      await sleep(20);
    }
    return this.received;
  }

  /** Answers every held request with `status`. */
  release(status = 200): void {
    for (const res of this.held.splice(0)) if (!res.writableEnded) res.writeHead(status).end();
  }

  async close(): Promise<void> {
    this.release(503);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : (value ?? '');
      const request: Received = { path: req.url ?? '/', headers, body, json, at: Date.now() };
      this.received.push(request);
      const answer = this.respond(request, this.received.length - 1);
      if (answer.hold) {
        this.held.push(res);
        return;
      }
      res.writeHead(answer.status ?? 200, answer.headers ?? {}).end(answer.body ?? '');
    });
  }
}
