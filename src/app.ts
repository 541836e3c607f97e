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
import { WebhookSender } from './workers/webhook-sender.js';
import { WebhookWorker } from './workers/webhook-worker.js';

export interface AppOptions {
  clock?: Clock;
  logStream?: NodeJS.WritableStream;
}

export interface App {
  readonly config: Config;
  readonly store: Store;
  readonly http: FastifyInstance;
  readonly accounts: AccountService;
  /** Listens on config.host:config.port (0 picks a free port). */
  listen(): Promise<Listener>;
  /** Stops accepting, lets requests in flight finish (up to the grace period), then closes everything. */
  shutdown(): Promise<void>;
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const services = await openServices(config, options.clock);
  const lifecycle = new Lifecycle();
  const certificate = config.tls.mode === 'on' ? await loadCertificate(config.tls, config.dataDir) : undefined;
  const http = await buildHttpApp(
    { config, ...services, ready: () => services.store.ping(), lifecycle, logStream: options.logStream },
    certificate,
  );
  // last_used_at is gathered in memory and written every 30 s (CONTRACT.md §7 allows a minute's lag).
  const flushTimer = setInterval(() => {
    services.auth.flushLastUsed().catch((error: unknown) => http.log.warn({ err: error }, 'could not record key use'));
  }, 30_000);
  flushTimer.unref();
  // Webhook deliveries: woken by events committed (on any instance the signal reaches), by pings and
  // retries queued here, and by its own poll.
  const sender = new WebhookSender(config.webhookAllowPrivate, options.clock ?? systemClock);
  const worker = new WebhookWorker(services.webhookDeliveries, sender, config.webhookLeaseSeconds * 1000, http.log);
  services.signal.listen(() => worker.wake());
  services.deliveryWake.listen(() => worker.wake());
  worker.start();
  let listener: Listener | undefined;
  let closed: Promise<void> | undefined;

  async function close(): Promise<void> {
    lifecycle.closing = true;
    // In-flight webhook attempts get the same grace as requests, in parallel with them.
    const workerStopped = worker.stop(config.shutdownGraceSeconds * 1000);
    if (listener) {
      void listener.stopAccepting();
      listener.closeIdle();
      await lifecycle.drained(config.shutdownGraceSeconds * 1000);
      listener.closeAll();
    }
    await Promise.all([http.close(), workerStopped]);
    clearInterval(flushTimer);
    await services.auth.flushLastUsed().catch(() => {});
    await services.store.close();
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
    shutdown: () => (closed ??= close()),
  };
}
