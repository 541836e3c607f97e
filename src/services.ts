// Storage and domain services, built from a Config without any HTTP: shared by the server's
// composition root (app.ts) and the administration CLI, which needs no web stack.
import { publicUrlOf, type Config } from './config.js';
import { openStore } from './storage/db.js';
import type { StoreStateListener } from './storage/health.js';
import { AccountRepository } from './storage/account-repository.js';
import { ApiKeyRepository } from './storage/api-key-repository.js';
import { ContentRepository } from './storage/content-repository.js';
import { UserRepository } from './storage/user-repository.js';
import { EventRepository } from './storage/event-repository.js';
import { AccountService } from './domain/users/accounts.js';
import { ApiKeyService } from './domain/auth/api-keys.js';
import { Authenticator } from './domain/auth/authenticator.js';
import { ContentService } from './domain/content/content.js';
import { ContentRevisions } from './domain/content/revisions.js';
import { ContentWrites } from './domain/content/content-writes.js';
import { ContentBatch } from './domain/content/content-batch.js';
import { BulkJobs } from './domain/jobs/bulk-jobs.js';
import { ContentJobRepository } from './storage/content-job-repository.js';
import { RevisionRepository } from './storage/revision-repository.js';
import { EventLog } from './domain/events/event-log.js';
import { openSignal } from './storage/signals/index.js';
import { EventFeed } from './domain/events/event-feed.js';
import { systemClock, type Clock } from './domain/ids.js';
import { UserService } from './domain/users/users.js';
import { MemoryRateStore, type RateStore } from './storage/rate-store.js';
import { RedisRateStore, type RedisStateListener } from './storage/redis-rate-store.js';
import { UsageRepository } from './storage/usage-repository.js';
import { RateLimiter } from './domain/limits/rate-limiter.js';
import { UsageAlerts } from './domain/limits/usage-alerts.js';
import { UsageLedger } from './domain/limits/usage-ledger.js';
import { UsageService } from './domain/limits/usage.js';
import { SessionService } from './domain/auth/sessions.js';
import { SessionRepository } from './storage/session-repository.js';
import { ApiKeyCredentials } from './domain/auth/api-key-credentials.js';
import { OAuthAppRepository } from './storage/oauth-app-repository.js';
import { OAuthGrantRepository } from './storage/oauth-grant-repository.js';
import { OAuthTokenRepository } from './storage/oauth-token-repository.js';
import { AccessTokenCredentials } from './domain/oauth/token-credentials.js';
import { OAuthAppService } from './domain/oauth/apps.js';
import { OAuthAuthorizationService } from './domain/oauth/authorizations.js';
import { AuthorizationServerStore } from './domain/oauth/server-store.js';
import { IdempotencyService } from './domain/idempotency/idempotency.js';
import { IdempotencyRepository } from './storage/idempotency-repository.js';
import type { Coordinator } from './cluster/coordinator.js';
import { CoordinatedRateStore } from './storage/coordinated-rate-store.js';
import { RelayedEventSignal } from './storage/signals/relayed-signal.js';

export interface ServiceOptions {
  clock?: Clock;
  /** Hear other instances' event signals (the server); the CLI only writes. */
  listen?: boolean;
  onError?: (error: unknown) => void;
  /** The public URL e-mail links are built from (the server's own once it listens); PUBLIC_URL or HOST:PORT otherwise. */
  publicUrl?: () => string;
  /** Where mail failures are logged. */
  mailLog?: MailLog;
  /** Hears when the store stops answering and when it answers again (once per change). */
  onStoreState?: StoreStateListener;
  /** Resolves webhook hosts (the system's resolver unless a test plays DNS). */
  resolver?: Resolver;
  /** With WORKERS > 1: the other server processes of this host, reached through the cluster primary. */
  coordinator?: Coordinator;
  /** SQLite: checkpoint the WAL on a thread (the server's writer; see StoreOptions). */
  checkpointThread?: boolean;
  /** Hears why the checkpoint thread cannot work, should it fail (see StoreOptions). */
  onCheckpointFallback?: (reason: string) => void;
}
import { WebhookDeliveryRepository } from './storage/webhook-delivery-repository.js';
import { WebhookEndpointRepository } from './storage/webhook-endpoint-repository.js';
import { DeliveryService } from './domain/webhooks/deliveries.js';
import { WebhookQueue } from './domain/webhooks/queue.js';
import { Wake } from './domain/outbox.js';
import { DEFAULT_RETRY_SCHEDULE } from './domain/webhooks/schedule.js';
import { WebhookService } from './domain/webhooks/endpoints.js';
import type { MailLog } from './domain/mail/outbox.js';
import { openMail } from './mail-services.js';
import { DeprecatedCalls } from './domain/limits/deprecated-calls.js';
import type { Resolver } from './domain/webhooks/targets.js';
import { openPublishing } from './publishing-services.js';
import { AtomFeeds } from './domain/publishing/feed.js';
import { openContentModel } from './content-model-services.js';
import { openMedia } from './media-services.js';
import type { ContentType } from './domain/schemas/content.js';

/** Opens the store (applying migrations) and builds the domain services on it. */
export async function openServices(config: Config, options: ServiceOptions = {}) {
  const clock = options.clock ?? systemClock;
  const store = openStore(config.store, options.onStoreState, { checkpointThread: options.checkpointThread, onCheckpointFallback: options.onCheckpointFallback });
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  const userRepo = new UserRepository();
  const keyRepo = new ApiKeyRepository();
  const oauthAppRepo = new OAuthAppRepository();
  const oauthGrantRepo = new OAuthGrantRepository();
  const oauthTokenRepo = new OAuthTokenRepository();
  // API keys and OAuth access tokens become the same Principal, in one cache.
  const auth = new Authenticator([new ApiKeyCredentials(store, keyRepo), new AccessTokenCredentials(store, oauthTokenRepo, oauthGrantRepo)], clock);
  const apiKeys = new ApiKeyService(store, keyRepo, userRepo, clock, auth);
  let signal;
  try {
    signal = await openSignal(config, store, options.listen ?? false, options.onError ?? (() => {}));
    // On SQLite the signal is in-process: the other workers hear it through the primary. (PostgreSQL's
    // NOTIFY and Redis pub/sub reach every process already.)
    if (options.coordinator && config.store.kind === 'sqlite') signal = new RelayedEventSignal(signal, store, options.coordinator);
  } catch (error) {
    await store.close();
    throw error;
  }
  const eventRepo = new EventRepository(store.dialect);
  const events = new EventLog(store, eventRepo, clock, signal);
  // Webhook deliveries are queued in the transaction of the change that emitted the events.
  const endpointRepo = new WebhookEndpointRepository(store.dialect);
  const deliveryRepo = new WebhookDeliveryRepository(store.dialect);
  events.addSink(new WebhookQueue(endpointRepo, deliveryRepo));
  const deliveryWake = new Wake();
  const sessionRepo = new SessionRepository();
  const sessions = new SessionService(store, sessionRepo, userRepo, clock, config.sessions);
  if (options.coordinator) {
    // Revocations, deletions, role changes and sign-outs reach the other workers' caches at once.
    auth.relayTo(options.coordinator);
    sessions.relayTo(options.coordinator);
  }
  // A role change, a deletion or a new password reaches cached keys and cached dashboard sessions alike.
  const userChanged = {
    userChanged(userId: string) {
      auth.userChanged(userId);
      sessions.userChanged(userId);
    },
  };
  // E-mail is queued in the transaction of its cause: quota alerts ride on the usage alert events.
  const contentRepo = new ContentRepository(store.dialect);
  const revisions = new ContentRevisions(store, new RevisionRepository(), config.revisionsKeep);
  const mail = openMail(config, { store, clock, events, users: userRepo, sessions: sessionRepo, userChanged, publicUrl: options.publicUrl, log: options.mailLog });
  events.addSink(mail.notices);
  const writes = new ContentWrites(contentRepo, clock, revisions);
  // Slugs and schedules are steps of every content write; the scheduler makes the timed transitions.
  // Typed fields: checked on every write against the type's model, in the write's transaction.
  const contentModel = openContentModel({ store, clock, events, writes, content: contentRepo, relay: options.coordinator });
  const publishing = openPublishing(config, { store, clock, events, writes, content: contentRepo, users: userRepo, mail, publicUrl: options.publicUrl });
  const models = async (accountId: string, type: string) => (await contentModel.types.model(accountId, type as ContentType)).fields;
  const content = new ContentService(store, contentRepo, events, writes, revisions, models, config.listCacheEntries, config.itemCacheMb * 1024 * 1024);
  // Media: references in content are a step of every content write, and `media` fields check ids through it.
  let media;
  try {
    media = await openMedia(config, { store, clock, events, writes, publicUrl: options.publicUrl ?? (() => publicUrlOf(config)) });
  } catch (error) {
    await signal.close().catch(() => {});
    await store.close();
    throw error;
  }
  contentModel.types.media = media.references;
  const references = media.references;
  content.resolveMedia = (accountId, html) => store.run((db) => references.resolve(db, accountId, html));
  return {
    store,
    auth,
    apiKeys,
    signal,
    events,
    feed: new EventFeed(store, eventRepo),
    /** The last event numbers of some accounts, for the live stream's safety poll. */
    heads: (accountIds: string[]) => store.run((db) => eventRepo.lastSeqs(db, accountIds)),
    accounts: new AccountService(store, new AccountRepository(), userRepo, apiKeys, events, clock),
    users: new UserService(store, userRepo, events, clock, userChanged, sessionRepo, mail.passwordLinks),
    sessions,
    content,
    /** Content batches (POST /v1/content/batch): the same writes, several in one transaction. */
    contentBatch: new ContentBatch(events, writes),
    /** Bulk jobs (POST /v1/content/bulk, /v1/jobs) and their queue for the outbox worker. */
    jobs: new BulkJobs(store, new ContentJobRepository(store.dialect), contentRepo, writes, events, userRepo, clock, new Wake(), { models, fields: contentModel.fields }),
    /** The Atom feed of published items (rendered by the content service's one Markdown entry point). */
    feeds: new AtomFeeds(store, contentRepo, userRepo, content, options.publicUrl ?? (() => publicUrlOf(config))),
    deliveryWake,
    idempotency: new IdempotencyService(store, new IdempotencyRepository(), clock, config.idempotencyLeaseSeconds * 1000),
    webhooks: new WebhookService(store, endpointRepo, deliveryRepo, eventRepo, events, clock, config.webhookAllowPrivate, deliveryWake, options.resolver),
    oauthApps: new OAuthAppService(store, oauthAppRepo, clock, auth),
    authorizations: new OAuthAuthorizationService(store, oauthGrantRepo, oauthAppRepo, clock, auth),
    /** What the OAuth authorization server (built by the HTTP layer, on first use) keeps. */
    authorizationServer: new AuthorizationServerStore({
      store,
      apps: oauthAppRepo,
      grants: oauthGrantRepo,
      tokens: oauthTokenRepo,
      users: userRepo,
      settings: new AccountRepository(),
      clock,
      listener: auth,
    }),
    webhookDeliveries: new DeliveryService(store, endpointRepo, deliveryRepo, events, clock, config.webhookRetrySchedule ?? DEFAULT_RETRY_SCHEDULE, mail.notices),
    mail,
    publishing,
    /** Content models (typed fields per type) and their expression indexes. */
    contentModel,
    contentTypes: contentModel.types,
    /** The media library (its store, records, variants and sweep). */
    media,
    /** Closes the signal's connections, then the store. */
    async close() {
      await media.close().catch(() => {});
      await signal.close().catch(() => {});
      await store.close();
    },
  };
}

type Services = Awaited<ReturnType<typeof openServices>>;

/**
 * Rate limits and quotas (server only: the CLI needs none): counters in this process, or in Redis
 * when REDIS_URL is set; usage recorded in the store in batches.
 */
export async function openLimits(config: Config, services: Services, clock: Clock = systemClock, onRedisState: RedisStateListener = () => {}, coordinator?: Coordinator) {
  // Several workers without Redis share the primary's counters, so the limits stay exact across them.
  let rates: RateStore = coordinator ? new CoordinatedRateStore(coordinator) : new MemoryRateStore();
  let degradedSeconds = () => 0;
  if (config.redisUrl !== undefined && config.limits.enabled) {
    const redis = new RedisRateStore(config.redisUrl, config.limits.redisKeyPrefix, onRedisState, config.limits.onRedisDown === 'closed');
    // Start without Redis rather than not at all: the store is in its outage mode until it connects.
    await redis.connected(2000);
    rates = redis;
    degradedSeconds = () => redis.degradedSeconds();
  }
  const repo = new UsageRepository();
  const ledger = new UsageLedger(services.store, repo);
  const alerts = new UsageAlerts(services.events, repo, clock);
  const limiter = new RateLimiter(rates, ledger, alerts, config.limits, clock);
  services.users.limitInvitations(limiter);
  // Calls to deprecated routes are counted like usage, and written with it; the notice rides on that write.
  const { mail } = services;
  const deprecatedCalls = new DeprecatedCalls(services.store, mail.deprecatedCallRepo, clock, config.deprecations, mail.deprecationNotices);
  let pruned = 0;
  return {
    limiter,
    deprecatedCalls,
    usage: new UsageService(services.store, repo, ledger, limiter, config.limits, clock, deprecatedCalls, mail.deprecatedCallRepo, (accountId, plan) => services.media.media.storage(accountId, plan)),
    /** Seconds this instance has spent without Redis, counting alone or refusing (for /metrics). */
    degradedSeconds,
    /** Writes the usage gathered so far (every few seconds, and on shutdown); now and then prunes old alert markers. */
    async flush() {
      await Promise.all([ledger.flush(), deprecatedCalls.flush()]);
      if (Date.now() - pruned < 3_600_000) return;
      pruned = Date.now();
      // A marker matters until its cycle (at most a month) or window is over; keep two months.
      const before = new Date(clock().getTime() - 62 * 24 * 3_600_000).toISOString();
      await services.store.run((db) => repo.pruneAlerts(db, before));
    },
    /** Waits for alerts being written, writes the last usage, lets go of Redis. The store stays open. */
    async close() {
      await alerts.settled();
      await Promise.all([ledger.flush(), deprecatedCalls.flush()]);
      await rates.close();
    },
  };
}
