// The webhook delivery worker of one instance. It wakes when events commit (EventSignal), when a
// ping or retry is queued here, and on a 1 s poll (retries come due by time; other instances'
// signals may not reach it), and when the next retry it scheduled itself comes due. Each wake claims due attempts within its limits — at most 8 in flight
// per endpoint and 64 in all — so a slow endpoint fills only its own slots and never delays others.
// Claims are leases, renewed while an attempt is in flight: if this process dies, its attempts
// become due again for any instance once the lease lapses.
import { randomBytes } from 'node:crypto';
import type { DeliveryService, OutgoingAttempt } from '../domain/webhooks/deliveries.js';
import type { WebhookSender } from './webhook-sender.js';

export const MAX_IN_FLIGHT = 64;
export const MAX_IN_FLIGHT_PER_ENDPOINT = 8;
const POLL_MS = 1000;

export interface WorkerLog {
  warn(details: object, message: string): void;
}

interface Running {
  attempt: OutgoingAttempt;
  cancel: AbortController;
  done: Promise<void>;
}

export class WebhookWorker {
  /** This worker's claim token: only it may renew, release or record the attempts it claimed. */
  private readonly lease = randomBytes(12).toString('hex');
  private readonly running = new Map<string, Running>();
  private readonly perEndpoint = new Map<string, number>();
  private pumping: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timers: NodeJS.Timeout[] = [];
  /** The one timer for the earliest retry this worker scheduled, and when it fires (Date.now() time). */
  private retryTimer: { timer: NodeJS.Timeout; at: number } | undefined;

  constructor(
    private readonly deliveries: DeliveryService,
    private readonly sender: WebhookSender,
    private readonly leaseMs: number,
    private readonly log: WorkerLog,
  ) {}

  start(): void {
    this.timers = [
      setInterval(() => this.wake(), POLL_MS),
      setInterval(() => this.renew(), Math.max(100, Math.floor(this.leaseMs / 3))),
    ];
    for (const timer of this.timers) timer.unref();
    this.wake();
  }

  /** Looks for due attempts now (or right after the look in progress). */
  wake(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump().finally(() => (this.pumping = undefined));
  }

  /**
   * Stops claiming, lets attempts in flight finish for up to `graceMs`, then cancels the rest and
   * gives their claims back so that another instance (or the next start) makes them at once.
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
      await this.deliveries.release(ids, this.lease).catch((error: unknown) => this.log.warn({ err: error }, 'could not release webhook attempts'));
    }
    this.sender.close();
  }

  private async pump(): Promise<void> {
    do {
      this.again = false;
      try {
        const capacity = {
          total: MAX_IN_FLIGHT - this.running.size,
          freeFor: (endpointId: string) => MAX_IN_FLIGHT_PER_ENDPOINT - (this.perEndpoint.get(endpointId) ?? 0),
          saturated: [...this.perEndpoint].filter(([, n]) => n >= MAX_IN_FLIGHT_PER_ENDPOINT).map(([id]) => id),
        };
        const attempts = await this.deliveries.claim(this.lease, this.leaseMs, capacity);
        if (this.stopped) {
          await this.deliveries.release(attempts.map((a) => a.id), this.lease);
          return;
        }
        for (const attempt of attempts) if (!this.running.has(attempt.id)) this.launch(attempt);
        // One claim looks at a limited number of endpoints: look again while it found work and there is room.
        if (attempts.length > 0 && this.running.size < MAX_IN_FLIGHT) this.again = true;
      } catch (error) {
        this.log.warn({ err: error }, 'could not claim webhook attempts');
        return;
      }
    } while (this.again && !this.stopped);
  }

  private launch(attempt: OutgoingAttempt): void {
    const cancel = new AbortController();
    this.perEndpoint.set(attempt.endpointId, (this.perEndpoint.get(attempt.endpointId) ?? 0) + 1);
    const done = this.sender
      .send(attempt, cancel.signal)
      .then((result) => this.deliveries.finish(attempt, this.lease, result))
      .then((retryInMs) => {
        if (retryInMs !== undefined) this.wakeIn(retryInMs);
      })
      .catch((error: unknown) => {
        // Cancelled at shutdown: stop() gives the claim back. Otherwise the lease lapses and the attempt is made again.
        if (!cancel.signal.aborted) this.log.warn({ err: error, delivery_id: attempt.id }, 'could not record a webhook attempt');
      })
      .finally(() => {
        this.running.delete(attempt.id);
        const left = (this.perEndpoint.get(attempt.endpointId) ?? 1) - 1;
        if (left > 0) this.perEndpoint.set(attempt.endpointId, left);
        else this.perEndpoint.delete(attempt.endpointId);
        this.wake();
      });
    this.running.set(attempt.id, { attempt, cancel, done });
  }

  /** Wakes when a retry comes due, unless an earlier wake is already set (the poll covers the rest). */
  private wakeIn(ms: number): void {
    const at = Date.now() + Math.max(0, ms);
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
    this.deliveries
      .renew([...this.running.keys()], this.lease, this.leaseMs)
      .catch((error: unknown) => this.log.warn({ err: error }, 'could not renew webhook leases'));
  }
}
