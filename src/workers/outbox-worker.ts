// The one loop behind every outbox of this process (webhook attempts, e-mail): claim due items,
// send each, record the attempt, schedule the next. It wakes when told that work was queued, on a
// 1 s poll (retries come due by time; other instances' signals may not reach it), when the
// next retry it scheduled itself comes due, and — for a queue of timed work — when the queue says
// its next item falls due. Each wake claims within its limits — in all, and per
// partition (an endpoint, a mail domain) — so a slow target fills only its own slots and never
// delays others. Claims are leases, renewed while an item is in flight: if this process dies, its
// items become due again for any instance once the lease lapses. Stopping gives claims back.
import { randomBytes } from 'node:crypto';
import type { OutboxQueue } from '../domain/outbox.js';

const POLL_MS = 1000;
/** The longest wait a timer takes (Node fires a longer one after 1 ms); the poll covers what lies beyond. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface WorkerLog {
  warn(details: object, message: string): void;
}

/** Makes one attempt on the wire; resolves with its result, or rejects only when `cancel` aborted it. */
export interface OutboxSender<Item, Result> {
  send(item: Item, cancel: AbortSignal): Promise<Result>;
  close(): void;
}

export interface OutboxWorkerOptions<Item> {
  /** Names the work in log lines: "could not claim <label> attempts". */
  label: string;
  /** How long a claim lasts unless renewed. */
  leaseMs: number;
  maxInFlight: number;
  maxPerPartition: number;
  partitionOf(item: Item): string;
}

interface Running<Item> {
  item: Item;
  cancel: AbortController;
  done: Promise<void>;
}

export class OutboxWorker<Item extends { id: string }, Result> {
  /** This worker's claim token: only it may renew, release or record the items it claimed. */
  private readonly lease = randomBytes(12).toString('hex');
  private readonly running = new Map<string, Running<Item>>();
  private readonly perPartition = new Map<string, number>();
  private pumping: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timers: NodeJS.Timeout[] = [];
  /** The one timer for the earliest retry this worker scheduled, and when it fires (Date.now() time). */
  private retryTimer: { timer: NodeJS.Timeout; at: number } | undefined;

  constructor(
    private readonly queue: OutboxQueue<Item, Result>,
    private readonly sender: OutboxSender<Item, Result>,
    private readonly options: OutboxWorkerOptions<Item>,
    private readonly log: WorkerLog,
  ) {}

  start(): void {
    this.timers = [
      setInterval(() => this.wake(), POLL_MS),
      setInterval(() => this.renew(), Math.max(100, Math.floor(this.options.leaseMs / 3))),
    ];
    for (const timer of this.timers) timer.unref();
    this.wake();
  }

  /** Looks for due items now (or right after the look in progress). */
  wake(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump().finally(() => (this.pumping = undefined));
  }

  /**
   * Stops claiming, lets items in flight finish for up to `graceMs`, then cancels the rest and
   * gives their claims back so that another instance (or the next start) sends them at once.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    clearTimeout(this.retryTimer?.timer);
    await this.pumping;
    const all = () => Promise.allSettled([...this.running.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all(), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    if (this.running.size) {
      const ids = [...this.running.keys()];
      for (const running of this.running.values()) running.cancel.abort(new Error('shutting down'));
      await all();
      await this.queue.release(ids, this.lease).catch((error: unknown) => this.log.warn({ err: error }, `could not release ${this.options.label} attempts`));
    }
    this.sender.close();
  }

  private async pump(): Promise<void> {
    const { maxInFlight, maxPerPartition } = this.options;
    do {
      this.again = false;
      try {
        const capacity = {
          total: maxInFlight - this.running.size,
          freeFor: (partition: string) => maxPerPartition - (this.perPartition.get(partition) ?? 0),
          saturated: [...this.perPartition].filter(([, n]) => n >= maxPerPartition).map(([partition]) => partition),
        };
        const items = await this.queue.claim(this.lease, this.options.leaseMs, capacity);
        if (this.stopped) {
          await this.queue.release(items.map((item) => item.id), this.lease);
          return;
        }
        for (const item of items) if (!this.running.has(item.id)) this.launch(item);
        // One claim looks at a limited number of partitions: look again while it found work and there is room.
        if (items.length > 0 && this.running.size < maxInFlight) this.again = true;
      } catch (error) {
        this.log.warn({ err: error }, `could not claim ${this.options.label} attempts`);
        return;
      }
    } while (this.again && !this.stopped);
    if (this.queue.nextDueInMs && !this.stopped) {
      const ms = await this.queue.nextDueInMs().catch((error: unknown) => void this.log.warn({ err: error }, `could not read when the next ${this.options.label} falls due`));
      if (ms !== undefined) this.wakeIn(ms);
    }
  }

  private launch(item: Item): void {
    const cancel = new AbortController();
    const partition = this.options.partitionOf(item);
    this.perPartition.set(partition, (this.perPartition.get(partition) ?? 0) + 1);
    const done = this.sender
      .send(item, cancel.signal)
      .then((result) => this.queue.finish(item, this.lease, result))
      .then((retryInMs) => {
        if (retryInMs !== undefined) this.wakeIn(retryInMs);
      })
      .catch((error: unknown) => {
        // Cancelled at shutdown: stop() gives the claim back. Otherwise the lease lapses and the attempt is made again.
        if (!cancel.signal.aborted) this.log.warn({ err: error, id: item.id }, `could not record a ${this.options.label} attempt`);
      })
      .finally(() => {
        this.running.delete(item.id);
        const left = (this.perPartition.get(partition) ?? 1) - 1;
        if (left > 0) this.perPartition.set(partition, left);
        else this.perPartition.delete(partition);
        this.wake();
      });
    this.running.set(item.id, { item, cancel, done });
  }

  /** Wakes when a retry (or a timed item) comes due, unless an earlier wake is already set (the poll covers the rest). */
  private wakeIn(ms: number): void {
    const at = Date.now() + Math.min(Math.max(0, ms), MAX_TIMER_MS);
    if (this.stopped || (this.retryTimer && this.retryTimer.at <= at)) return;
    clearTimeout(this.retryTimer?.timer);
    const timer = setTimeout(() => {
      this.retryTimer = undefined;
      this.wake();
    }, at - Date.now());
    timer.unref();
    this.retryTimer = { timer, at };
  }

  private renew(): void {
    if (this.stopped || this.running.size === 0) return;
    this.queue
      .renew([...this.running.keys()], this.lease, this.options.leaseMs)
      .catch((error: unknown) => this.log.warn({ err: error }, `could not renew ${this.options.label} leases`));
  }
}
