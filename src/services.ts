// Storage and domain services, built from a Config without any HTTP: shared by the server's
// composition root (app.ts) and the administration CLI, which needs no web stack.
import type { Config } from './config.js';
import { openStore } from './storage/db.js';
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
import { IdempotencyService } from './domain/idempotency/idempotency.js';
import { IdempotencyRepository } from './storage/idempotency-repository.js';

export interface ServiceOptions {
  clock?: Clock;
  /** Hear other instances' event signals (the server); the CLI only writes. */
  listen?: boolean;
  onError?: (error: unknown) => void;
}
import { WebhookDeliveryRepository } from './storage/webhook-delivery-repository.js';
import { WebhookEndpointRepository } from './storage/webhook-endpoint-repository.js';
import { DeliveryService } from './domain/webhooks/deliveries.js';
import { DeliveryWake, WebhookQueue } from './domain/webhooks/queue.js';
import { DEFAULT_RETRY_SCHEDULE } from './domain/webhooks/schedule.js';
import { WebhookService } from './domain/webhooks/endpoints.js';

/** Opens the store (applying migrations) and builds the domain services on it. */
export async function openServices(config: Config, options: ServiceOptions = {}) {
  const clock = options.clock ?? systemClock;
  const store = openStore(config.store);
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  const userRepo = new UserRepository();
  const keyRepo = new ApiKeyRepository();
  const auth = new Authenticator(store, keyRepo, clock);
  const apiKeys = new ApiKeyService(store, keyRepo, userRepo, clock, auth);
  let signal;
  try {
    signal = await openSignal(config, store, options.listen ?? false, options.onError ?? (() => {}));
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
  const deliveryWake = new DeliveryWake();
  const sessionRepo = new SessionRepository();
  const sessions = new SessionService(store, sessionRepo, userRepo, clock, config.sessions);
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
    // A role change or deletion reaches cached keys and cached dashboard sessions alike.
    users: new UserService(
      store,
      userRepo,
      events,
      clock,
      {
        userChanged(userId) {
          auth.userChanged(userId);
          sessions.userChanged(userId);
        },
      },
      sessionRepo,
    ),
    sessions,
    content: new ContentService(
      store,
      new ContentRepository(store.dialect),
      events,
      clock,
      new ContentRevisions(store, new RevisionRepository(), config.revisionsKeep),
      config.listCacheEntries,
    ),
    deliveryWake,
    idempotency: new IdempotencyService(store, new IdempotencyRepository(), clock, config.idempotencyLeaseSeconds * 1000),
    webhooks: new WebhookService(store, endpointRepo, deliveryRepo, eventRepo, events, clock, config.webhookAllowPrivate, deliveryWake),
    webhookDeliveries: new DeliveryService(store, endpointRepo, deliveryRepo, events, clock, config.webhookRetrySchedule ?? DEFAULT_RETRY_SCHEDULE),
    /** Closes the signal's connections, then the store. */
    async close() {
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
export async function openLimits(config: Config, services: Services, clock: Clock = systemClock, onRedisState: RedisStateListener = () => {}) {
  let rates: RateStore = new MemoryRateStore();
  if (config.redisUrl !== undefined && config.limits.enabled) {
    const redis = new RedisRateStore(config.redisUrl, config.limits.redisKeyPrefix, onRedisState);
    // Start without Redis rather than not at all: the store fails open until it connects.
    if (!(await redis.connected(2000))) onRedisState('down', new Error('Redis did not answer within 2 s of start-up'));
    rates = redis;
  }
  const repo = new UsageRepository();
  const ledger = new UsageLedger(services.store, repo);
  const alerts = new UsageAlerts(services.events, repo, clock);
  const limiter = new RateLimiter(rates, ledger, alerts, config.limits, clock);
  let pruned = 0;
  return {
    limiter,
    usage: new UsageService(services.store, repo, ledger, limiter, config.limits, clock),
    /** Writes the usage gathered so far (every few seconds, and on shutdown); now and then prunes old alert markers. */
    async flush() {
      await ledger.flush();
      if (Date.now() - pruned < 3_600_000) return;
      pruned = Date.now();
      // A marker matters until its cycle (at most a month) or window is over; keep two months.
      const before = new Date(clock().getTime() - 62 * 24 * 3_600_000).toISOString();
      await services.store.run((db) => repo.pruneAlerts(db, before));
    },
    /** Waits for alerts being written, writes the last usage, lets go of Redis. The store stays open. */
    async close() {
      await alerts.settled();
      await ledger.flush();
      await rates.close();
    },
  };
}
