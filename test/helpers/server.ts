// Starts the real app in process on a random loopback port, over HTTPS, on a real store, and
// tears it all down afterwards. Also factories for accounts and content.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createApp, type App } from '../../src/app.js';
import { loadConfig, type Plan } from '../../src/config.js';
import type { Clock } from '../../src/domain/ids.js';
import type { Resolver } from '../../src/domain/webhooks/targets.js';
import { Client } from './client.js';
import { createPostgresDatabase, type StoreKind } from './stores.js';

export interface TestAccount {
  accountId: string;
  userId: string;
  key: string;
  /** The owner's dashboard password. */
  password: string;
  email: string;
}

export interface TestServer {
  app: App;
  client: Client;
  baseUrl: string;
  port: number;
  dataDir: string;
  /** On PostgreSQL, the database created for this server (as the test runner reaches it). */
  databaseUrl?: string;
  /** Every log line written so far. */
  logs: string[];
  /** A fresh account with an owner and a key. */
  account(options?: { plan?: Plan; email?: string; rateLimit?: number; quota?: number }): Promise<TestAccount>;
  /** Creates a content item and returns its body (`data`). */
  content(key: string, fields?: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

let counter = 0;

export interface ServerOptions {
  env?: Record<string, string>;
  clock?: Clock;
  wsPingIntervalMs?: number;
  eventPollMs?: number;
  /** On PostgreSQL, the URL the app uses for the database created for it (a relay's, say). */
  databaseUrl?: (created: string) => string;
  /** Resolves webhook hosts instead of the system's DNS. */
  resolver?: Resolver;
}

export async function startServer(store: StoreKind, options: ServerOptions = {}): Promise<TestServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-test-'));
  const pgDb = store === 'postgres' ? await createPostgresDatabase() : undefined;
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...(pgDb ? { DATABASE_URL: options.databaseUrl?.(pgDb.url) ?? pgDb.url } : {}),
    ...options.env,
  });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const app = await createApp(config, { clock: options.clock, logStream, wsPingIntervalMs: options.wsPingIntervalMs, eventPollMs: options.eventPollMs, resolver: options.resolver });
  const listener = await app.listen();
  // TLS=off (behind a proxy) speaks plain HTTP and generates no certificate.
  const tls = config.tls.mode === 'on';
  const baseUrl = `${tls ? 'https' : 'http'}://127.0.0.1:${listener.address.port}`;
  const ca = tls ? await fs.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8') : undefined;
  const client = new Client(baseUrl, ca);

  return {
    app,
    client,
    baseUrl,
    port: listener.address.port,
    dataDir,
    databaseUrl: pgDb?.url,
    logs,
    async account(opts = {}) {
      const email = opts.email ?? `owner${++counter}-${process.pid}-${Date.now()}@example.com`;
      const created = await app.accounts.createAccount({
        email,
        plan: opts.plan ?? 'pro',
        rateLimit: opts.rateLimit,
        quota: opts.quota,
      });
      return { accountId: created.account_id, userId: created.user_id, key: created.api_key, password: created.password, email: email.toLowerCase() };
    },
    async content(key, fields = {}) {
      const res = await client.post('/v1/content', { key, json: { title: 'A title', type: 'blog', content: '# Hello', ...fields } });
      if (res.status !== 201) throw new Error(`content factory: ${res.status} ${res.text}`);
      return res.body.data;
    },
    async close() {
      client.close();
      await app.shutdown();
      await pgDb?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
