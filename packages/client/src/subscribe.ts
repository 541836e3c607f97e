// The real-time channel (wss://…/v1/ws, CONTRACT.md §9) with automatic resume: the subscription
// remembers the id of the last event it handed over and, after any drop (network, a restart of the
// service, 1013 for a slow reader), reconnects with back-off and subscribes again with `since`, so
// the service replays what was missed — no gap, and duplicates (overlapping patterns) are dropped.
import type { CmsEvent } from './events.js';

/** The standard WebSocket shape, as browsers, Node 22 and the `ws` package provide it. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface SubscribeOptions {
  /** Event names or patterns: `content.created`, `content.*`, `user.*`, `*`. */
  events: string[];
  /** Resume after this event id (`evt_…`); otherwise only events from now on. */
  since?: string;
  onEvent: (event: CmsEvent) => void;
  /**
   * Trouble that does not end the subscription (a dropped connection being retried, an `since` older
   * than the service keeps: then `code` is `cursor_expired` and the subscription goes on from now),
   * and, with `fatal: true`, what ends it (the key was revoked: close code 1008).
   */
  onError?: (error: SubscriptionError) => void;
  /** A WebSocket implementation; defaults to the global one, or the `ws` package on Node 20. */
  WebSocket?: WebSocketConstructor;
  /** Back-off between reconnections: from `minDelayMs` (500) doubling to `maxDelayMs` (30 000). */
  minDelayMs?: number;
  maxDelayMs?: number;
}

export class SubscriptionError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly fatal = false,
  ) {
    super(message);
    this.name = 'SubscriptionError';
  }
}

export interface Subscription {
  /** Resolves once every pattern is subscribed the first time. */
  readonly ready: Promise<void>;
  /** The id of the last event handed to onEvent: where a later subscription may resume. */
  readonly lastEventId: string | undefined;
  close(): void;
}

const OPEN = 1;
const POLICY_VIOLATION = 1008;
const REMEMBERED = 1000;

async function defaultWebSocket(): Promise<WebSocketConstructor> {
  const native = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (native) return native;
  const module = (await import('ws')) as unknown as { default: WebSocketConstructor };
  return module.default;
}

export function subscribe(baseUrl: string, token: string, options: SubscribeOptions): Subscription {
  const url = new URL('/v1/ws', baseUrl);
  url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:';
  url.searchParams.set('token', token);
  const minDelay = options.minDelayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 30_000;
  let last = options.since;
  let socket: WebSocketLike | undefined;
  let closed = false;
  let delay = minDelay;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const seen = new Set<string>();
  let markReady!: () => void;
  let failReady!: (error: Error) => void;
  const ready = new Promise<void>((resolve, reject) => ((markReady = resolve), (failReady = reject)));
  ready.catch(() => {});

  const report = (error: SubscriptionError) => {
    if (error.fatal) failReady(error);
    options.onError?.(error);
  };

  const connect = async () => {
    if (closed) return;
    const Socket = options.WebSocket ?? (await defaultWebSocket());
    const ws = new Socket(url.toString());
    socket = ws;
    let pending = new Set(options.events);
    ws.onopen = () => {
      for (const event of options.events) ws.send(JSON.stringify({ type: 'subscribe', event, ...(last ? { since: last } : {}) }));
    };
    ws.onmessage = (message) => {
      let parsed: { type?: string; event?: string; id?: string; code?: string; message?: string };
      try {
        parsed = JSON.parse(String(message.data)) as typeof parsed;
      } catch {
        return;
      }
      if (parsed.type === 'subscribed') {
        pending.delete(parsed.event ?? '');
        if (pending.size === 0) {
          delay = minDelay;
          markReady();
        }
      } else if (parsed.type === 'error') {
        if (parsed.code === 'cursor_expired') {
          // What was missed is gone from the log: say so, and go on from now.
          report(new SubscriptionError(parsed.message ?? 'The resume point is older than the event log keeps.', 'cursor_expired'));
          last = undefined;
          pending = new Set(options.events);
          for (const event of options.events) ws.send(JSON.stringify({ type: 'subscribe', event }));
        } else {
          report(new SubscriptionError(parsed.message ?? 'The service refused a message.', parsed.code ?? 'error'));
        }
      } else if (typeof parsed.id === 'string' && parsed.type !== 'pong') {
        if (seen.has(parsed.id)) return;
        seen.add(parsed.id);
        if (seen.size > REMEMBERED) seen.delete(seen.values().next().value!);
        last = parsed.id;
        options.onEvent(parsed as CmsEvent);
      }
    };
    ws.onerror = () => {};
    ws.onclose = (event) => {
      if (socket === ws) socket = undefined;
      if (closed) return;
      if (event.code === POLICY_VIOLATION) {
        closed = true;
        report(new SubscriptionError(event.reason || 'The credential was revoked or lost its access.', 'unauthorized', true));
        return;
      }
      report(new SubscriptionError(`The connection closed (${event.code}); reconnecting.`, 'disconnected'));
      timer = setTimeout(() => void connect().catch((e: unknown) => report(new SubscriptionError(String(e), 'disconnected'))), delay);
      delay = Math.min(maxDelay, delay * 2);
    };
  };
  void connect().catch((error: unknown) => report(new SubscriptionError(String(error), 'unavailable', true)));

  return {
    ready,
    get lastEventId() {
      return last;
    },
    close() {
      closed = true;
      clearTimeout(timer);
      if (socket && socket.readyState <= OPEN) socket.close(1000, 'closed by the client');
    },
  };
}
