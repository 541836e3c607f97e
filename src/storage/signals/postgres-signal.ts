// Event signals through PostgreSQL LISTEN/NOTIFY: NOTIFY inside the writing transaction is
// delivered by the server only when that transaction commits (and never if it rolls back), to
// every instance listening on the same database, this one included.
import type pg from 'pg';
import { sql } from 'kysely';
import { BackOff } from '../back-off.js';
import { pgDriver } from '../drivers.js';
import type { Tx } from '../db.js';
import { Listeners, type EventSignal, type SignalListener } from '../event-signal.js';

const CHANNEL = 'cms_events';

export class PostgresEventSignal implements EventSignal {
  private readonly listeners = new Listeners();
  private client: pg.Client | undefined;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  /** Reconnection waits 100 ms doubling to 1 s: back within about a second of the database's return. */
  private readonly backOff = new BackOff();

  constructor(
    private readonly url: string,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Opens the listening connection; later losses are retried in the background. */
  async start(): Promise<void> {
    await this.connect();
  }

  async announce(tx: Tx, accountId: string, seq: number): Promise<void> {
    await sql`select pg_notify(${CHANNEL}, ${`${accountId} ${seq}`})`.execute(tx);
  }

  listen(listener: SignalListener): void {
    this.listeners.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new (pgDriver().Client)({ connectionString: this.url });
    client.on('notification', (message) => {
      const [accountId, seq] = (message.payload ?? '').split(' ');
      if (accountId && seq) this.listeners.deliver(accountId, Number(seq));
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    // Current from the start, so that a connection lost right after LISTEN is noticed (and close() ends it).
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.backOff.reset();
    } catch (error) {
      if (this.client === client) this.client = undefined;
      client.removeAllListeners('end').removeAllListeners('error').on('error', () => {});
      await client.end().catch(() => {});
      throw error;
    }
  }

  /**
   * Signals sent while disconnected are lost; readers also poll, so those events only arrive later.
   * The loss is reported once; the attempts to reconnect are not (the store reports the outage).
   */
  private lost(client: pg.Client, error?: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (error) this.onError(error);
    client.end().catch(() => {});
    this.reconnectLater();
  }

  private reconnectLater(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.connect().catch(() => this.reconnectLater());
    }, this.backOff.next());
  }
}
