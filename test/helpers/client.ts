// A small HTTPS client for tests: verifies the server's certificate against the one it generated,
// keeps connections alive, and returns status, headers and the parsed JSON body. An http:// base
// URL (TLS=off behind a proxy, or plain HTTP sent to the HTTPS port) uses plain HTTP instead.
import http from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // Tests read arbitrary JSON; `any` keeps assertions short.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface RequestOptions {
  key?: string;
  /** Sent as JSON with Content-Type: application/json. */
  json?: unknown;
  /** Sent as is, with whatever headers are given. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export class Client {
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;

  constructor(
    readonly baseUrl: string,
    ca?: string,
  ) {
    const plain = new URL(baseUrl).protocol === 'http:';
    this.transport = plain ? http : https;
    // An idle kept-alive socket is closed after 4 s, before the server closes it (5 s with TLS):
    // a POST written on a socket the server is closing just then resets and cannot be sent again
    // (a free socket that times out is destroyed by the agent; a request in progress is not cut).
    const options = { keepAlive: true, maxSockets: 64, timeout: 4000 };
    this.agent = plain ? new http.Agent(options) : new https.Agent({ ca, ...options });
  }

  request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
    let payload: string | Buffer | undefined = options.raw;
    if (options.json !== undefined) {
      payload = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
    return this.send(method, path, headers, payload, method === 'GET' || method === 'HEAD');
  }

  // A kept-alive socket the server closes for idleness (5 s with TLS) just as a request is written
  // on it resets. A GET or HEAD that meets that is sent once more on a new socket, as Node's
  // documentation advises (`request.reusedSocket`) and as undici does for safe methods; any other
  // request fails as it did (the server may have applied it before the connection broke).
  private send(method: string, path: string, headers: Record<string, string>, payload: string | Buffer | undefined, retry: boolean): Promise<Response> {
    return new Promise((resolve, reject) => {
      const req = this.transport.request(new URL(path, this.baseUrl), { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (retry && req.reusedSocket && err.code === 'ECONNRESET') resolve(this.send(method, path, headers, payload, false));
        else reject(err);
      });
      req.end(payload);
    });
  }

  get = (path: string, options?: RequestOptions) => this.request('GET', path, options);
  post = (path: string, options?: RequestOptions) => this.request('POST', path, options);
  put = (path: string, options?: RequestOptions) => this.request('PUT', path, options);
  delete = (path: string, options?: RequestOptions) => this.request('DELETE', path, options);

  close(): void {
    this.agent.destroy();
  }
}

/** Polls `probe` every 50 ms until it answers `status`; returns the milliseconds that took, or throws after `timeoutMs`. */
export async function untilStatus(probe: () => Promise<Response>, status: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const res = await probe();
    if (res.status === status) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`still ${res.status} after ${timeoutMs} ms, expected ${status}`);
    await sleep(50);
  }
}
