// Scheduled publishing precision (issue 24): the built server (as `npm start` runs it) on SQLite and
// on PostgreSQL, 1,000 items scheduled to publish within the same minute (spread evenly over it),
// then how late each went live: its updated_at (when the transition committed) minus its
// published_at (the time it was due). Reports p50, p99 and the worst per store; the contract asks
// for every one within 1 s. Usage: tsx bench/scheduler.ts [--items N] [--stores sqlite,postgres] [--no-build]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchDatabase, cleanEnv, freePort, httpsRequest, REPO_ROOT, startChild, waitUntilReady, productArgs } from './processes.js';
import { createAccount } from './seed.js';

const WINDOW_MS = 60_000;
/** Time to create the items before the first falls due. */
const LEAD_MS = 45_000;
const CLIENTS = 8;
/** Generous: a busy machine must not fail the run, only show in its figures. */
const TIMEOUT_MS = 30_000;

function options() {
  const { values } = parseArgs({
    options: { items: { type: 'string', default: '1000' }, stores: { type: 'string', default: 'sqlite,postgres' }, 'no-build': { type: 'boolean', default: false } },
    strict: true,
  });
  const items = Number(values.items);
  if (!Number.isInteger(items) || items < 1) throw new Error('--items must be a whole number (1 or more)');
  const stores = values.stores.split(',');
  if (stores.some((s) => s !== 'sqlite' && s !== 'postgres')) throw new Error('--stores is a list of sqlite and postgres');
  return { items, stores: stores as ('sqlite' | 'postgres')[], build: !values['no-build'] };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function runStore(kind: 'sqlite' | 'postgres', items: number): Promise<string> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-scheduler-'));
  const pgDb = kind === 'postgres' ? await benchDatabase('cms_sched') : undefined;
  const url = pgDb?.url;
  const env = cleanEnv({ DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...(url ? { DATABASE_URL: url } : {}) });
  let server: ReturnType<typeof startChild> | undefined;
  try {
    const account = await createAccount(env, 'bench-scheduler@example.com');
    const port = await freePort();
    const base = `https://127.0.0.1:${port}`;
    server = startChild('product server', productArgs(), { ...env, PORT: String(port) });
    await waitUntilReady(server, `${base}/readyz`);
    const ca = await fs.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8');
    const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' };
    const first = Date.now() + LEAD_MS;
    const dueOf = (i: number) => new Date(first + Math.floor((i * WINDOW_MS) / items)).toISOString();
    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < items) {
          const i = next++;
          const body = JSON.stringify({ title: `Scheduled ${i}`, type: 'blog', content: `Due at ${dueOf(i)}.`, publish_at: dueOf(i) });
          const res = await httpsRequest(`${base}/v1/content`, { ca, method: 'POST', headers, body, timeoutMs: TIMEOUT_MS });
          if (res.status !== 201) throw new Error(`create ${i}: ${res.status} ${res.body}`);
        }
      }),
    );
    if (Date.now() > first) throw new Error(`creating ${items} items took longer than ${LEAD_MS / 1000} s: the first was due before the last was made`);
    console.log(`  ${items} items created; due from ${new Date(first).toISOString()} over ${WINDOW_MS / 1000} s; waiting ...`);
    await new Promise((resolve) => setTimeout(resolve, first + WINDOW_MS - Date.now() + 5000));
    const lateness: number[] = [];
    for (let cursor: string | null = null; ; ) {
      const res = await httpsRequest(`${base}/v1/content?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { ca, headers, timeoutMs: TIMEOUT_MS });
      const page = JSON.parse(res.body) as { data: { id: string }[]; pagination: { next_cursor: string | null } };
      for (const listed of page.data) {
        const item = JSON.parse((await httpsRequest(`${base}/v1/content/${listed.id}`, { ca, headers, timeoutMs: TIMEOUT_MS })).body) as { data: { status: string; published_at: string | null; updated_at: string } };
        if (item.data.status !== 'published' || item.data.published_at === null) throw new Error(`${listed.id} was not published`);
        lateness.push(Date.parse(item.data.updated_at) - Date.parse(item.data.published_at));
      }
      cursor = page.pagination.next_cursor;
      if (cursor === null) break;
    }
    const sorted = lateness.sort((a, b) => a - b);
    const within = sorted.filter((ms) => ms <= 1000).length;
    return `${kind}: ${sorted.length} published; lateness p50 ${quantile(sorted, 0.5)} ms, p99 ${quantile(sorted, 0.99)} ms, max ${sorted.at(-1)} ms; ${within} of ${sorted.length} within 1 s (load ${os.loadavg()[0]!.toFixed(2)})`;
  } finally {
    await server?.stop();
    await pgDb?.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { items, stores, build } = options();
  if (build) {
    console.log('Building (npm run build)...');
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
  }
  console.log(`Scheduler precision: ${items} items due within one minute, the product server as npm start runs it (load ${os.loadavg()[0]!.toFixed(2)}).`);
  for (const kind of stores) console.log(await runStore(kind, items));
}

main().catch((error: unknown) => {
  console.error(`bench:scheduler: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
