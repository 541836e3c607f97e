// Event signals between the workers of one host on SQLite: heard in this process after commit (as a
// LocalEventSignal does) and relayed at once, through the coordinator, to every other worker, whose
// live streams then read the new events from the shared database file. A relayed signal that is
// lost (a worker restarting) only delays delivery until the stream's safety poll.
import type { Store, Tx } from '../db.js';
import { Listeners, type EventSignal, type SignalListener } from '../event-signal.js';

const TOPIC = 'event';

/** The other processes of this host (src/cluster/coordinator.ts; the domain's PeerRelay has the same shape). */
export interface Relay {
  publish(topic: string, data: string): void;
  subscribe(topic: string, handler: (data: string) => void): void;
}

export class RelayedEventSignal implements EventSignal {
  private readonly listeners = new Listeners();

  constructor(
    private readonly inner: EventSignal,
    private readonly store: Store,
    private readonly relay: Relay,
  ) {
    inner.listen((accountId, seq) => this.listeners.deliver(accountId, seq));
    relay.subscribe(TOPIC, (data) => {
      const [accountId, seq] = data.split(' ');
      if (accountId && seq) this.listeners.deliver(accountId, Number(seq));
    });
  }

  async announce(tx: Tx, accountId: string, seq: number): Promise<void> {
    await this.inner.announce(tx, accountId, seq);
    this.store.afterCommit(tx, () => this.relay.publish(TOPIC, `${accountId} ${seq}`));
  }

  listen(listener: SignalListener): void {
    this.listeners.add(listener);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
