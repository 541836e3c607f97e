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
import { TransitionSender } from './workers/transition-sender.js';
import { JobRunner } from './workers/job-runner.js';
import { BackfillRunner } from './workers/backfill-runner.js';
import { listenForWrites } from './http/write-forwarding.js';

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
  /**
   * SQLite with WORKERS > 1: every write runs in one worker (docs/cluster.md "One writer"). The
   * writer also listens on `socketPath` and runs the background loops; a forwarder hands its
   * writes to it there and runs no background loop.
   */
  writer?: { role: 'writer' | 'forwarder'; socketPath: string };
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
  /** Removes media bytes no record names, older than `graceMs` (30 minutes; it also runs every 30 minutes). */
  sweepMedia(graceMs?: number): Promise<{ removed: number }>;
  /** Resolves once the typed-field indexes asked for so far are built or dropped (tests). */
  fieldIndexesSettled(): Promise<void>;
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
    // The writer checkpoints on a thread; a forwarder's few writes leave it to SQLite.
    checkpointThread: options.writer?.role !== 'forwarder',
    onCheckpointFallback: (reason) =>
      logger.log?.warn({ reason }, 'WAL checkpoints are back in the COMMIT that fills the WAL (SQLite default): the checkpoint thread cannot work'),
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
      previews: services.publishing.previews,
      deprecatedCalls: limits.deprecatedCalls,
      realtime: live,
      publicUrl,
      ready: () => services.store.ping(),
      lifecycle,
      connections: connectionCounts,
      rateLimitDegradedSeconds: limits.degradedSeconds,
      cluster: options.coordinator,
      forwardWritesTo: options.writer?.role === 'forwarder' ? options.writer.socketPath : undefined,
      logStream: options.logStream,
    },
    certificate,
  );
  logger.log = http.log;
  // Typed-field expression indexes: built after each model change made here, and checked at start.
  services.contentModel.indexer.onError = backgroundError('could not build or drop a typed-field index');
  void services.contentModel.indexer.reconcile();
  // SQLite with one writer: the background loops (all of them write) run in the writer alone.
  const background = options.writer?.role !== 'forwarder';
  const retention = background
    ? startEventRetention(services.events, config.eventRetentionDays, clock, backgroundError('event pruning failed'))
    : { runNow: () => Promise.resolve(), stop: () => Promise.resolve() };
  const timers = [
    // last_used_at is gathered in memory and written every 30 s (CONTRACT.md §7 allows a minute's lag).
    every(30_000, () => services.auth.flushLastUsed(), backgroundError('could not record key use')),
    // Quota usage is counted in memory and written in batches: a crash loses at most FLUSH_EVERY_MS of it.
    every(FLUSH_EVERY_MS, () => limits.flush(), backgroundError('could not record quota usage')),
  ];
  if (background) timers.push(
    // Ended dashboard sessions are refused anyway; their rows are deleted hourly.
    every(3_600_000, () => services.sessions.prune(), backgroundError('could not prune sessions')),
    // Expired OAuth tokens, codes, grants and sign-ins in progress are refused anyway; their rows go hourly.
    every(3_600_000, () => services.authorizationServer.prune(), backgroundError('could not prune OAuth records')),
    // Sunset reminders and "your key expires in 7 days" (once each, whichever instance gets there first), and mail housekeeping.
    every(3_600_000, () => services.mail.schedule.run(), backgroundError('could not run the mail schedule')),
    // Media bytes no record names (uploads that never committed, deleted media) go within the hour.
    every(30 * 60_000, () => services.media.sweep(), backgroundError('could not sweep media')),
    // Expired idempotency keys are free anyway (a claim takes them over); their rows are deleted hourly.
    every(3_600_000, () => services.idempotency.prune(), backgroundError('could not prune idempotency keys')),
  );
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
  if (background) worker.start();
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
  if (background) mailWorker.start();
  // Scheduled publishing: the same loop over the due transitions, woken on the second the next one
  // falls due (the queue says when), when a time is set here, and by its poll. One account's
  // transitions take its write turn one after another anyway: a few at a time per account.
  const scheduleWorker = new OutboxWorker(
    services.publishing.scheduler,
    new TransitionSender(services.publishing.scheduler),
    { label: 'scheduled transition', leaseMs: config.webhookLeaseSeconds * 1000, maxInFlight: 32, maxPerPartition: 4, partitionOf: (transition) => transition.accountId },
    http.log,
  );
  services.publishing.wake.listen(() => scheduleWorker.wake());
  if (background) scheduleWorker.start();
  // Migration 015's slugs for existing items: one batch at a time, on whichever instance holds the task.
  const backfillWorker = new OutboxWorker(
    services.publishing.backfill,
    new BackfillRunner(services.publishing.backfill),
    { label: 'slug backfill', leaseMs: config.webhookLeaseSeconds * 1000, maxInFlight: 1, maxPerPartition: 1, partitionOf: () => 'all' },
    http.log,
  );
  if (background) backfillWorker.start();
  // Bulk jobs: one chunk at a time per job (each a transaction of its account), a few jobs at once;
  // each job pauses between chunks as long as its last chunk took (docs/bulk.md).
  const jobWorker = new OutboxWorker(
    services.jobs,
    new JobRunner(services.jobs, http.log),
    { label: 'bulk job chunk', leaseMs: config.webhookLeaseSeconds * 1000, maxInFlight: 4, maxPerPartition: 1, partitionOf: (job) => job.accountId },
    http.log,
  );
  services.jobs.wake.listen(() => jobWorker.wake());
  if (background) jobWorker.start();
  let closed: Promise<void> | undefined;
  /** The writer's local socket for the other workers' writes. */
  let writes: import('node:http').Server | undefined;

  async function close(): Promise<void> {
    lifecycle.closing = true;
    // WebSocket connections are long-lived: tell them to go (1001) rather than wait for them.
    live.closeAll();
    // In-flight webhook attempts and e-mails get the same grace as requests, in parallel with them.
    const grace = config.shutdownGraceSeconds * 1000;
    const workerStopped = Promise.all([worker.stop(grace), mailWorker.stop(grace), scheduleWorker.stop(grace), backfillWorker.stop(grace), jobWorker.stop(grace)]);
    // The writer keeps taking the other workers' writes while its own connections drain.
    if (listener) await closeConnections(listener, lifecycle, config.shutdownGraceSeconds * 1000);
    if (writes) {
      const stopped = new Promise((resolve) => writes!.close(resolve));
      writes.closeIdleConnections();
      await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      writes.closeAllConnections();
    }
    await Promise.all([http.close(), workerStopped]);
    for (const timer of timers) clearInterval(timer);
    stream.close();
    await retention.stop();
    await services.auth.flushLastUsed().catch(() => {});
    await limits.close().catch((error: unknown) => http.log.warn({ err: error }, 'could not record quota usage'));
    await services.contentModel.indexer.settled();
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
      if (background) void services.mail.schedule.run().catch(backgroundError('could not run the mail schedule'));
      if (options.writer?.role === 'writer') writes = await listenForWrites(http, options.writer.socketPath, config.tls.mode === 'on');
      return listener;
    },
    publicUrl,
    runMailSchedule: () => services.mail.schedule.run(),
    /** Resolves once the typed-field indexes asked for so far are built (tests). */
    fieldIndexesSettled: () => services.contentModel.indexer.settled(),
    pruneEvents: () => retention.runNow(),
    sweepMedia: (graceMs) => services.media.sweep(graceMs),
    shutdown: () => (closed ??= close()),
  };
}

/** Runs `task` every `ms` in the background (never keeping the process alive), reporting failures. */
function every(ms: number, task: () => Promise<unknown>, onError: (error: unknown) => void): NodeJS.Timeout {
  const timer = setInterval(() => void task().catch(onError), ms);
  timer.unref();
  return timer;
}
