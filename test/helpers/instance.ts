// A second app instance on the store of a running test server, as a load balancer would run it:
// the same database (the same SQLite file, or the same PostgreSQL database) and nothing else shared.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { Client } from './client.js';
import type { TestServer } from './server.js';

export interface SecondInstance {
  app: App;
  client: Client;
  /** Shuts the instance down (flushing what it keeps in memory) and removes its own files. */
  close(): Promise<void>;
}

/** `env` adds configuration, such as the first instance's WEBHOOK_* settings. */
export async function startSecondInstance(server: TestServer, env: Record<string, string> = {}): Promise<SecondInstance> {
  const store = server.app.config.store;
  // SQLite lives in DATA_DIR, so share it; on PostgreSQL the instance gets a directory of its own.
  const dataDir = store.kind === 'sqlite' ? server.dataDir : await fs.mkdtemp(path.join(os.tmpdir(), 'cms-second-'));
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...(store.kind === 'postgres' ? { DATABASE_URL: store.url } : {}),
    ...env,
  });
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const app = await createApp(config, { logStream: sink });
  const listener = await app.listen();
  const ca = await fs.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8');
  const client = new Client(`https://127.0.0.1:${listener.address.port}`, ca);
  let closed: Promise<void> | undefined;
  return {
    app,
    client,
    close: () =>
      (closed ??= (async () => {
        client.close();
        await app.shutdown();
        if (dataDir !== server.dataDir) await fs.rm(dataDir, { recursive: true, force: true });
      })()),
  };
}
