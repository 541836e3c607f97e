// The composition root: builds storage, domain services and HTTP from a Config. No module-level
// singletons; tests build their own app with their own store.
import type { FastifyInstance } from 'fastify';
import { publicUrlOf, type Config } from './config.js';
import { systemClock, type Clock } from './domain/ids.js';
import type { AccountService } from './domain/users/accounts.js';
import type { Store } from './storage/db.js';
import { openLimits, openServices } from './services.js';
import { FLUSH_EVERY_MS } from './domain/limits/usage-ledger.js';
import { loadCertificate } from './http/certificate.js';
import { Lifecycle } from './http/lifecycle.js';
import { buildHttpApp } from './http/server.js';
import { listen, type Listener } from './http/transport.js';
import { realtime } from './http/ws.js';
import { EventStream } from './domain/events/event-stream.js';
import { startEventRetention } from './workers/event-retention.js';
import { WebhookSender } from './workers/webhook-sender.js';
import { WebhookWorker } from './workers/webhook-worker.js';

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
  /** The base URL people and OAuth clients see: PUBLIC_URL, or this instance's own address once listening. */
  publicUrl(): string;
  /** Stops accepting, lets requests in flight finish (up to the grace period), then closes everything. */
  shutdown(): Promise<void>;
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  // Background failures (a lost signal connection, a failed prune) are logged once the logger exists.
  const logger: { log?: FastifyInstance['log'] } = {};
  const backgroundError = (what: string) => (error: unknown) => logger.log?.warn({ err: error }, what);
  const services = await openServices(config, { clock: options.clock, listen: true, onError: backgroundError('event signal failed') });
  const clock = options.clock ?? systemClock;
  const limits = await openLimits(config, services, clock, (state, error) =>
    state === 'down'
      ? logger.log?.warn({ err: error }, 'Redis is unreachable: rate limits are counted in this instance alone until it answers')
      : logger.log?.info('Redis answers again: rate limits are shared again'),
  );
  const stream = new EventStream(services.feed, services.heads, services.signal, backgroundError('event stream read failed'), options.eventPollMs);
  const live = realtime({ auth: services.auth, feed: services.feed, stream, pingIntervalMs: options.wsPingIntervalMs });
  const lifecycle = new Lifecycle();
  const certificate = config.tls.mode === 'on' ? await loadCertificate(config.tls, config.dataDir) : undefined;
  const http = await buildHttpApp(
    {
      config,
      ...services,
      limiter: limits.limiter,
      usage: limits.usage,
      realtime: live,
      ready: () => services.store.ping(),
      lifecycle,
      logStream: options.logStream,
    },
    certificate,
  );
  logger.log = http.log;
  const retention = startEventRetention(services.events, config.eventRetentionDays, clock, backgroundError('event pruning failed'));
  const timers = [
    // last_used_at is gathered in memory and written every 30 s (CONTRACT.md §7 allows a minute's lag).
    every(30_000, () => services.auth.flushLastUsed(), backgroundError('could not record key use')),
    // Quota usage is counted in memory and written in batches: a crash loses at most FLUSH_EVERY_MS of it.
    every(FLUSH_EVERY_MS, () => limits.flush(), backgroundError('could not record quota usage')),
    // Ended dashboard sessions are refused anyway; their rows are deleted hourly.
    every(3_600_000, () => services.sessions.prune(), backgroundError('could not prune sessions')),
    // Expired idempotency keys are free anyway (a claim takes them over); their rows are deleted hourly.
    every(3_600_000, () => services.idempotency.prune(), backgroundError('could not prune idempotency keys')),
  ];
  // Webhook deliveries: woken by events committed (on any instance the signal reaches), by pings and
  // retries queued here, and by its own poll.
  const sender = new WebhookSender(config.webhookAllowPrivate, clock);
  const worker = new WebhookWorker(services.webhookDeliveries, sender, config.webhookLeaseSeconds * 1000, http.log);
  services.signal.listen(() => worker.wake());
  services.deliveryWake.listen(() => worker.wake());
  worker.start();
  let listener: Listener | undefined;
  let closed: Promise<void> | undefined;

  async function close(): Promise<void> {
    lifecycle.closing = true;
    // WebSocket connections are long-lived: tell them to go (1001) rather than wait for them.
    live.closeAll();
    // In-flight webhook attempts get the same grace as requests, in parallel with them.
    const workerStopped = worker.stop(config.shutdownGraceSeconds * 1000);
    if (listener) {
      void listener.stopAccepting();
      listener.closeIdle();
      await lifecycle.drained(config.shutdownGraceSeconds * 1000);
      listener.closeAll();
    }
    await Promise.all([http.close(), workerStopped]);
    for (const timer of timers) clearInterval(timer);
    stream.close();
    await retention.stop();
    await services.auth.flushLastUsed().catch(() => {});
    await limits.close().catch((error: unknown) => http.log.warn({ err: error }, 'could not record quota usage'));
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
    publicUrl: () => publicUrlOf(config, listener?.address.port),
    pruneEvents: () => retention.runNow(),
    shutdown: () => (closed ??= close()),
  };
}

/** Runs `task` every `ms` in the background (never keeping the process alive), reporting failures. */
function every(ms: number, task: () => Promise<unknown>, onError: (error: unknown) => void): NodeJS.Timeout {
  const timer = setInterval(() => void task().catch(onError), ms);
  timer.unref();
  return timer;
}
