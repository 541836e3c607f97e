// Batches and bulk jobs (issue 26), on an in-process server (RATE_LIMITS=off):
// 1. items/s of creates: 100-item batches against single creates, both with --connections in flight;
// 2. a bulk publish of --bulk items: the job's items/s, and the p99 of GET /v1/content at 20
//    connections for --seconds without the job, then while it runs (the contract: within 2×).
// SQLite by default; --database-url postgres://… runs on that (empty) database instead.
// Usage: tsx bench/bulk.ts [--items 2000] [--bulk 100000] [--seconds 10] [--connections 8] [--database-url URL]
// A smoke run on a shared machine: tsx bench/bulk.ts --items 200 --bulk 1000 --seconds 2
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, setGlobalDispatcher } from 'undici';
import { sql } from 'kysely';
import { createCmsClient, type CmsClient } from '@cms-service/client';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '2000' },
    bulk: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '8' },
    'database-url': { type: 'string' },
  },
  strict: true,
});
const whole = (name: string, value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number (1 or more)`);
  return n;
};
const ITEMS = whole('items', values.items);
const BULK = whole('bulk', values.bulk);
const SECONDS = whole('seconds', values.seconds);
const CONNECTIONS = whole('connections', values.connections);
const READERS = 20;

const draft = (i: number) => ({ title: `Bench ${i}`, type: 'blog' as const, content: `# Item ${i}\n\nBody.` });

/** Runs `work` for indexes 0..n-1 with `parallel` in flight. */
async function pool(n: number, parallel: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < n) await work(next++);
  }));
}

/** GET /v1/content at READERS connections until `until` resolves (or `seconds` pass); latencies in ms. */
async function readers(baseUrl: string, key: string, until: Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  let stop = false;
  void until.then(() => (stop = true));
  await Promise.all(Array.from({ length: READERS }, async () => {
    while (!stop) {
      const started = performance.now();
      const res = await fetch(`${baseUrl}/v1/content?limit=10`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET /v1/content: ${res.status}`);
      latencies.push(performance.now() - started);
    }
  }));
  return latencies.sort((a, b) => a - b);
}
const p99 = (sorted: number[]) => sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-bulk-bench-'));
const dataDir = path.join(root, 'data');
const app = await createApp(loadConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMITS: 'off', ...(values['database-url'] ? { DATABASE_URL: values['database-url'] } : {}) }));
try {
  const { address } = await app.listen();
  setGlobalDispatcher(new Agent({ connections: READERS + CONNECTIONS, connect: { ca: await fs.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8') } }));
  const baseUrl = `https://127.0.0.1:${address.port}`;
  const account = async (name: string): Promise<{ cms: CmsClient; key: string }> => {
    const created = await app.accounts.createAccount({ email: `${name}-${Date.now()}@example.com`, plan: 'enterprise' });
    return { cms: createCmsClient({ baseUrl, token: created.api_key }), key: created.api_key };
  };
  console.log(`store: ${app.config.store.kind}`);

  const singles = await account('singles');
  let started = performance.now();
  await pool(ITEMS, CONNECTIONS, async (i) => void (await singles.cms.content.create(draft(i))));
  const singleRate = ITEMS / ((performance.now() - started) / 1000);
  const batched = await account('batches');
  started = performance.now();
  await pool(Math.ceil(ITEMS / 100), CONNECTIONS, async (b) => {
    const results = await batched.cms.content.batch(Array.from({ length: Math.min(100, ITEMS - b * 100) }, (_, j) => ({ op: 'create' as const, data: draft(b * 100 + j) })));
    if (results.some((r) => r.status !== 201)) throw new Error('a batch create failed');
  });
  const batchRate = ITEMS / ((performance.now() - started) / 1000);
  console.log(`creates, ${CONNECTIONS} in flight: single ${singleRate.toFixed(0)} items/s, batches of 100 ${batchRate.toFixed(0)} items/s (${(batchRate / singleRate).toFixed(1)}×)`);

  const bulk = await account('bulk');
  // On PostgreSQL, what autovacuum's analyze does as tables grow (a server may run without it, as
  // the development machine's does): fresh statistics every 10,000 items, and once at the end.
  const analyze = () => (app.store.dialect === 'postgres' ? sql`ANALYZE`.execute(app.store.db) : undefined);
  await pool(Math.ceil(BULK / 100), CONNECTIONS, async (b) => {
    await bulk.cms.content.batch(Array.from({ length: Math.min(100, BULK - b * 100) }, (_, j) => ({ op: 'create' as const, data: draft(b * 100 + j) })));
    if ((b + 1) % 100 === 0) await analyze();
  });
  await analyze();
  const quiet = await readers(baseUrl, bulk.key, sleep(SECONDS * 1000));
  const job = await bulk.cms.jobs.start({ action: 'publish', filter: { status: 'draft' } });
  started = performance.now();
  const finished = bulk.cms.jobs.wait(job.id, { intervalMs: 200 });
  const busy = await readers(baseUrl, bulk.key, Promise.race([finished, sleep(SECONDS * 1000)]));
  const done = await finished;
  const jobSeconds = (performance.now() - started) / 1000;
  if (done.status !== 'succeeded' || done.done !== BULK) throw new Error(`job ended ${done.status} with ${done.done} of ${BULK}`);
  console.log(`bulk publish of ${BULK}: ${(BULK / jobSeconds).toFixed(0)} items/s (${jobSeconds.toFixed(1)} s)`);
  console.log(`GET /v1/content p99 at ${READERS} connections: ${p99(quiet).toFixed(1)} ms without the job (${quiet.length} requests), ` +
    `${p99(busy).toFixed(1)} ms with it (${busy.length} requests): ${(p99(busy) / p99(quiet)).toFixed(2)}×`);
} finally {
  await app.shutdown();
  await fs.rm(root, { recursive: true, force: true });
}
