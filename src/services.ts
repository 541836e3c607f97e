// Storage and domain services, built from a Config without any HTTP: shared by the server's
// composition root (app.ts) and the administration CLI, which needs no web stack.
import type { Config } from './config.js';
import { openStore } from './storage/db.js';
import { AccountRepository } from './storage/account-repository.js';
import { ApiKeyRepository } from './storage/api-key-repository.js';
import { ContentRepository } from './storage/content-repository.js';
import { UserRepository } from './storage/user-repository.js';
import { EventRepository } from './storage/event-repository.js';
import { AccountService } from './domain/accounts.js';
import { ApiKeyService } from './domain/api-keys.js';
import { Authenticator } from './domain/auth.js';
import { ContentService } from './domain/content.js';
import { EventLog } from './domain/events.js';
import { openSignal } from './storage/signals/index.js';
import { EventFeed } from './domain/event-feed.js';
import { systemClock, type Clock } from './domain/ids.js';
import { UserService } from './domain/users.js';

export interface ServiceOptions {
  clock?: Clock;
  /** Hear other instances' event signals (the server); the CLI only writes. */
  listen?: boolean;
  onError?: (error: unknown) => void;
}

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
    users: new UserService(store, userRepo, events, clock, auth),
    content: new ContentService(store, new ContentRepository(), events, clock),
    /** Closes the signal's connections, then the store. */
    async close() {
      await signal.close().catch(() => {});
      await store.close();
    },
  };
}
