// How instances hear that an account has new events: announced inside the writing transaction,
// heard by every instance only once it commits. A signal is a wake-up call carrying the account
// and its newest event number; readers always take the events themselves from the store, in
// order, so a lost or duplicated signal can delay delivery but never lose or reorder an event.
import type { Store, Tx } from './db.js';

export type SignalListener = (accountId: string, seq: number) => void;

export interface EventSignal {
  /** Called inside the transaction; listeners must hear of it only if and when it commits. */
  announce(tx: Tx, accountId: string, seq: number): Promise<void>;
  /** Registers a listener for announcements made by any instance (this one included). */
  listen(listener: SignalListener): void;
  close(): Promise<void>;
}

/** Fans a signal out to the listeners of this process. */
export class Listeners {
  private readonly listeners: SignalListener[] = [];

  add(listener: SignalListener): void {
    this.listeners.push(listener);
  }

  deliver(accountId: string, seq: number): void {
    for (const listener of this.listeners) listener(accountId, seq);
  }
}

/** One process (SQLite, or a single PostgreSQL instance in tests): after commit, in process. */
export class LocalEventSignal implements EventSignal {
  private readonly listeners = new Listeners();

  constructor(private readonly store: Store) {}

  async announce(tx: Tx, accountId: string, seq: number): Promise<void> {
    this.store.afterCommit(tx, () => this.listeners.deliver(accountId, seq));
  }

  listen(listener: SignalListener): void {
    this.listeners.add(listener);
  }

  async close(): Promise<void> {}
}
