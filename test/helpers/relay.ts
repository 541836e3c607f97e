// A TCP relay on a loopback port that a test can cut and restore, to take a server (Redis, PostgreSQL)
// away from the service under test and bring it back.
import net from 'node:net';

const DEFAULT_PORTS: Record<string, number> = { 'redis:': 6379, 'postgres:': 5432, 'postgresql:': 5432 };

/**
 * A TCP relay to a server (`redis://…` or `postgres://…`) on a loopback port: cut() drops every
 * connection and stops listening; mend() listens again on the same port.
 */
export class Relay {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  port = 0;

  constructor(private readonly target: URL) {}

  /** The target's URL with the relay's address in place of the server's. */
  get url(): string {
    return this.urlFor(this.target.href);
  }

  /** `url` (another database on the same server, say) with the relay's address in place of the server's. */
  urlFor(url: string): string {
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(this.port);
    return through.toString();
  }

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect({ host: this.target.hostname, port: Number(this.target.port || DEFAULT_PORTS[this.target.protocol]) });
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => {
          this.sockets.delete(s);
          client.destroy();
          upstream.destroy();
        });
      }
      const pair: [net.Socket, net.Socket] = [client, upstream];
      this.pairs.add(pair);
      client.on('close', () => this.pairs.delete(pair));
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen({ host: '127.0.0.1', port: this.port }, () => resolve());
    });
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
    for (const s of this.sockets) s.destroy();
    await closed;
    this.server = undefined;
  }

  mend(): Promise<void> {
    return this.start();
  }

  /** Keeps the connections open but stops passing the client's commands on: Redis seems to hang. */
  stall(): void {
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      client.pause();
    }
  }

  /** Passes the commands on again, those held back first. */
  flow(): void {
    for (const [client, upstream] of this.pairs) client.pipe(upstream);
  }
}
