// `cms content import` before and after batches (issue 26): N Markdown files (default 10,000)
// imported into a fresh account of the product server, started as `npm start` starts it (its own
// process, dist/main.js, SQLite, WORKERS=1, RATE_LIMITS=off: the one-by-one run would use a pro
// plan's hour). Once one request per file, from this process (the importer as it was: 8 creates in
// flight, each under its own Idempotency-Key, each file rewritten), and once as today: the real
// `cms content import --dir` as a child process (batches of 100, eight in flight). Importer and
// server each have a process, as when a person runs them. Prints files/s for both, each into a
// fresh account, checks the account holds every file's item, and does so `--rounds` times (default
// 3, taking turns at going first, since this machine's speed drifts by a fifth within minutes);
// the ratio is that of the medians. The server's CPU time per file says where the
// ceiling is: the batched import runs as fast as the server's one thread can create items.
// Usage: tsx bench/import.ts [--files N] [--rounds N] [--no-build]
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { Agent, setGlobalDispatcher } from 'undici';
import { createCmsClient, type CmsClient } from '@cms-service/client';
import { formatContentFile, markdownFiles, parseContentFile, writeAtomically } from '../src/cli/content-files.js';
import { cleanEnv, cpuTimeMs, freePort, productArgs, REPO_ROOT, startChild, waitUntilReady } from './processes.js';
import { createAccount } from './seed.js';

const { values } = parseArgs({ options: { files: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '3' }, 'no-build': { type: 'boolean', default: false } }, strict: true });
const FILES = Number(values.files);
if (!Number.isInteger(FILES) || FILES < 1) throw new Error('--files must be a whole number (1 or more)');
const ROUNDS = Number(values.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--rounds must be a whole number (1 or more)');

async function writeFiles(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  for (let i = 0; i < FILES; i++) {
    const body = `# Article ${i}\n\n${'Some words of the article. '.repeat(20)}\n`;
    await fs.writeFile(path.join(dir, `article-${String(i).padStart(5, '0')}.md`), formatContentFile({ title: `Article ${i}`, type: 'blog', status: i % 3 === 0 ? 'published' : 'draft', content: body }));
  }
}

/** The importer before batches: one create per file, 8 in flight. */
async function oneByOne(cms: CmsClient, dir: string): Promise<number> {
  const files = await markdownFiles(dir);
  let next = 0;
  let created = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < files.length) {
        const file = files[next++]!;
        const text = await fs.readFile(file, 'utf8');
        const wanted = parseContentFile(text);
        const item = await cms.content.create(
          { title: wanted.title, type: wanted.type, content: wanted.content, status: wanted.status === 'published' ? 'published' : 'draft' } as never,
          { idempotencyKey: `cms-import-${createHash('sha256').update(path.resolve(file)).update('\0').update(text).digest('hex').slice(0, 48)}` },
        );
        await writeAtomically(file, formatContentFile({ ...wanted, id: item.id, version: item.version }));
        created++;
      }
    }),
  );
  return created;
}

/** Today's importer: `cms content import --dir DIR`, the built CLI in a process of its own. */
async function cliImport(env: Record<string, string>, dir: string): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['dist/cli/main.js', 'content', 'import', '--dir', dir], { cwd: REPO_ROOT, env, maxBuffer: 64 * 1024 * 1024 });
  return (JSON.parse(stdout) as { created: number }).created;
}

if (!values['no-build']) {
  console.log('Building (npm run build)...');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
}
const root = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-import-bench-'));
const dataDir = path.join(root, 'data');
const env = cleanEnv({ HOST: '127.0.0.1', PORT: String(await freePort()), DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMITS: 'off', WORKERS: '1' });
const server = startChild('product server', productArgs(), env);
try {
  const baseUrl = `https://127.0.0.1:${env.PORT}`;
  await waitUntilReady(server, `${baseUrl}/healthz`, 60_000);
  const caFile = path.join(dataDir, 'tls-cert.pem');
  setGlobalDispatcher(new Agent({ connect: { ca: await fs.readFile(caFile, 'utf8') } }));
  const LABELS = ['one request per file', 'batches of 100'] as const;
  const figures: Record<(typeof LABELS)[number], number[]> = { 'one request per file': [], 'batches of 100': [] };
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternate which goes first, so that a drift of the machine's speed weighs on both alike.
    for (const label of round % 2 === 1 ? LABELS : [...LABELS].reverse()) {
      const name = `${label.replace(/\W/g, '')}${round}`;
      const account = await createAccount(env, `${name}@example.com`);
      const cms = createCmsClient({ baseUrl, token: account.key });
      const dir = path.join(root, name);
      await writeFiles(dir);
      const started = performance.now();
      const cpuBefore = cpuTimeMs(server.pid);
      const created = label === 'one request per file' ? await oneByOne(cms, dir) : await cliImport({ PATH: env.PATH!, CMS_URL: baseUrl, CMS_API_KEY: account.key, NODE_EXTRA_CA_CERTS: caFile }, dir);
      const seconds = (performance.now() - started) / 1000;
      const serverCpu = (cpuTimeMs(server.pid) - cpuBefore) / 1000;
      if (created !== FILES) throw new Error(`${label}: ${created} of ${FILES} created`);
      const total = (await cms.content.list({ limit: 1 })).pagination.total;
      if (total !== FILES) throw new Error(`${label}: the account holds ${total} items, not ${FILES}`);
      figures[label].push(FILES / seconds);
      console.log(`round ${round}, ${label}: ${FILES} files in ${seconds.toFixed(1)} s = ${(FILES / seconds).toFixed(0)} files/s; the server's CPU ${serverCpu.toFixed(1)} s (${((1000 * serverCpu) / FILES).toFixed(2)} ms a file, ${((100 * serverCpu) / seconds).toFixed(0)} % of one core)`);
      await fs.rm(dir, { recursive: true, force: true });
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const [single, batched] = LABELS.map((label) => median(figures[label]));
  console.log(`median of ${ROUNDS}: one request per file ${single!.toFixed(0)} files/s, batches of 100 ${batched!.toFixed(0)} files/s; ratio ${(batched! / single!).toFixed(1)}× (per round: ${figures['batches of 100'].map((b, i) => (b / figures['one request per file'][i]!).toFixed(1)).join(', ')})`);
} finally {
  await server.stop();
  await fs.rm(root, { recursive: true, force: true });
}
