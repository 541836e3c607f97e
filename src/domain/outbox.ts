// What the outbox worker (src/workers/outbox-worker.ts) asks of a queue of due work — webhook
// attempts, e-mail messages: claim due items under a lease, keep the lease while sending, give
// items back unsent, and record how an attempt ended (scheduling the next one when it failed).

/** How many items a worker may still start, in total and per partition (an endpoint, a mail domain). */
export interface Capacity {
  total: number;
  freeFor(partition: string): number;
  /** Partitions that have no free slot here. */
  saturated: string[];
}

export interface OutboxQueue<Item extends { id: string }, Result> {
  /** Claims due items within `capacity` under `lease` for `leaseMs`; returns those to send. */
  claim(lease: string, leaseMs: number, capacity: Capacity): Promise<Item[]>;
  /** Keeps the claims on items still in flight from lapsing. */
  renew(ids: string[], lease: string, leaseMs: number): Promise<void>;
  /** Gives claimed items back unsent (shutting down), due again at once for any worker. */
  release(ids: string[], lease: string): Promise<void>;
  /** Records how an attempt ended; returns the milliseconds until the next attempt, when one was scheduled. */
  finish(item: Item, lease: string, result: Result): Promise<number | undefined>;
  /**
   * A queue whose work falls due at set times (scheduled publishing) says when the next item not yet
   * due will be, so the worker wakes then rather than at its next poll; undefined: nothing waits.
   */
  nextDueInMs?(): Promise<number | undefined>;
}

/** Tells this process's worker that work was queued here (after commit), so it looks at once rather than at its next poll. */
export class Wake {
  private readonly listeners: (() => void)[] = [];

  listen(listener: () => void): void {
    this.listeners.push(listener);
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }
}
