// Storage and domain services, built from a Config without any HTTP: shared by the server's
// composition root (app.ts) and the administration CLI, which needs no web stack.
import type { Config } from './config.js';
import { openStore, type Store } from './storage/db.js';
import { AccountRepository } from './storage/account-repository.js';
import { ApiKeyRepository } from './storage/api-key-repository.js';
import { ContentRepository } from './storage/content-repository.js';
import { UserRepository } from './storage/user-repository.js';
import { EventRepository } from './storage/event-repository.js';
import { AccountService } from './domain/accounts.js';
import { ApiKeyService } from './domain/api-keys.js';
import { Authenticator } from './domain/auth.js';
import { ContentService } from './domain/content.js';
import { EventLog, LocalEventSignal, type EventSignal } from './domain/events.js';
import { systemClock, type Clock } from './domain/ids.js';
import { UserService } from './domain/users.js';
import { WebhookDeliveryRepository } from './storage/webhook-delivery-repository.js';
import { WebhookEndpointRepository } from './storage/webhook-endpoint-repository.js';
import { DeliveryService } from './domain/webhook-deliveries.js';
import { DeliveryWake, WebhookQueue } from './domain/webhook-queue.js';
import { DEFAULT_RETRY_SCHEDULE } from './domain/webhook-schedule.js';
import { WebhookService } from './domain/webhooks.js';

/** Opens the store (applying migrations) and builds the domain services on it. */
export async function openServices(config: Config, clock: Clock = systemClock, signalFor: (store: Store) => EventSignal = (store) => new LocalEventSignal(store)) {
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
  const signal = signalFor(store);
  const eventRepo = new EventRepository(store.dialect);
  const events = new EventLog(store, eventRepo, clock, signal);
  // Webhook deliveries are queued in the transaction of the change that emitted the events.
  const endpointRepo = new WebhookEndpointRepository();
  const deliveryRepo = new WebhookDeliveryRepository(store.dialect);
  events.addSink(new WebhookQueue(endpointRepo, deliveryRepo));
  const deliveryWake = new DeliveryWake();
  return {
    store,
    auth,
    apiKeys,
    signal,
    events,
    accounts: new AccountService(store, new AccountRepository(), userRepo, apiKeys, events, clock),
    users: new UserService(store, userRepo, events, clock, auth),
    content: new ContentService(store, new ContentRepository(), events, clock),
    deliveryWake,
    webhooks: new WebhookService(store, endpointRepo, deliveryRepo, eventRepo, events, clock, config.webhookAllowPrivate, deliveryWake),
    webhookDeliveries: new DeliveryService(store, endpointRepo, deliveryRepo, events, clock, config.webhookRetrySchedule ?? DEFAULT_RETRY_SCHEDULE),
  };
}
