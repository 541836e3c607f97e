// The subscriber side of bench/realtime.ts: WebSocket clients that subscribe to content.created and
// note, for each event, its id and its delivery latency (commit → receipt). They run in the bench's
// own process or, with --client-processes N, in N child processes (this file run with `--child`,
// driven over IPC) so that the 1,000 clients' decryption and parsing is not one core's queue.
import http from 'node:http';
import { createHash } from 'node:crypto';
import WebSocket from 'ws';

export interface Subscriber {
  socket: WebSocket;
  ids: string[];
  latencies: number[];
}

/** What a group of subscribers saw, small enough to send over IPC. */
export interface Seen {
  subscribers: number;
  /** Events missing (each subscriber should have `total`). */
  lost: number;
  /** A digest of each subscriber's sequence of ids: one value when all saw the same order. */
  orders: Record<string, number>;
  duplicated: number;
  latencies: number[];
}

/** Behind a proxy the service wants to be told the client spoke https. */
export const PROXIED = { 'x-forwarded-proto': 'https' };

export function subscribe(url: string, ca: string | undefined): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, ca ? { ca } : { headers: PROXIED });
    const sub: Subscriber = { socket, ids: [], latencies: [] };
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify({ type: 'subscribe', event: 'content.created' })));
    socket.on('message', (data) => {
      const received = Date.now();
      const text = data.toString();
      // Events lead with "id" and "type", then "created_at": read them without parsing the item.
      if (text.startsWith('{"id":"evt_')) {
        sub.ids.push(text.slice(7, 37));
        const at = text.indexOf('"created_at":"');
        sub.latencies.push(received - Date.parse(text.slice(at + 14, at + 38)));
      } else if ((JSON.parse(text) as { type: string }).type === 'subscribed') resolve(sub);
    });
  });
}

/** Opens `count` subscribers, 50 at a time. */
export async function subscribeMany(url: string, ca: string | undefined, count: number): Promise<Subscriber[]> {
  const subscribers: Subscriber[] = [];
  for (let i = 0; i < count; i += 50) {
    subscribers.push(...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => subscribe(url, ca)))));
  }
  return subscribers;
}

/** Waits (up to `ms`) for every subscriber to have `total` events, then sums up what they saw. */
export async function collect(subscribers: Subscriber[], total: number, ms: number): Promise<Seen> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && subscribers.some((s) => s.ids.length < total)) await new Promise((r) => setTimeout(r, 50));
  const orders: Record<string, number> = {};
  for (const s of subscribers) {
    const digest = createHash('sha1').update(s.ids.join()).digest('hex');
    orders[digest] = (orders[digest] ?? 0) + 1;
  }
  return {
    subscribers: subscribers.length,
    lost: subscribers.reduce((n, s) => n + Math.max(0, total - s.ids.length), 0),
    orders,
    duplicated: subscribers.filter((s) => new Set(s.ids).size !== s.ids.length).length,
    latencies: subscribers.flatMap((s) => s.latencies),
  };
}

type Command = { do: 'connect'; url: string; ca?: string; count: number } | { do: 'collect'; total: number; ms: number } | { do: 'exit' };

// A child process: connect, report what was seen, then close its sockets and exit, each on command.
if (process.argv.includes('--child') && process.send) {
  const subscribers: Subscriber[] = [];
  const send = (message: unknown) => process.send!(message);
  process.on('message', (command: Command) => {
    if (command.do === 'connect') {
      subscribeMany(command.url, command.ca, command.count).then(
        (subs) => {
          subscribers.push(...subs);
          send({ connected: subs.length });
        },
        (error: unknown) => send({ error: String(error) }),
      );
    } else if (command.do === 'collect') {
      void collect(subscribers, command.total, command.ms).then((seen) => send({ seen }));
    } else {
      for (const s of subscribers) s.socket.terminate();
      process.disconnect();
    }
  });
}

/** Waits until a server behind a TLS-terminating proxy (TLS=off) answers `url` with 200. */
export async function waitForPlainHttp(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      http.get(url, { headers: PROXIED }, (res) => resolve(res.statusCode === 200)).on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}
