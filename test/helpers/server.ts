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
import { Coordinator } from '../../src/cluster/coordinator.js';
import { Hub } from '../../src/cluster/hub.js';
import { inProcessLink } from '../../src/cluster/links.js';
import { startBalancer, type Balancer } from './balancer.js';

/**
 * TEST_WORKERS=2: every test server is two app instances on the same store, coordinated through a
 * hub in this process exactly as WORKERS=2 workers are through the cluster primary, behind a
 * round-robin balancer — so every test's connections alternate between them. `app` is instance 0.
 */
export const TEST_WORKERS = Number(process.env.TEST_WORKERS ?? '1');

/**
 * Guards an assertion about one process (its cache, its log, its metric): true with one instance;
 * under TEST_WORKERS > 1 false, and the test's output says which assertion was left out and why.
 */
export function oneProcess(t: { diagnostic(message: string): void }, why: string): boolean {
  if (TEST_WORKERS <= 1) return true;
  t.diagnostic(`TEST_WORKERS=${TEST_WORKERS}: assertion not made: ${why}`);
  return false;
}

export interface TestAccount {
  accountId: string;
  userId: string;
  key: string;
  /** The owner's dashboard password. */
  password: string;
  email: string;
}

export interface TestServer {
  /** The app (instance 0 under TEST_WORKERS=2). */
  app: App;
  /** Every instance: [app] normally, two under TEST_WORKERS=2. */
  apps: App[];
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
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    // Five connections per instance: three test files at a time, each with servers of two instances
    // under TEST_WORKERS=2, stay well under PostgreSQL's default max_connections (100).
    ...(pgDb ? { DATABASE_URL: options.databaseUrl?.(pgDb.url) ?? pgDb.url, DATABASE_POOL_SIZE: '5' } : {}),
    ...options.env,
  };
  // The balancer listens first (it learns the instances' ports below): its address is the one
  // public URL the instances share, as cluster workers share their port.
  const ports: number[] = [];
  const balancer: Balancer | undefined = TEST_WORKERS > 1 ? await startBalancer(ports) : undefined;
  const tlsOn = (env.TLS ?? 'on') === 'on';
  const config = loadConfig(balancer && env.PUBLIC_URL === undefined ? { ...env, PUBLIC_URL: `${tlsOn ? 'https' : 'http'}://127.0.0.1:${balancer.port}` } : env);
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const appOptions = { clock: options.clock, logStream, wsPingIntervalMs: options.wsPingIntervalMs, eventPollMs: options.eventPollMs, resolver: options.resolver };
  const hub = TEST_WORKERS > 1 ? new Hub() : undefined;
  const links: ReturnType<typeof inProcessLink>[] = [];
  const apps: App[] = [];
  // One after the other, as the cluster primary migrates first: the first makes the certificate, the others read it.
  for (let i = 0; i < Math.max(1, TEST_WORKERS); i++) {
    const link = hub ? inProcessLink(hub, i + 1) : undefined;
    if (link) links.push(link);
    const instance = await createApp(config, { ...appOptions, coordinator: link ? new Coordinator(link, i + 1) : undefined });
    apps.push(instance);
    ports.push((await instance.listen()).address.port);
  }
  const app = apps[0]!;
  const port = balancer?.port ?? ports[0]!;
  // TLS=off (behind a proxy) speaks plain HTTP and generates no certificate.
  const tls = config.tls.mode === 'on';
  const baseUrl = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const ca = tls ? await fs.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8') : undefined;
  const client = new Client(baseUrl, ca);

  return {
    app,
    apps,
    client,
    baseUrl,
    port,
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
      await balancer?.close();
      await Promise.all(apps.map((a) => a.shutdown()));
      for (const link of links) link.close();
      await pgDb?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
