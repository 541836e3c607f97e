// Event signals through Redis pub/sub (REDIS_URL): published once the writing transaction has
// committed, received by every instance subscribed to the channel, this one included.
import type { Redis } from 'ioredis';
import type { Store, Tx } from '../db.js';
import { redisDriver } from '../drivers.js';
import { Listeners, type EventSignal, type SignalListener } from '../event-signal.js';

export class RedisEventSignal implements EventSignal {
  private readonly listeners = new Listeners();
  private readonly publisher: Redis;
  private readonly subscriber: Redis;

  constructor(
    private readonly store: Store,
    url: string,
    /** The pub/sub channel, named with REDIS_KEY_PREFIX. */
    private readonly channel: string,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    // ioredis reconnects by itself; a signal published while Redis is away is lost, and readers'
    // polling picks the events up a little later.
    const options = { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false };
    const { Redis } = redisDriver();
    this.publisher = new Redis(url, options);
    this.subscriber = new Redis(url, { ...options, maxRetriesPerRequest: null, enableOfflineQueue: true });
    // ioredis reports every failed reconnection; an outage is reported once, until it connects again.
    for (const client of [this.publisher, this.subscriber]) {
      let down = false;
      client.on('error', (error) => {
        if (!down) this.onError(error);
        down = true;
      });
      client.on('ready', () => (down = false));
    }
    this.subscriber.on('message', (_channel: string, message: string) => {
      const [accountId, seq] = message.split(' ');
      if (accountId && seq) this.listeners.deliver(accountId, Number(seq));
    });
  }

  async start(): Promise<void> {
    await Promise.all([this.publisher.connect(), this.subscriber.connect()]);
    await this.subscriber.subscribe(this.channel);
  }

  async announce(tx: Tx, accountId: string, seq: number): Promise<void> {
    this.store.afterCommit(tx, () => {
      this.publisher.publish(this.channel, `${accountId} ${seq}`).catch((error: unknown) => this.onError(error));
    });
  }

  listen(listener: SignalListener): void {
    this.listeners.add(listener);
  }

  async close(): Promise<void> {
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }
}
