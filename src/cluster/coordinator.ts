// A worker's side of the coordinator: relays publications to the other workers, asks for steps on
// the shared rate-limit counters and for the aggregated metrics, and answers the coordinator's
// collections of its own metrics. The transport (IPC to the cluster primary, or a hub in the same
// process in tests) is a HubLink.
import { StoreUnavailable } from '../storage/errors.js';
import type { PeerRelay } from '../domain/peers.js';
import type { HubMessage, WorkerMessage } from './messages.js';
import type { RateOp } from '../storage/coordinated-rate-store.js';

export interface HubLink {
  send(message: WorkerMessage): void;
  listen(listener: (message: HubMessage) => void): void;
}

type Request = { cms: 'rate'; op: RateOp; args: unknown[] } | { cms: 'metrics' };

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
}

/** A request not answered this long fails (a rate-limit step then answers 503, like a store outage). */
const REQUEST_TIMEOUT_MS = 5000;

export class Coordinator implements PeerRelay {
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly handlers = new Map<string, ((data: string) => void)[]>();
  private collect: (() => Promise<unknown>) | undefined;

  constructor(
    private readonly link: HubLink,
    /** This worker's slot, 1..WORKERS (kept by its replacement after a crash). */
    readonly worker: number,
  ) {
    link.listen((message) => this.receive(message));
  }

  publish(topic: string, data: string): void {
    this.link.send({ cms: 'publish', topic, data });
  }

  subscribe(topic: string, handler: (data: string) => void): void {
    const list = this.handlers.get(topic) ?? [];
    list.push(handler);
    this.handlers.set(topic, list);
  }

  /** Sends a request and resolves with the coordinator's answer. */
  request(message: Request, timeoutMs = REQUEST_TIMEOUT_MS): Promise<unknown> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new StoreUnavailable(new Error(`the cluster coordinator did not answer within ${timeoutMs} ms`)));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.link.send({ ...message, id } as WorkerMessage);
    });
  }

  /** Answers the coordinator's collections with `collect` (this worker's metrics), and says it serves. */
  serveMetrics(collect: () => Promise<unknown>): void {
    this.collect = collect;
    this.link.send({ cms: 'serving' });
  }

  /** Every worker's metrics, aggregated by the coordinator (Prometheus text). */
  async aggregateMetrics(): Promise<string> {
    return (await this.request({ cms: 'metrics' })) as string;
  }

  /** Fails whatever is still waiting (shutdown). */
  close(): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new StoreUnavailable(new Error('the cluster coordinator is gone')));
      this.pending.delete(id);
    }
  }

  private receive(message: HubMessage): void {
    switch (message.cms) {
      case 'publish':
        for (const handler of this.handlers.get(message.topic) ?? []) handler(message.data);
        return;
      case 'reply': {
        const pending = this.pending.get(message.id);
        if (!pending) return;
        this.pending.delete(message.id);
        clearTimeout(pending.timer);
        if (message.ok) pending.resolve(message.value);
        else pending.reject(new Error(message.error ?? 'the cluster coordinator failed'));
        return;
      }
      case 'collect': {
        const collect = this.collect;
        if (!collect) return;
        collect().then(
          (metrics) => this.link.send({ cms: 'collected', id: message.id, metrics }),
          () => this.link.send({ cms: 'collected', id: message.id, metrics: [] }),
        );
        return;
      }
    }
  }
}
