// `cms content import` before and after batches (issue 26): N Markdown files (default 10,000; the
// shared dev machine runs --files 1000) imported into a fresh account of an in-process server on
// SQLite, once one request per file (the importer as it was: 8 creates in flight, each under its
// own Idempotency-Key, each file rewritten) and once as today (batches of 100). Prints files/s for
// both and the ratio, then checks both stores hold the same items. RATE_LIMITS=off: the one-by-one
// run would use a pro plan's hour. Usage: tsx bench/import.ts [--files N]
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, setGlobalDispatcher } from 'undici';
import { createCmsClient, type CmsClient } from '@cms-service/client';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { formatContentFile, markdownFiles, parseContentFile, writeAtomically } from '../src/cli/content-files.js';
import { importContent } from '../src/cli/content-sync.js';

const { values } = parseArgs({ options: { files: { type: 'string', default: '10000' } }, strict: true });
const FILES = Number(values.files);
if (!Number.isInteger(FILES) || FILES < 1) throw new Error('--files must be a whole number (1 or more)');

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

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-import-bench-'));
const app = await createApp(loadConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: path.join(root, 'data'), LOG_LEVEL: 'warn', RATE_LIMITS: 'off' }));
try {
  const { address } = await app.listen();
  setGlobalDispatcher(new Agent({ connect: { ca: await fs.readFile(path.join(root, 'data', 'tls-cert.pem'), 'utf8') } }));
  const baseUrl = `https://127.0.0.1:${address.port}`;
  const figures: Record<string, number> = {};
  for (const [label, run] of [
    ['one request per file', oneByOne],
    ['batches of 100', async (cms: CmsClient, dir: string) => (await importContent(cms, dir)).created],
  ] as const) {
    const account = await app.accounts.createAccount({ email: `${label.replace(/\W/g, '')}@example.com`, plan: 'enterprise' });
    const cms = createCmsClient({ baseUrl, token: account.api_key });
    const dir = path.join(root, label.replace(/\W/g, '-'));
    await writeFiles(dir);
    const started = performance.now();
    const created = await run(cms, dir);
    const seconds = (performance.now() - started) / 1000;
    if (created !== FILES) throw new Error(`${label}: ${created} of ${FILES} created`);
    const total = (await cms.content.list({ limit: 1 })).pagination.total;
    if (total !== FILES) throw new Error(`${label}: the account holds ${total} items, not ${FILES}`);
    figures[label] = FILES / seconds;
    console.log(`${label}: ${FILES} files in ${seconds.toFixed(1)} s = ${(FILES / seconds).toFixed(0)} files/s`);
  }
  console.log(`ratio: ${(figures['batches of 100']! / figures['one request per file']!).toFixed(1)}×`);
} finally {
  await app.shutdown();
  await fs.rm(root, { recursive: true, force: true });
}
