// One WebSocket connection of the real-time channel: its subscriptions, its place in the account's
// event sequence, replay from a cursor, and backpressure. Messages from the client are handled one
// at a time, in order, so a subscribe that replays finishes before the next message is looked at.
import type { FastifyBaseLogger } from 'fastify';
import * as wsModule from 'ws';
import type { WebSocket } from 'ws';
import { DomainError } from '../domain/errors.js';
import { present, visibleTypes, type EventFeed } from '../domain/events/event-feed.js';
import type { EventStream } from '../domain/events/event-stream.js';
import { EVENT_TYPES, type StoredEvent } from '../domain/events/event-log.js';
import type { Principal } from '../domain/auth/permissions.js';

/** A client whose unsent data passes this is too far behind: closed with 1013, it can resume. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const REPLAY_PAGE = 500;
/** A replay sends its next page once the client's backlog is below this. */
const REPLAY_LOW_WATER = 256 * 1024;
/** Messages a client may have waiting to be handled (each waits for the one before it). */
const MAX_QUEUED_MESSAGES = 100;
const PATTERNS = new Set<string>([...EVENT_TYPES, 'content.*', 'user.*', 'media.*', '*']);

/** The options of ws's `Sender.frame` (ws exports it, unlike its typings): one unmasked text frame. */
interface FrameOptions {
  fin: boolean;
  opcode: number;
  mask: boolean;
  readOnly: boolean;
  rsv1: boolean;
}
const { frame } = (wsModule as unknown as { Sender: { frame(data: Buffer, options: FrameOptions): Buffer[] } }).Sender;
const TEXT_FRAME: FrameOptions = { fin: true, opcode: 0x1, mask: false, readOnly: true, rsv1: false };

/**
 * The event as one complete WebSocket text frame (header and JSON), made once however many
 * connections receive it and written as is to each of their sockets: no serialisation, framing or
 * allocation per subscriber. Only valid without permessage-deflate, which the channel never
 * negotiates (ws.ts).
 */
const framed = new WeakMap<StoredEvent, Buffer>();
function frameOf(event: StoredEvent): Buffer {
  let bytes = framed.get(event);
  if (bytes === undefined) {
    bytes = Buffer.concat(frame(Buffer.from(JSON.stringify(present(event))), TEXT_FRAME));
    framed.set(event, bytes);
  }
  return bytes;
}

/** One Set per distinct list of visible types, shared by the connections whose keys see the same. */
const visibleSets = new Map<string, ReadonlySet<string>>();
function visibleSet(principal: Principal): ReadonlySet<string> {
  const types = visibleTypes(principal);
  const key = types.join();
  let set = visibleSets.get(key);
  if (!set) visibleSets.set(key, (set = new Set(types)));
  return set;
}

function matches(pattern: string, type: string): boolean {
  return pattern === '*' || pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1)));
}

type ClientMessage = { type: 'subscribe' | 'unsubscribe'; event: string; since?: string } | { type: 'ping' };

export class Connection {
  /** Subscribed patterns, each with its floor: it covers events numbered above the floor only. */
  private readonly subscriptions = new Map<string, number>();
  private visible: ReadonlySet<string>;
  /** The last event number this connection has considered; undefined until it first subscribes. */
  private cursor: number | undefined;
  private attached = false;
  private closed = false;
  /** Live events that arrive while a replay runs wait here, then follow it. */
  private held: StoredEvent[] | undefined;
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;
  private alive = true;
  private readonly onEvent = (events: StoredEvent[]) => {
    if (this.held) this.held.push(...events);
    // The usual case, one event: no array made for this connection.
    else if (events.length > 1) this.send(events.filter((e) => this.consider(e)));
    else if (events.length === 1 && this.consider(events[0]!)) this.send(events);
  };

  constructor(
    private readonly socket: WebSocket,
    private principal: Principal,
    readonly token: string,
    private readonly feed: EventFeed,
    private readonly stream: EventStream,
    private readonly log: FastifyBaseLogger,
  ) {
    this.visible = visibleSet(principal);
    socket.on('pong', () => (this.alive = true));
    socket.on('message', (data, isBinary) => {
      // A client may not queue work faster than it is done (each message waits for the one before).
      if (++this.queued > MAX_QUEUED_MESSAGES) return this.close(1008, 'too many messages waiting');
      const text = isBinary ? undefined : data.toString();
      this.queue = this.queue
        .then(() => (this.closed ? undefined : this.handle(text)))
        .catch((error: unknown) => {
          this.log.error({ err: error }, 'websocket message failed');
          this.close(1011, 'internal error');
        })
        .finally(() => this.queued--);
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
    this.visible = visibleSet(principal);
  }

  close(code: number, reason: string): void {
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) this.socket.close(code, reason);
  }

  /** The socket has closed: leave the event stream now and after any await still under way. */
  detach(): void {
    this.closed = true;
    if (this.attached) this.stream.detach(this.principal.accountId, this.onEvent);
    this.attached = false;
  }

  private async handle(text: string | undefined): Promise<void> {
    const message = parse(text);
    if (typeof message === 'string') return this.error('invalid_message', message);
    if (message.type === 'ping') return this.reply({ type: 'pong' });
    if (!PATTERNS.has(message.event)) {
      return this.error('unknown_event', `Unknown event "${message.event}"; use an event name, content.*, user.* or *.`);
    }
    if (message.event !== '*' && ![...this.visible].some((type) => matches(message.event, type))) {
      return this.error('unknown_event', `This key may not see ${message.event} events (it lacks the scope to read them).`);
    }
    if (message.type === 'unsubscribe') {
      this.subscriptions.delete(message.event);
      return this.reply({ type: 'unsubscribed', event: message.event });
    }
    await this.subscribe(message.event, message.since);
  }

  /**
   * Adds (or widens) a subscription. Its floor is `since`, or where the connection stands now. With
   * a `since` behind that point, the events in between that match it and that no other subscription
   * has already brought are replayed first; live events wait meanwhile and follow in order.
   */
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
    if (this.closed) return;
    this.held = [];
    try {
      if (!this.attached) {
        this.attached = true;
        this.cursor = await this.stream.attach(this.principal.accountId, this.onEvent);
        // Closed while attaching: the close handler found nothing to detach yet.
        if (this.closed) return this.detach();
      }
      const before = [...this.subscriptions];
      const floor = Math.min(sinceSeq ?? this.cursor!, this.subscriptions.get(pattern) ?? Infinity);
      this.subscriptions.set(pattern, floor);
      this.reply({ type: 'subscribed', event: pattern });
      const sent = (e: StoredEvent) => before.some(([p, f]) => f < e.seq && matches(p, e.type));
      if (floor < this.cursor!) await this.replay(floor, this.cursor!, (e) => matches(pattern, e.type) && !sent(e));
    } finally {
      const held = this.held;
      this.held = undefined;
      this.send(held.filter((e) => this.consider(e)));
    }
  }

  /** Sends events in (after, upTo] that `wanted` picks, page by page, waiting for the client to read. */
  private async replay(after: number, upTo: number, wanted: (event: StoredEvent) => boolean): Promise<void> {
    // A connection being closed (by the client, or by us with 1008/1013) reads no further pages.
    const open = () => !this.closed && this.socket.readyState === this.socket.OPEN;
    for (let from = after; from < upTo && open(); ) {
      const events = await this.feed.read(this.principal.accountId, from, REPLAY_PAGE, [...this.visible]);
      if (!open()) return;
      this.send(events.filter((e) => e.seq <= upTo && wanted(e)), { paced: true });
      if (events.length < REPLAY_PAGE) break;
      from = events.at(-1)!.seq;
      await this.drained();
    }
  }

  /** Moves the cursor past a live event; true when a subscription wants it and the key may see it. */
  private consider(event: StoredEvent): boolean {
    if (this.cursor === undefined || event.seq <= this.cursor) return false;
    this.cursor = event.seq;
    if (!this.visible.has(event.type)) return false;
    for (const [pattern, floor] of this.subscriptions) if (floor < event.seq && matches(pattern, event.type)) return true;
    return false;
  }

  /**
   * Sends events, each as its ready-made frame written straight to the socket (ws's own `send`
   * would frame it again for every connection). Several events leave in one write: the frames
   * queue in the corked socket and go together (one TLS record and one system call, not one per
   * event). A client still holding more than 1 MiB unread from earlier writes is too slow and is
   * closed with 1013 (it can resume with `since`); what one write adds does not count against it,
   * so one large item or a burst never closes a reader that keeps up. A replay (`paced`) waits for
   * the client instead. The frames go through the same socket, in the same order, as ws's own
   * messages (replies, pings), since ws writes those at once too (nothing is ever compressed).
   */
  private send(events: StoredEvent[], options: { paced?: boolean } = {}): void {
    if (events.length === 0 || this.socket.readyState !== this.socket.OPEN) return;
    if (!options.paced && this.socket.bufferedAmount > MAX_BUFFERED_BYTES) return this.close(1013, 'client too slow; resume with since');
    const raw = this.rawSocket();
    if (!raw) return;
    if (events.length === 1) return void raw.write(frameOf(events[0]!));
    raw.cork();
    try {
      for (const event of events) raw.write(frameOf(event));
    } finally {
      raw.uncork();
    }
  }

  /** Resolves once the client has read what was sent, down to a small backlog (or the socket closed). */
  private async drained(): Promise<void> {
    const raw = this.rawSocket();
    while (raw && !this.closed && this.socket.readyState === this.socket.OPEN && this.socket.bufferedAmount > REPLAY_LOW_WATER) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          raw.off('drain', done);
          resolve();
        };
        const timer = setTimeout(done, 1000);
        raw.once('drain', done);
      });
    }
  }

  /** ws's own socket (`_socket`): frames are written to it, corked around a batch, watched for 'drain' during a replay. */
  private rawSocket(): { write(b: Buffer): boolean; cork(): void; uncork(): void; once(e: 'drain', f: () => void): void; off(e: 'drain', f: () => void): void } | undefined {
    return (this.socket as unknown as { _socket?: ReturnType<Connection['rawSocket']> })._socket;
  }

  private error(code: string, message: string): void {
    this.reply({ type: 'error', code, message });
  }

  private reply(message: object): void {
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
