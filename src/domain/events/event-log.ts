// The write side of the event log (CONTRACT.md §9): every change of an account runs through
// `change()`, which takes the account's write turn, lets the work emit events, and writes them in
// the same transaction. Listeners hear of them only after commit, through the EventSignal
// (src/storage/event-signal.ts).
import type { Store, Tx } from '../../storage/db.js';
import type { EventRepository, EventRow } from '../../storage/event-repository.js';
import type { EventSignal } from '../../storage/event-signal.js';
import { newId, type Clock } from '../ids.js';

export const EVENT_TYPES = [
  'content.created',
  'content.updated',
  'content.deleted',
  'user.created',
  'user.updated',
  'user.deleted',
  'api_key.usage_alert',
  'job.finished',
  'content_type.updated',
  'media.created',
  'media.updated',
  'media.deleted',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An event as subscribers receive it (WebSocket message, webhook payload, GET /v1/events). */
export interface PublicEvent {
  id: string;
  type: EventType;
  created_at: string;
  data: Record<string, unknown>;
}

export interface StoredEvent extends PublicEvent {
  accountId: string;
  seq: number;
}

/** Work that must commit together with the events, such as queueing webhook deliveries. */
export interface EventSink {
  recorded(tx: Tx, events: StoredEvent[]): Promise<void>;
}

export type Emit = (type: EventType, data: object) => void;

export class EventLog {
  private readonly sinks: EventSink[] = [];

  constructor(
    private readonly store: Store,
    private readonly repo: EventRepository,
    private readonly clock: Clock,
    private readonly signal: EventSignal,
  ) {}

  /** The account's last event number: changes whenever anything in the account changes. */
  generation(accountId: string): Promise<number> {
    return this.store.run((db) => this.repo.lastSeq(db, accountId));
  }

  /** Deletes up to `batch` events created before `before` (retention); returns how many went. */
  prune(before: string, batch: number): Promise<number> {
    return this.store.run((db) => this.repo.prune(db, before, batch));
  }

  addSink(sink: EventSink): void {
    this.sinks.push(sink);
  }

  /**
   * Runs `work` in one transaction on the account: its write turn is taken first (so changes of
   * one account never interleave), and every event `work` emits is written before commit.
   */
  change<T>(accountId: string, work: (tx: Tx, emit: Emit) => Promise<T>): Promise<T> {
    return this.store.transaction(async (tx) => {
      await this.repo.lock(tx, accountId);
      const emitted: { type: EventType; data: object }[] = [];
      const result = await work(tx, (type, data) => void emitted.push({ type, data }));
      await this.record(tx, accountId, emitted);
      return result;
    });
  }

  /** Writes events inside `tx` (whose caller holds the account's write turn) and announces them on commit. */
  async record(tx: Tx, accountId: string, events: { type: EventType; data: object }[]): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    const last = await this.repo.advance(tx, accountId, events.length);
    const now = this.clock().toISOString();
    const stored: StoredEvent[] = events.map((event, i) => ({
      id: newId('evt'),
      type: event.type,
      created_at: now,
      data: event.data as Record<string, unknown>,
      accountId,
      seq: last - events.length + 1 + i,
    }));
    await this.repo.insert(tx, stored.map(toRow));
    for (const sink of this.sinks) await sink.recorded(tx, stored);
    await this.signal.announce(tx, accountId, last);
    return stored;
  }
}

function toRow(event: StoredEvent): EventRow {
  return { id: event.id, account_id: event.accountId, seq: event.seq, type: event.type, data: JSON.stringify(event.data), created_at: event.created_at };
}

export function fromRow(row: EventRow): StoredEvent {
  return {
    id: row.id,
    type: row.type as EventType,
    created_at: row.created_at,
    data: JSON.parse(row.data) as Record<string, unknown>,
    accountId: row.account_id,
    seq: Number(row.seq),
  };
}
