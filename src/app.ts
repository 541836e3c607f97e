// The composition root: builds storage, domain services and HTTP from a Config. No module-level
// singletons; tests build their own app with their own store.
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { openStore, type Store } from './storage/db.js';
import { AccountRepository } from './storage/account-repository.js';
import { ContentRepository } from './storage/content-repository.js';
import { AccountService } from './domain/accounts.js';
import { Authenticator } from './domain/auth.js';
import { ContentService } from './domain/content.js';
import { systemClock, type Clock } from './domain/ids.js';
import { loadCertificate } from './http/certificate.js';
import { Lifecycle } from './http/lifecycle.js';
import { buildHttpApp } from './http/server.js';
import { listen, type Listener } from './http/transport.js';

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

/** Opens the store (applying migrations) and builds the services; only the store, for the CLI. */
export async function openServices(config: Config, clock: Clock = systemClock) {
  const store = openStore(config.store);
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  const accountRepo = new AccountRepository();
  return {
    store,
    accounts: new AccountService(store, accountRepo, clock),
    auth: new Authenticator(store, accountRepo, clock),
    content: new ContentService(store, new ContentRepository(), clock),
  };
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const services = await openServices(config, options.clock);
  const lifecycle = new Lifecycle();
  const certificate = config.tls.mode === 'on' ? await loadCertificate(config.tls, config.dataDir) : undefined;
  const http = await buildHttpApp(
    { config, content: services.content, auth: services.auth, ready: () => services.store.ping(), lifecycle, logStream: options.logStream },
    certificate,
  );
  let listener: Listener | undefined;
  let closed: Promise<void> | undefined;

  async function close(): Promise<void> {
    lifecycle.closing = true;
    if (listener) {
      void listener.stopAccepting();
      listener.closeIdle();
      await lifecycle.drained(config.shutdownGraceSeconds * 1000);
      listener.closeAll();
    }
    await http.close();
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
