// `npx tsx bench/search-cost.ts [--store sqlite|postgres] [--items N] [--rounds N]`: what the first
// page of a search by relevance costs the store and this process, without HTTP. A store of N items
// (default 1,000,000 over 10 accounts, seeded as `npm run bench:scale` seeds it) is searched through
// the repository `rounds` times per kind of word, one account and word after another as the scale
// benchmark's requests rotate: a word in 1–2 % of the items ("search common"), a specific word in
// ~20 items of the account ("search 1 word"), and a frequent word with a specific one ("search 2
// words"). Prints the median, p99 and longest time of one search and the CPU this process spent per
// search (on PostgreSQL the database's own CPU is not in it).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openStore, type StoreConfig } from '../src/storage/db.js';
import { ContentRepository } from '../src/storage/content-repository.js';
import { searchWords } from '../src/storage/content-search.js';
import type { SortKey } from '../src/storage/content-sort.js';
import { benchDatabase, cleanEnv } from './processes.js';
import { ACCOUNTS, seedScale } from './scale-seed.js';

function options() {
  const { values } = parseArgs({
    options: { store: { type: 'string', default: 'sqlite' }, items: { type: 'string', default: '1000000' }, rounds: { type: 'string', default: '2000' } },
    strict: true,
  });
  if (values.store !== 'sqlite' && values.store !== 'postgres') throw new Error('--store is sqlite or postgres');
  return { store: values.store, items: Number(values.items), rounds: Number(values.rounds) };
}

const RELEVANCE: SortKey[] = [
  { field: 'relevance', desc: true },
  { field: 'created_at', desc: true },
];

async function main(): Promise<void> {
  const { store: kind, items, rounds } = options();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-search-cost-'));
  const pgDb = kind === 'postgres' ? await benchDatabase('cms_search_cost') : undefined;
  const config: StoreConfig = pgDb ? { kind: 'postgres', url: pgDb.url } : { kind: 'sqlite', file: path.join(dataDir, 'cms.sqlite') };
  try {
    console.log(`seeding ${items.toLocaleString('en')} items over ${ACCOUNTS} accounts (${kind}) ...`);
    const env = cleanEnv({ DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) });
    const seeded = await seedScale(env, config, items, (line) => console.log(line));
    const { vocabulary, specific } = seeded.corpus;
    const kinds: [string, (n: number) => string][] = [
      ['search common', (n) => vocabulary[300 + (n % 400)]!],
      ['search 1 word', (n) => specific[n % specific.length]!],
      ['search 2 words', (n) => `${vocabulary[n % 20]} ${specific[(n * 7) % specific.length]}`],
    ];
    const store = openStore(config);
    const repo = new ContentRepository(store.dialect);
    try {
      for (const [name, word] of kinds) {
        const search = async (n: number) => {
          const accountId = seeded.accounts[n % ACCOUNTS]!.accountId;
          const prepared = await repo.prepareSearch(store.db, accountId, searchWords(word(n))!);
          await repo.list(store.db, accountId, { filter: {}, search: prepared, order: RELEVANCE, limit: 20, offset: 0 });
        };
        for (let n = 0; n < 200; n++) await search(n); // warm-up: statements prepared, pages cached
        const times: number[] = [];
        const cpu = process.cpuUsage();
        for (let n = 0; n < rounds; n++) {
          const started = process.hrtime.bigint();
          await search(n);
          times.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
        const used = process.cpuUsage(cpu);
        times.sort((a, b) => a - b);
        const at = (q: number) => times[Math.floor(q * (times.length - 1))]!.toFixed(2);
        console.log(`${name.padEnd(15)} median ${at(0.5)} ms  p99 ${at(0.99)} ms  max ${at(1)} ms  CPU ${((used.user + used.system) / 1000 / rounds).toFixed(2)} ms/search (this process)`);
      }
    } finally {
      await store.close();
    }
  } finally {
    await pgDb?.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

await main();
