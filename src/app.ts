// The composition root: builds storage, domain services and HTTP from a Config. No module-level
// singletons; tests build their own app with their own store.
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { systemClock, type Clock } from './domain/ids.js';
import type { AccountService } from './domain/accounts.js';
import type { Store } from './storage/db.js';
import { openServices } from './services.js';
import { loadCertificate } from './http/certificate.js';
import { Lifecycle } from './http/lifecycle.js';
import { buildHttpApp } from './http/server.js';
import { listen, type Listener } from './http/transport.js';
import { realtime } from './http/ws.js';
import { EventStream } from './domain/event-stream.js';
import { startEventRetention } from './workers/event-retention.js';

export interface AppOptions {
  clock?: Clock;
  logStream?: NodeJS.WritableStream;
  /** How often WebSocket connections are pinged (30 s); tests shorten it. */
  wsPingIntervalMs?: number;
  /** How often the live stream polls for events whose signal was lost (2 s); tests lengthen it. */
  eventPollMs?: number;
}

export interface App {
  readonly config: Config;
  readonly store: Store;
  readonly http: FastifyInstance;
  readonly accounts: AccountService;
  /** Deletes events older than the retention period now (it also runs at start and hourly). */
  pruneEvents(): Promise<void>;
  /** Listens on config.host:config.port (0 picks a free port). */
  listen(): Promise<Listener>;
  /** Stops accepting, lets requests in flight finish (up to the grace period), then closes everything. */
  shutdown(): Promise<void>;
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  // Background failures (a lost signal connection, a failed prune) are logged once the logger exists.
  const logger: { log?: FastifyInstance['log'] } = {};
  const backgroundError = (what: string) => (error: unknown) => logger.log?.warn({ err: error }, what);
  const services = await openServices(config, { clock: options.clock, listen: true, onError: backgroundError('event signal failed') });
  const clock = options.clock ?? systemClock;
  const stream = new EventStream(services.feed, services.heads, services.signal, backgroundError('event stream read failed'), options.eventPollMs);
  const live = realtime({ auth: services.auth, feed: services.feed, stream, pingIntervalMs: options.wsPingIntervalMs });
  const lifecycle = new Lifecycle();
  const certificate = config.tls.mode === 'on' ? await loadCertificate(config.tls, config.dataDir) : undefined;
  const http = await buildHttpApp(
    { config, ...services, realtime: live.plugin, ready: () => services.store.ping(), lifecycle, logStream: options.logStream },
    certificate,
  );
  logger.log = http.log;
  const retention = startEventRetention(services.events, config.eventRetentionDays, clock, backgroundError('event pruning failed'));
  // last_used_at is gathered in memory and written every 30 s (CONTRACT.md §7 allows a minute's lag).
  const flushTimer = setInterval(() => {
    services.auth.flushLastUsed().catch((error: unknown) => http.log.warn({ err: error }, 'could not record key use'));
  }, 30_000);
  flushTimer.unref();
  let listener: Listener | undefined;
  let closed: Promise<void> | undefined;

  async function close(): Promise<void> {
    lifecycle.closing = true;
    // WebSocket connections are long-lived: tell them to go (1001) rather than wait for them.
    live.closeAll();
    if (listener) {
      void listener.stopAccepting();
      listener.closeIdle();
      await lifecycle.drained(config.shutdownGraceSeconds * 1000);
      listener.closeAll();
    }
    await http.close();
    clearInterval(flushTimer);
    stream.close();
    await retention.stop();
    await services.auth.flushLastUsed().catch(() => {});
    await services.close();
  }

  return {
    config,
    store: services.store,
    http,
    accounts: services.accounts,
    async listen() {
      listener = await listen(http, config.host, config.port, config.tls.mode === 'on');
      return listener;
    },
    pruneEvents: () => retention.runNow(),
    shutdown: () => (closed ??= close()),
  };
}
