// A WebSocket test client for /v1/ws (the `ws` package, verifying the server's certificate):
// collects every message, waits for the next one that matches, and reports how the socket closed.
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import type { TestServer } from './server.js';

// Tests read arbitrary JSON; `any` keeps assertions short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Message = any;

export interface Closed {
  code: number;
  reason: string;
}

export interface OpenOptions {
  /** Where the key goes: `?token=` (default) or the Authorization header. */
  via?: 'query' | 'header';
  /** Answer pings (default true); false plays a dead client. */
  autoPong?: boolean;
}

function target(server: { port: number; dataDir: string }, key: string | undefined, via: 'query' | 'header') {
  const ca = fs.readFileSync(path.join(server.dataDir, 'tls-cert.pem'), 'utf8');
  const query = key !== undefined && via === 'query' ? `?token=${encodeURIComponent(key)}` : '';
  const headers: Record<string, string> = key !== undefined && via === 'header' ? { authorization: `Bearer ${key}` } : {};
  return { url: `wss://127.0.0.1:${server.port}/v1/ws${query}`, options: { ca, headers } };
}

export class WsClient {
  readonly messages: Message[] = [];
  readonly closed: Promise<Closed>;
  private cursor = 0;
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    socket.on('error', () => {});
  }

  static open(server: { port: number; dataDir: string }, key: string, options: OpenOptions = {}): Promise<WsClient> {
    const { url, options: wsOptions } = target(server, key, options.via ?? 'query');
    const socket = new WebSocket(url, { ...wsOptions, autoPong: options.autoPong ?? true });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new WsClient(socket)));
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The next message not yet taken that satisfies `accept` (messages before it are skipped). */
  async next(accept: (m: Message) => boolean = () => true, timeoutMs = 5000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.cursor < this.messages.length) {
        const message = this.messages[this.cursor++];
        if (accept(message)) return message;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(-5))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends subscribe and waits for its acknowledgement (or error). */
  async subscribe(event: string, since?: string): Promise<Message> {
    this.send({ type: 'subscribe', event, ...(since ? { since } : {}) });
    return this.next((m) => m.type === 'subscribed' || m.type === 'error');
  }

  /** Event messages received so far (not acknowledgements or errors). */
  events(): Message[] {
    return this.messages.filter((m) => typeof m.id === 'string' && m.id.startsWith('evt_'));
  }

  /** Waits until `count` event messages have arrived in all. */
  async eventCount(count: number, timeoutMs = 5000): Promise<Message[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events().length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} events, got ${this.events().length}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.events();
  }

  close(): Promise<Closed> {
    this.socket.close();
    return this.closed;
  }
}

export interface Refusal {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Message;
}

/** Attempts an upgrade that the server is expected to refuse; returns its HTTP response. */
export function refusedUpgrade(server: TestServer, key: string | undefined, via: 'query' | 'header' = 'query'): Promise<Refusal> {
  const { url, options } = target(server, key, via);
  const socket = new WebSocket(url, options);
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    socket.once('error', () => {});
    socket.once('unexpected-response', (request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => request.destroy());
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text ? JSON.parse(text) : undefined }));
    });
  });
}
