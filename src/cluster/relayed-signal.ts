// Event signals between the workers of one host on SQLite: heard in this process after commit (as a
// LocalEventSignal does) and relayed at once, through the coordinator, to every other worker, whose
// live streams then read the new events from the shared database file. A relayed signal that is
// lost (a worker restarting) only delays delivery until the stream's safety poll.
import type { Store, Tx } from '../storage/db.js';
import { Listeners, type EventSignal, type SignalListener } from '../storage/event-signal.js';
import type { PeerRelay } from '../domain/peers.js';

const TOPIC = 'event';

export class RelayedEventSignal implements EventSignal {
  private readonly listeners = new Listeners();

  constructor(
    private readonly inner: EventSignal,
    private readonly store: Store,
    private readonly relay: PeerRelay,
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
