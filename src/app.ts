// The composition root: builds storage, domain services and HTTP from a Config. No module-level
// singletons; tests build their own app with their own store.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { publicUrlOf, type Config } from './config.js';
import { systemClock, type Clock } from './domain/ids.js';
import type { AccountService } from './domain/users/accounts.js';
import type { Resolver } from './domain/webhooks/targets.js';
import type { Store } from './storage/db.js';
import { openLimits, openServices } from './services.js';
import { FLUSH_EVERY_MS } from './domain/limits/usage-ledger.js';
import { loadCertificate } from './http/certificate.js';
import { closeConnections, Lifecycle } from './http/lifecycle.js';
import { buildHttpApp } from './http/server.js';
import { ConnectionCounts, listen, trustedProxy, type Listener } from './http/transport.js';
import { realtime } from './http/ws.js';
import { EventStream } from './domain/events/event-stream.js';
import { startEventRetention } from './workers/event-retention.js';
import { WebhookSender } from './workers/webhook-sender.js';
import { OutboxWorker } from './workers/outbox-worker.js';
import type { Coordinator } from './cluster/coordinator.js';
import { MAIL_IN_FLIGHT, MAIL_IN_FLIGHT_PER_DOMAIN, MailSender } from './workers/mail-sender.js';

export interface AppOptions {
  clock?: Clock;
  logStream?: NodeJS.WritableStream;
  /** How often WebSocket connections are pinged (30 s); tests shorten it. */
  wsPingIntervalMs?: number;
  /** How often the live stream polls for events whose signal was lost (2 s); tests lengthen it. */
  eventPollMs?: number;
  /** Resolves webhook hosts, at registration and at each attempt; tests play DNS with it. */
  resolver?: Resolver;
  /** With WORKERS > 1 (or two instances side by side in tests): the link to the other server processes. */
  coordinator?: Coordinator;
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
  /** Sends the e-mail notices due by the clock (sunset reminders, expiring keys) and prunes old mail now (it also runs at start and hourly). */
  runMailSchedule(): Promise<void>;
  /** Stops accepting, lets requests in flight finish (up to the grace period), then closes everything. */
  shutdown(): Promise<void>;
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  // Background failures (a lost signal connection, a failed prune) are logged once the logger exists.
  const logger: { log?: FastifyInstance['log'] } = {};
  const backgroundError = (what: string) => (error: unknown) => logger.log?.warn({ err: error }, what);
  const backgroundLog = { warn: (details: object, message: string) => logger.log?.warn(details, message) };
  let listener: Listener | undefined;
  const publicUrl = () => publicUrlOf(config, listener?.address.port);
  const services = await openServices(config, {
    clock: options.clock,
    listen: true,
    onError: backgroundError('event signal failed'),
    publicUrl,
    mailLog: backgroundLog,
    resolver: options.resolver,
    coordinator: options.coordinator,
    onStoreState: (state, error) =>
      state === 'down'
        ? logger.log?.warn({ err: error }, 'The store is unavailable: requests that need it are answered 503 until it answers')
        : logger.log?.info('The store answers again'),
  });
  const clock = options.clock ?? systemClock;
  const withoutRedis = config.limits.onRedisDown === 'open' ? 'rate limits are counted in this instance alone' : 'requests are answered 503';
  const limits = await openLimits(config, services, clock, (state, error) =>
    state === 'down'
      ? logger.log?.warn({ err: error }, `Redis is unreachable: ${withoutRedis} until it answers`)
      : logger.log?.info('Redis answers again: rate limits are shared again'),
    options.coordinator,
  );
  const stream = new EventStream(services.feed, services.heads, services.signal, backgroundError('event stream read failed'), options.eventPollMs);
  const live = realtime({ auth: services.auth, feed: services.feed, stream, pingIntervalMs: options.wsPingIntervalMs });
  const lifecycle = new Lifecycle();
  const connectionCounts = new ConnectionCounts();
  const certificate = config.tls.mode === 'on' ? await loadCertificate(config.tls, config.dataDir) : undefined;
  const http = await buildHttpApp(
    {
      config,
      ...services,
      limiter: limits.limiter,
      usage: limits.usage,
      passwordLinks: services.mail.passwordLinks,
      deprecatedCalls: limits.deprecatedCalls,
      realtime: live,
      publicUrl,
      ready: () => services.store.ping(),
      lifecycle,
      connections: connectionCounts,
      rateLimitDegradedSeconds: limits.degradedSeconds,
      cluster: options.coordinator,
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
    // Expired OAuth tokens, codes, grants and sign-ins in progress are refused anyway; their rows go hourly.
    every(3_600_000, () => services.authorizationServer.prune(), backgroundError('could not prune OAuth records')),
    // Sunset reminders and "your key expires in 7 days" (once each, whichever instance gets there first), and mail housekeeping.
    every(3_600_000, () => services.mail.schedule.run(), backgroundError('could not run the mail schedule')),
    // Expired idempotency keys are free anyway (a claim takes them over); their rows are deleted hourly.
    every(3_600_000, () => services.idempotency.prune(), backgroundError('could not prune idempotency keys')),
  ];
  // Webhook deliveries: woken by events committed (on any instance the signal reaches), by pings and
  // retries queued here, and by its own poll.
  const sender = new WebhookSender(config.webhookAllowPrivate, clock, options.resolver);
  // At most 8 attempts in flight per endpoint and 64 in all: a slow endpoint fills only its own slots.
  const worker = new OutboxWorker(
    services.webhookDeliveries,
    sender,
    { label: 'webhook', leaseMs: config.webhookLeaseSeconds * 1000, maxInFlight: 64, maxPerPartition: 8, partitionOf: (attempt) => attempt.endpointId },
    http.log,
  );
  services.signal.listen(() => worker.wake());
  services.deliveryWake.listen(() => worker.wake());
  worker.start();
  // E-mail: the same loop over the mail outbox, woken when a message is queued here and by its poll.
  const mailSender = config.mail.smtpUrl
    ? MailSender.smtp(config.mail.smtpUrl, config.mail.from, http.log)
    : MailSender.files(path.join(config.dataDir, 'mail'), config.mail.from, http.log);
  const mailWorker = new OutboxWorker(
    services.mail.outbox,
    mailSender,
    { label: 'mail', leaseMs: config.webhookLeaseSeconds * 1000, maxInFlight: MAIL_IN_FLIGHT, maxPerPartition: MAIL_IN_FLIGHT_PER_DOMAIN, partitionOf: (mail) => mail.domain },
    http.log,
  );
  services.mail.wake.listen(() => mailWorker.wake());
  mailWorker.start();
  let closed: Promise<void> | undefined;

  async function close(): Promise<void> {
    lifecycle.closing = true;
    // WebSocket connections are long-lived: tell them to go (1001) rather than wait for them.
    live.closeAll();
    // In-flight webhook attempts and e-mails get the same grace as requests, in parallel with them.
    const workerStopped = Promise.all([worker.stop(config.shutdownGraceSeconds * 1000), mailWorker.stop(config.shutdownGraceSeconds * 1000)]);
    if (listener) await closeConnections(listener, lifecycle, config.shutdownGraceSeconds * 1000);
    await Promise.all([http.close(), workerStopped]);
    for (const timer of timers) clearInterval(timer);
    stream.close();
    await retention.stop();
    await services.auth.flushLastUsed().catch(() => {});
    await limits.close().catch((error: unknown) => http.log.warn({ err: error }, 'could not record quota usage'));
    await services.close();
    options.coordinator?.close();
  }

  return {
    config,
    store: services.store,
    http,
    accounts: services.accounts,
    async listen() {
      listener = await listen(http, {
        host: config.host,
        port: config.port,
        tls: config.tls.mode === 'on',
        headersTimeoutMs: config.connections.headersTimeoutSeconds * 1000,
        maxPerAddress: config.connections.maxPerAddress,
        exempt: trustedProxy(config),
        counts: connectionCounts,
      });
      // Once the public URL is known (links in the messages): whatever came due while no instance ran.
      void services.mail.schedule.run().catch(backgroundError('could not run the mail schedule'));
      return listener;
    },
    publicUrl,
    runMailSchedule: () => services.mail.schedule.run(),
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
