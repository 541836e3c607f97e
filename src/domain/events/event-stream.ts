// Live fan-out of the event log to this instance's subscribers (WebSocket connections). For each
// account with subscribers it keeps a cursor and, when a signal says there is something new (or
// the safety poll finds it), reads the events after the cursor from the store and hands them to
// every subscriber in order. The store is the source of truth, so events reach subscribers in
// commit order, once, whichever instance wrote them and whether or not a signal was lost.
import type { EventSignal } from '../../storage/event-signal.js';
import type { StoredEvent } from './event-log.js';
import type { EventFeed } from './event-feed.js';

/** Receives events in order, several at a time when several are ready (so it can write them at once). */
export type EventSubscriber = (events: StoredEvent[]) => void;

interface AccountFeed {
  subscribers: Set<EventSubscriber>;
  /** Last event number handed out; undefined until the head has been read. */
  cursor?: number;
  head: Promise<number>;
  pumping: boolean;
  again: boolean;
}

const PAGE = 500;

export class EventStream {
  private readonly accounts = new Map<string, AccountFeed>();
  private readonly poller: NodeJS.Timeout;

  constructor(
    private readonly feed: EventFeed,
    private readonly heads: (accountIds: string[]) => Promise<Map<string, number>>,
    signal: EventSignal,
    private readonly onError: (error: unknown) => void,
    pollMs = 2000,
  ) {
    signal.listen((accountId, seq) => this.signalled(accountId, seq));
    // Signals are wake-up calls that can be lost (a reconnecting listener, Redis away): poll too.
    this.poller = setInterval(() => void this.poll(), pollMs);
    this.poller.unref();
  }

  /**
   * Adds a subscriber to the account's events and returns the event number after which it will
   * receive every event (in order) for as long as it stays attached.
   */
  async attach(accountId: string, subscriber: EventSubscriber): Promise<number> {
    let account = this.accounts.get(accountId);
    if (!account) {
      const created: AccountFeed = { subscribers: new Set(), head: Promise.resolve(0), pumping: false, again: false };
      // The head is read after the feed exists, so any event past it will be signalled to the feed.
      created.head = this.heads([accountId]).then((heads) => {
        created.cursor ??= heads.get(accountId) ?? 0;
        if (created.again) void this.pump(accountId, created);
        return created.cursor;
      });
      account = created;
      this.accounts.set(accountId, account);
    }
    account.subscribers.add(subscriber);
    if (account.cursor !== undefined) return account.cursor;
    try {
      return await account.head;
    } catch (error) {
      this.detach(accountId, subscriber);
      throw error;
    }
  }

  detach(accountId: string, subscriber: EventSubscriber): void {
    const account = this.accounts.get(accountId);
    if (!account) return;
    account.subscribers.delete(subscriber);
    if (account.subscribers.size === 0) this.accounts.delete(accountId);
  }

  /** Subscribers attached on this instance (for /metrics). */
  subscriberCount(): number {
    let n = 0;
    for (const account of this.accounts.values()) n += account.subscribers.size;
    return n;
  }

  close(): void {
    clearInterval(this.poller);
    this.accounts.clear();
  }

  private signalled(accountId: string, seq: number): void {
    const account = this.accounts.get(accountId);
    if (!account) return;
    if (account.cursor === undefined) account.again = true;
    else if (seq > account.cursor) void this.pump(accountId, account);
  }

  private async poll(): Promise<void> {
    const waiting = [...this.accounts].filter(([, account]) => account.cursor !== undefined && !account.pumping);
    if (waiting.length === 0) return;
    try {
      const heads = await this.heads(waiting.map(([id]) => id));
      for (const [id, account] of waiting) if ((heads.get(id) ?? 0) > account.cursor!) void this.pump(id, account);
    } catch (error) {
      this.onError(error);
    }
  }

  /** Reads and hands out everything after the cursor; one read at a time per account. */
  private async pump(accountId: string, account: AccountFeed): Promise<void> {
    if (account.pumping) {
      account.again = true;
      return;
    }
    account.pumping = true;
    try {
      do {
        account.again = false;
        for (;;) {
          const events = await this.feed.read(accountId, account.cursor!, PAGE);
          // Handed out in the same turn as the cursor moves, so a subscriber attaching meanwhile
          // either gets these events or finds the cursor past them.
          if (events.length > 0) {
            account.cursor = events.at(-1)!.seq;
            for (const subscriber of account.subscribers) subscriber(events);
          }
          if (events.length < PAGE) break;
        }
      } while (account.again && this.accounts.get(accountId) === account);
    } catch (error) {
      // The next signal or poll tries again from the same cursor: nothing is skipped.
      this.onError(error);
    } finally {
      account.pumping = false;
    }
  }
}
