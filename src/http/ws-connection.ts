// One WebSocket connection of the real-time channel: its subscriptions, its place in the account's
// event sequence, replay from a cursor, and backpressure. Messages from the client are handled one
// at a time, in order, so a subscribe that replays finishes before the next message is looked at.
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { DomainError } from '../domain/errors.js';
import { present, visibleTypes, type EventFeed } from '../domain/event-feed.js';
import type { EventStream } from '../domain/event-stream.js';
import { EVENT_TYPES, type StoredEvent } from '../domain/events.js';
import type { Principal } from '../domain/permissions.js';

/** A client whose unsent data passes this is too far behind: closed with 1013, it can resume. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
const REPLAY_PAGE = 500;
const PATTERNS = new Set<string>([...EVENT_TYPES, 'content.*', 'user.*', '*']);

/** The message of an event as UTF-8 bytes, made once however many connections receive it. */
const serialised = new WeakMap<StoredEvent, Buffer>();
function messageOf(event: StoredEvent): Buffer {
  let message = serialised.get(event);
  if (message === undefined) {
    message = Buffer.from(JSON.stringify(present(event)));
    serialised.set(event, message);
  }
  return message;
}

function matches(pattern: string, type: string): boolean {
  return pattern === '*' || pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1)));
}

type ClientMessage = { type: 'subscribe' | 'unsubscribe'; event: string; since?: string } | { type: 'ping' };

export class Connection {
  private readonly patterns = new Set<string>();
  private visible: Set<string>;
  /** The last event number this connection has considered; undefined until it first subscribes. */
  private cursor: number | undefined;
  private attached = false;
  /** Live events that arrive while a replay runs wait here, then follow it. */
  private held: StoredEvent[] | undefined;
  private queue: Promise<void> = Promise.resolve();
  private alive = true;
  private readonly onEvent = (events: StoredEvent[]) => (this.held ? this.held.push(...events) : this.batch(() => events.forEach((e) => this.consider(e))));

  constructor(
    private readonly socket: WebSocket,
    private principal: Principal,
    readonly token: string,
    private readonly feed: EventFeed,
    private readonly stream: EventStream,
    private readonly log: FastifyBaseLogger,
  ) {
    this.visible = new Set(visibleTypes(principal));
    socket.on('pong', () => (this.alive = true));
    socket.on('message', (data, isBinary) => {
      const text = isBinary ? undefined : data.toString();
      this.queue = this.queue.then(() => this.handle(text)).catch((error: unknown) => {
        this.log.error({ err: error }, 'websocket message failed');
        this.close(1011, 'internal error');
      });
    });
  }

  /** Pings; a connection that did not answer the previous ping is dead and is dropped. */
  heartbeat(): void {
    if (!this.alive) return void this.socket.terminate();
    this.alive = false;
    this.socket.ping();
  }

  /** The key's role or scopes may have changed: from now on, send only what it may still see. */
  updatePrincipal(principal: Principal): void {
    this.principal = principal;
    this.visible = new Set(visibleTypes(principal));
  }

  close(code: number, reason: string): void {
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) this.socket.close(code, reason);
  }

  detach(): void {
    if (this.attached) this.stream.detach(this.principal.accountId, this.onEvent);
    this.attached = false;
  }

  private async handle(text: string | undefined): Promise<void> {
    const message = parse(text);
    if (typeof message === 'string') return this.error('invalid_message', message);
    if (message.type === 'ping') return this.send({ type: 'pong' });
    if (!PATTERNS.has(message.event)) {
      return this.error('unknown_event', `Unknown event "${message.event}"; use an event name, content.*, user.* or *.`);
    }
    if (message.event !== '*' && ![...this.visible].some((type) => matches(message.event, type))) {
      return this.error('unknown_event', `This key may not see ${message.event} events (it lacks the scope to read them).`);
    }
    if (message.type === 'unsubscribe') {
      this.patterns.delete(message.event);
      return this.send({ type: 'unsubscribed', event: message.event });
    }
    await this.subscribe(message.event, message.since);
  }

  private async subscribe(pattern: string, since: string | undefined): Promise<void> {
    let sinceSeq: number | undefined;
    if (since !== undefined) {
      try {
        sinceSeq = await this.feed.position(this.principal.accountId, since);
      } catch (error) {
        if (error instanceof DomainError) return this.error(error.code, error.message);
        throw error;
      }
    }
    const before = [...this.patterns];
    this.patterns.add(pattern);
    this.send({ type: 'subscribed', event: pattern });
    this.held = [];
    try {
      if (!this.attached) {
        this.attached = true;
        this.cursor = await this.stream.attach(this.principal.accountId, this.onEvent);
      }
      // Events up to the cursor that this subscription adds (and earlier ones did not cover).
      if (sinceSeq !== undefined && sinceSeq < this.cursor!) {
        await this.replay(sinceSeq, this.cursor!, (type) => matches(pattern, type) && !before.some((p) => matches(p, type)));
      }
    } finally {
      const held = this.held;
      this.held = undefined;
      this.batch(() => held.forEach((e) => this.consider(e)));
    }
  }

  private async replay(after: number, upTo: number, wanted: (type: string) => boolean): Promise<void> {
    const types = [...this.visible].filter(wanted);
    for (let from = after; from < upTo; ) {
      const events = await this.feed.read(this.principal.accountId, from, REPLAY_PAGE, types);
      this.batch(() => events.forEach((e) => e.seq <= upTo && this.deliver(e)));
      if (events.length < REPLAY_PAGE) break;
      from = events.at(-1)!.seq;
    }
  }

  /** A live event: sent once, in order, if a subscription matches and the key may see it. */
  private consider(event: StoredEvent): void {
    if (this.cursor === undefined || event.seq <= this.cursor) return;
    this.cursor = event.seq;
    if (this.visible.has(event.type) && this.wants(event.type)) this.deliver(event);
  }

  /** Whether a subscription matches (runs once per event per connection: no allocation). */
  private wants(type: string): boolean {
    for (const pattern of this.patterns) if (matches(pattern, type)) return true;
    return false;
  }

  /**
   * Sends what `send` sends in one write: frames queue in the corked socket and leave together,
   * one TLS record and one system call instead of one per event. (`_socket` is ws's own socket.)
   */
  private batch(send: () => void): void {
    const raw = (this.socket as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
    raw?.cork();
    try {
      send();
    } finally {
      raw?.uncork();
    }
  }

  private deliver(event: StoredEvent): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(messageOf(event), { binary: false });
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) this.close(1013, 'client too slow; resume with since');
  }

  private error(code: string, message: string): void {
    this.send({ type: 'error', code, message });
  }

  private send(message: object): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }
}

/** The client's message, or why it is not one. */
function parse(text: string | undefined): ClientMessage | string {
  if (text === undefined) return 'Messages must be JSON text, not binary.';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'The message is not valid JSON.';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'The message must be a JSON object.';
  const { type, event, since } = value as Record<string, unknown>;
  if (type === 'ping') return { type };
  if (type !== 'subscribe' && type !== 'unsubscribe') return 'type must be subscribe, unsubscribe or ping.';
  if (typeof event !== 'string') return 'event must be a string naming an event, content.*, user.* or *.';
  if (since !== undefined && (type !== 'subscribe' || typeof since !== 'string' || !/^evt_[0-9a-z]{26}$/.test(since))) {
    return 'since must be an event id (evt_…) and is allowed only on subscribe.';
  }
  return { type, event, since: since as string | undefined };
}
