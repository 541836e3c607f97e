// The coordinator's side, run by the cluster primary (or, in tests, in the one test process): it
// relays what a worker publishes (event wake-ups, cache invalidations) to every other worker, keeps
// the rate-limit counters every worker shares when there is no Redis (one in-memory store, each step
// applied whole, in order), and gathers every worker's metrics into one view with prom-client's
// AggregatorRegistry.
import { AggregatorRegistry, Gauge, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { MemoryRateStore, type QuotaProbe } from '../storage/rate-store.js';
import type { HubMessage, WorkerMessage } from './messages.js';
import type { RateOp } from '../storage/coordinated-rate-store.js';

export interface HubPeer {
  /** The worker's slot, 1..WORKERS. */
  readonly id: number;
  send(message: HubMessage): void;
}

/** A worker that has not sent its metrics this long after being asked is left out of the scrape. */
const COLLECT_TIMEOUT_MS = 2000;

type Metrics = MetricObjectWithValues<MetricValue<string>>[];

interface Collection {
  waiting: Set<HubPeer>;
  results: Metrics[];
  done(): void;
}

export class Hub {
  private readonly peers = new Set<HubPeer>();
  private readonly serving = new Set<HubPeer>();
  private readonly rates = new MemoryRateStore();
  private readonly collections = new Map<number, Collection>();
  private nextCollection = 0;

  join(peer: HubPeer): void {
    this.peers.add(peer);
  }

  /** The peer is gone (exited): it gets nothing more, and no collection waits for it. */
  leave(peer: HubPeer): void {
    this.peers.delete(peer);
    this.serving.delete(peer);
    for (const collection of this.collections.values()) {
      if (collection.waiting.delete(peer) && collection.waiting.size === 0) collection.done();
    }
  }

  /** Workers serving requests now. */
  servingCount(): number {
    return this.serving.size;
  }

  receive(from: HubPeer, message: WorkerMessage): void {
    switch (message.cms) {
      case 'publish':
        for (const peer of this.peers) if (peer !== from) peer.send(message);
        return;
      case 'serving':
        this.serving.add(from);
        return;
      case 'rate':
        this.rate(message.op, message.args).then(
          (value) => from.send({ cms: 'reply', id: message.id, ok: true, value }),
          (error: unknown) => from.send({ cms: 'reply', id: message.id, ok: false, error: String(error) }),
        );
        return;
      case 'metrics':
        this.metrics().then(
          (value) => from.send({ cms: 'reply', id: message.id, ok: true, value }),
          (error: unknown) => from.send({ cms: 'reply', id: message.id, ok: false, error: String(error) }),
        );
        return;
      case 'collected': {
        const collection = this.collections.get(message.id);
        if (!collection || !collection.waiting.delete(from)) return;
        collection.results.push(message.metrics as Metrics);
        if (collection.waiting.size === 0) collection.done();
        return;
      }
    }
  }

  private rate(op: RateOp, args: unknown[]): Promise<unknown> {
    switch (op) {
      case 'hit': {
        // JSON turns a missing quota into null.
        const [key, now, windowMs, limit, quota] = args as [string, number, number, number, QuotaProbe | null];
        return this.rates.hit(key, now, windowMs, limit, quota ?? undefined);
      }
      case 'seed': {
        const [quota, value, now, ttlMs] = args as [QuotaProbe, number, number, number];
        return this.rates.seed(quota, value, now, ttlMs);
      }
      case 'release':
        return this.rates.release(args[0] as string);
      case 'read':
        return this.rates.read(args[0] as string);
    }
  }

  /** Every serving worker's metrics, summed (or averaged, as prom-client's aggregators say), plus cms_workers. */
  private async metrics(): Promise<string> {
    const id = ++this.nextCollection;
    const waiting = new Set(this.serving);
    const results: Metrics[] = [];
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), COLLECT_TIMEOUT_MS);
      const done = () => {
        clearTimeout(timer);
        this.collections.delete(id);
        resolve();
      };
      this.collections.set(id, { waiting, results, done });
      if (waiting.size === 0) return done();
      for (const peer of waiting) peer.send({ cms: 'collect', id });
    });
    const registry = AggregatorRegistry.aggregate(results);
    const workers = new Gauge({ name: 'cms_workers', help: 'Server processes (WORKERS) whose metrics this scrape sums.', registers: [registry] });
    workers.set(results.length);
    return registry.metrics();
  }
}
