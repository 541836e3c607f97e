// `npm run bench:scale` (also the last step of `npm run bench`): the content API at 10,000 and at
// 1,000,000 items (10 accounts), on SQLite and on PostgreSQL. Each store is seeded by bulk insert,
// the product server (as `npm start` runs it) is started on it, and every read of issue 14 is
// measured at 50 connections, then a create; the 1M figures are compared with the 10k ones and the
// table goes into docs/benchmarks.md. The answer caches are off (LIST_CACHE_ENTRIES=0, ITEM_CACHE_MB=0), so each
// request is answered by the store, which is what a store this size is meant to prove.
// Typed fields (issue 25 item 8, bench/scale-fields.ts): each account's `manual` model is PUT through
// the API (timed until its expression indexes exist), lists filter and sort by those fields, a create
// with 10 fields runs beside the plain one, and at the end another indexed field is added while
// creates go on, to see how long its build holds writes up.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type autocannon from 'autocannon';
import { sql } from 'kysely';
import { openStore, type StoreConfig } from '../src/storage/db.js';
import { encodeCursor } from '../src/domain/content/list-request.js';
import { benchDatabase, cleanEnv, freePort, REPO_ROOT, RssSampler, startChild, waitUntilReady, productArgs } from './processes.js';
import { CONNECTIONS, measure, WARMUP_SECONDS, type Measurement, type Scenario } from './scenarios.js';
import { ACCOUNTS, PAGES_MAX, seedScale, type Seeded } from './scale-seed.js';
import { machine, writeSection } from './report.js';
import type { SeedAccount } from './seed.js';
import { explain, type PlanCase } from './plans.js';
import { BUILD_WRITERS, MANUAL_MODEL, MANUAL_MODEL_MORE, putModels, TEN_FIELDS, TEN_FIELDS_TYPE, tenFieldValues, writesDuringBuild, type ModelTiming, type Target, type WritesDuringBuild } from './scale-fields.js';
import { searchWords, type SearchWords } from '../src/storage/content-search.js';
import { formatBound, loopDelayP99, scrapeLoopDelay } from './loop-delay.js';
import type { Position } from '../src/storage/content-sort.js';

type StoreKind = 'sqlite' | 'postgres';
const MB = 1024 * 1024;
const READ_P99_GOAL = 20;
const GROWTH_GOAL = 1.5;
const SEARCH_COMMON_GOAL = 100;
const LOOP_GOAL = 50;
/** A typed-field read's p99 against the plain list's at the same size. */
const FIELDS_VS_LIST_GOAL = 1.5;
const FIELD_READS = ['fields filter', 'fields sort'];
/** The longest a write may wait while an index is built (ms). */
const BUILD_WAIT_GOAL = 1000;
/** `fields.pages[gte]=` this: 2 % of the manuals (pages are 1–PAGES_MAX, evenly). */
const PAGES_FROM = PAGES_MAX - PAGES_MAX / 50 + 1;
const BUILD_SCENARIO = 'index build under writes';

function options() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      stores: { type: 'string', default: 'sqlite,postgres' },
      sizes: { type: 'string', default: '10000,1000000' },
      'no-build': { type: 'boolean', default: false },
      // A trial run (a few scenarios, small sizes) that must not replace the recorded table.
      'no-doc': { type: 'boolean', default: false },
      // e.g. --only "search common" (comma-separated scenario names): a million-item run of one read.
      // The models are always PUT; "index build under writes" runs only when named.
      only: { type: 'string' },
    },
    strict: true,
  });
  const duration = Number(values.duration);
  if (!Number.isInteger(duration) || duration < 1) throw new Error('--duration must be a whole number of seconds (1 or more)');
  const stores = values.stores.split(',') as StoreKind[];
  if (stores.some((s) => s !== 'sqlite' && s !== 'postgres')) throw new Error('--stores is a list of sqlite and postgres');
  const sizes = values.sizes.split(',').map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < ACCOUNTS * 100)) throw new Error(`--sizes are whole numbers of items, at least ${ACCOUNTS * 100}`);
  const only = values.only?.split(',').map((name) => name.trim());
  return { duration, stores, sizes, build: !values['no-build'], doc: !values['no-doc'], only };
}

/** What the scenarios need from a seeded store. */
interface Fixture {
  accounts: SeedAccount[];
  seeded: Seeded;
  /** Per account: cursors into the middle of its newest-first list (page 5,000 of 10 at 1M). */
  middle: string[][];
  /** The first account's middle position, for the plans. */
  position: Position;
  /** Items to read one by one, with their account. */
  items: { id: string; account: number }[];
}

/** Cycles through `count` variants, each request with its account's key. */
function rotating(count: number, vary: (n: number) => { account: SeedAccount; path: string; method?: string; body?: string }): autocannon.Request {
  let n = 0;
  return {
    method: 'GET',
    setupRequest: (request) => {
      const v = vary(n++ % count);
      return { ...request, method: (v.method ?? 'GET') as 'GET', path: v.path, body: v.body, headers: { ...request.headers, authorization: `Bearer ${v.account.key}`, ...(v.body ? { 'content-type': 'application/json' } : {}) } };
    },
  };
}

/** Creates over the accounts (type blog, no model, unless told), the texts drawn from the vocabulary. */
function creates(f: Fixture, type = 'blog', fields?: (n: number, words: string[]) => Record<string, unknown>): autocannon.Request {
  const { vocabulary } = f.seeded.corpus;
  return rotating(ACCOUNTS * vocabulary.length, (n) => {
    const words = vocabulary.slice(n % 7000, (n % 7000) + 40);
    const item = { title: `Benchmark ${vocabulary[n % vocabulary.length]}`, type, content: `Created by the benchmark: ${words.join(' ')}.`, status: 'published' };
    return { account: f.accounts[n % ACCOUNTS]!, method: 'POST', path: '/v1/content', body: JSON.stringify(fields ? { ...item, fields: fields(n, words.slice(0, 12)) } : item) };
  });
}

function scenarios(f: Fixture): Scenario[] {
  const { accounts, seeded } = f;
  const { vocabulary, specific } = seeded.corpus;
  const account = (n: number) => accounts[n % ACCOUNTS]!;
  const q = (text: string) => encodeURIComponent(text);
  // Words of rank 300–700: each in 1–2 % of items. Words of rank 1–20: in most items.
  const common = vocabulary.slice(300, 700);
  const frequent = vocabulary.slice(0, 20);
  const read = (name: string, request: string, count: number, vary: (n: number) => { account: SeedAccount; path: string }): Scenario => ({ name, request, requests: [rotating(count, vary)] });
  return [
    read('list', 'GET /v1/content?limit=10', ACCOUNTS, (n) => ({ account: account(n), path: '/v1/content?limit=10' })),
    read('list filtered', 'GET /v1/content?type=blog&status=published&limit=10', ACCOUNTS, (n) => ({ account: account(n), path: '/v1/content?type=blog&status=published&limit=10' })),
    read('deep page', 'GET /v1/content?cursor=<middle of the account>&limit=10', ACCOUNTS * 20, (n) => ({
      account: account(n),
      path: `/v1/content?cursor=${encodeURIComponent(f.middle[n % ACCOUNTS]![Math.floor(n / ACCOUNTS) % 20]!)}&limit=10`,
    })),
    read('search 1 word', 'GET /v1/content?q=<specific word>', specific.length * ACCOUNTS, (n) => ({ account: account(n), path: `/v1/content?q=${q(specific[n % specific.length]!)}` })),
    read('search 2 words', 'GET /v1/content?q=<frequent word> <specific word>', specific.length * ACCOUNTS, (n) => ({
      account: account(n),
      path: `/v1/content?q=${q(`${frequent[n % frequent.length]} ${specific[(n * 7) % specific.length]}`)}`,
    })),
    read('search common', 'GET /v1/content?q=<word in 1–2 % of items>', common.length * ACCOUNTS, (n) => ({ account: account(n), path: `/v1/content?q=${q(common[n % common.length]!)}` })),
    read('sort by title', 'GET /v1/content?sort=title&limit=10', ACCOUNTS, (n) => ({ account: account(n), path: '/v1/content?sort=title&limit=10' })),
    read('get one', 'GET /v1/content/{id}', f.items.length, (n) => ({ account: accounts[f.items[n]!.account]!, path: `/v1/content/${f.items[n]!.id}` })),
    read('fields filter', `GET /v1/content?type=manual&fields.pages[gte]=${PAGES_FROM}&limit=10 (2 % of manuals)`, ACCOUNTS, (n) => ({
      account: account(n),
      path: `/v1/content?type=manual&fields.pages[gte]=${PAGES_FROM}&limit=10`,
    })),
    read('fields sort', 'GET /v1/content?type=manual&sort=-fields.released&limit=10', ACCOUNTS, (n) => ({ account: account(n), path: '/v1/content?type=manual&sort=-fields.released&limit=10' })),
    { name: 'create', request: 'POST /v1/content', requests: [creates(f)] },
    { name: 'create 10 fields', request: `POST /v1/content (type ${TEN_FIELDS_TYPE}: 10 typed fields, 3 indexed)`, requests: [creates(f, TEN_FIELDS_TYPE, tenFieldValues)] },
  ];
}

/** One list query per read scenario (the search ones with a word of its kind), for EXPLAIN. */
function planCases(f: Fixture): PlanCase[] {
  const { vocabulary, specific } = f.seeded.corpus;
  const newest = [{ field: 'created_at' as const, desc: true }];
  const relevance = [{ field: 'relevance' as const, desc: true }, ...newest];
  const base = { filter: {}, order: newest, limit: 10, offset: 0 };
  const words = (q: string): SearchWords => searchWords(q)!;
  return [
    { name: 'list', query: base },
    { name: 'list filtered', query: { ...base, filter: { type: 'blog', status: 'published' } } },
    { name: 'deep page', query: { ...base, after: f.position } },
    { name: 'search 1 word', query: { ...base, order: relevance }, words: words(specific[0]!) },
    { name: 'search 2 words', query: { ...base, order: relevance }, words: words(`${vocabulary[0]} ${specific[1]}`) },
    { name: 'search common', query: { ...base, order: relevance }, words: words(vocabulary[400]!) },
    { name: 'sort by title', query: { ...base, order: [{ field: 'title', desc: false }] } },
    { name: 'fields filter', query: { ...base, filter: { type: 'manual', fields: [{ name: 'pages', op: 'gte', values: [PAGES_FROM] }] } } },
    { name: 'fields sort', query: { ...base, filter: { type: 'manual' }, order: [{ field: 'fields.released', desc: true }] } },
  ];
}

/** The store's size on disk: the SQLite file (WAL checkpointed) or the PostgreSQL database. */
async function storeBytes(store: StoreConfig): Promise<number> {
  if (store.kind === 'sqlite') {
    const sizes = await Promise.all(['', '-wal'].map((suffix) => fs.stat(store.file + suffix).then((s) => s.size, () => 0)));
    return sizes.reduce((a, b) => a + b, 0);
  }
  const opened = openStore(store);
  try {
    const { rows } = await sql<{ size: number }>`SELECT pg_database_size(current_database()) AS size`.execute(opened.db);
    return Number(rows[0]!.size);
  } finally {
    await opened.close();
  }
}

/** Cursors into the middle of each account's list, and items to read, straight from the store. */
async function fixture(store: StoreConfig, seeded: Seeded, items: number): Promise<Fixture> {
  const opened = openStore(store);
  try {
    const middle: string[][] = [];
    const positions: Position[] = [];
    const perAccount = items / ACCOUNTS;
    for (const account of seeded.accounts) {
      const rows = await opened.db.selectFrom('content').select(['id', 'created_at']).where('account_id', '=', account.accountId)
        .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(20).offset(Math.floor(perAccount / 2)).execute();
      const request = { filter: {}, order: [{ field: 'created_at' as const, desc: true }], limit: 10, offset: 0 };
      middle.push(rows.map((row) => encodeCursor(account.accountId, request, { values: [row.created_at], id: row.id })));
      positions.push({ values: [rows[0]!.created_at], id: rows[0]!.id });
    }
    const sample = await opened.db.selectFrom('content').select(['id', 'account_id']).orderBy(sql`random()`).limit(10_000).execute();
    const index = new Map(seeded.accounts.map((a, i) => [a.accountId, i]));
    return { accounts: seeded.accounts, seeded, middle, position: positions[0]!, items: sample.map((row) => ({ id: row.id, account: index.get(row.account_id)! })) };
  } finally {
    await opened.close();
  }
}

interface SizeRun {
  store: StoreKind;
  items: number;
  seedSeconds: number;
  bytes: number;
  results: Measurement[];
  /** How the store answers each read (EXPLAIN), by scenario. */
  plans: Map<string, string>;
  /** The event-loop delay p99 (ms, a bucket bound of cms_event_loop_delay_seconds) during each scenario. */
  loopP99: Map<string, number>;
  /** The manual model's PUT on every account, until its indexes exist. */
  model: ModelTiming;
  /** Another indexed field added while creates go on (not with --only, unless named). */
  build?: WritesDuringBuild;
}

async function runSize(kind: StoreKind, items: number, duration: number, only: string[] | undefined, log: (line: string) => void): Promise<SizeRun> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-scale-'));
  const pgDb = kind === 'postgres' ? await benchDatabase('cms_scale') : undefined;
  const url = pgDb?.url;
  const store: StoreConfig = url ? { kind: 'postgres', url } : { kind: 'sqlite', file: path.join(dataDir, 'cms.sqlite') };
  const env = cleanEnv({ DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', LIST_CACHE_ENTRIES: '0', ITEM_CACHE_MB: '0', ...(url ? { DATABASE_URL: url } : {}) });
  let server: ReturnType<typeof startChild> | undefined;
  let sampler: RssSampler | undefined;
  try {
    log(`  seeding ${items.toLocaleString('en')} items over ${ACCOUNTS} accounts (${kind}) ...`);
    const seeded = await seedScale(env, store, items, log);
    const bytes = await storeBytes(store);
    log(`  seeded in ${seeded.seconds.toFixed(0)} s; store ${(bytes / MB).toFixed(0)} MB`);
    const f = await fixture(store, seeded, items);
    const port = await freePort();
    const base = `https://127.0.0.1:${port}`;
    server = startChild('product server', productArgs(), { ...env, PORT: String(port) });
    await waitUntilReady(server, `${base}/readyz`);
    sampler = new RssSampler(server.pid);
    const ca = await fs.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8');
    const target: Target = { base, ca, store };
    const model = await putModels(target, f.accounts, 'manual', MANUAL_MODEL);
    log(`    model PUT (manual: pages, released indexed) on ${ACCOUNTS} accounts: first answered in ${Math.round(model.putMs)} ms, indexes built after ${Math.round(model.readyMs)} ms, build over after ${Math.round(model.settledMs)} ms`);
    const ten = await putModels(target, f.accounts, TEN_FIELDS_TYPE, TEN_FIELDS);
    log(`    model PUT (${TEN_FIELDS_TYPE}: 10 fields, 3 indexed): indexes built after ${Math.round(ten.readyMs)} ms, build over after ${Math.round(ten.settledMs)} ms`);
    const plans = await explain(store, seeded.accounts[0]!.accountId, planCases(f));
    for (const [name, plan] of plans) log(`    plan of ${name}: ${plan}`);
    const results: Measurement[] = [];
    const loopP99 = new Map<string, number>();
    for (const scenario of scenarios(f).filter((s) => !only || only.includes(s.name))) {
      const before = await scrapeLoopDelay(base, ca);
      const m = await measure(scenario, 'product', { url: base, pid: server.pid, ca, sampler, duration });
      const loop = loopDelayP99(before, await scrapeLoopDelay(base, ca));
      results.push(m);
      loopP99.set(scenario.name, loop);
      const bad = m.failures > 0 ? `  !! ${m.failures} non-2xx/errors` : '';
      log(`    ${scenario.name.padEnd(15)} ${Math.round(m.rps).toString().padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  CPU ${m.cpuMsPerRequest.toFixed(2)} ms/req  event-loop delay p99 ${formatBound(loop)} ms${bad}`);
    }
    let build: WritesDuringBuild | undefined;
    if (!only || only.includes(BUILD_SCENARIO)) {
      build = await writesDuringBuild(target, creates(f), () => putModels(target, f.accounts.slice(0, 1), 'manual', MANUAL_MODEL_MORE));
      log(`    ${BUILD_SCENARIO}: index built after ${Math.round(build.readyMs)} ms, build over after ${Math.round(build.settledMs)} ms; ${build.writes} creates at ${BUILD_WRITERS} connections, longest wait during the build ${build.maxDuringMs} ms (outside it ${build.maxOutsideMs} ms), p99 ${build.p99} ms${build.failures ? `  !! ${build.failures} non-2xx/errors` : ''}`);
    }
    return { store: kind, items, seedSeconds: seeded.seconds, bytes, results, plans, loopP99, model, build };
  } finally {
    sampler?.stop();
    await server?.stop();
    await pgDb?.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/** A typed-field read's plan names its expression index (cf_manual_pages or cf_manual_released); other plans pass. */
const usesFieldIndex = (name: string, plan: string) => !FIELD_READS.includes(name) || /cf_manual_(pages|released)/.test(plan);

/** The rows of the model PUT and of the index build under writes, one cell per size. */
function fieldRows(kind: StoreKind, mine: SizeRun[], misses: string[]): string[] {
  const ms = (value: number) => `${Math.round(value)} ms`;
  const growth = (values: number[]) => (values.at(-1)! / Math.max(values[0]!, 1)).toFixed(2);
  const rows = [
    `| model PUT | \`PUT /v1/content-types/manual\` (pages, released indexed) on each account, until the indexes exist | ${mine.map((r) => `first answered ${ms(r.model.putMs)} · indexes built ${ms(r.model.readyMs)} · build over ${ms(r.model.settledMs)}`).join(' | ')} | ${growth(mine.map((r) => r.model.readyMs))} | (index build) |`,
  ];
  const builds = mine.map((r) => r.build);
  if (builds.every((b): b is WritesDuringBuild => b !== undefined)) {
    const waited = builds.every((b) => b.maxDuringMs <= BUILD_WAIT_GOAL);
    if (!waited) misses.push(`${kind} ${BUILD_SCENARIO} (longest write wait)`);
    const cells = builds.map((b) => `longest write wait ${ms(b.maxDuringMs)} (outside the build ${ms(b.maxOutsideMs)}) · p99 ${ms(b.p99)} · ${b.writes} creates · index built ${ms(b.readyMs)} · build over ${ms(b.settledMs)}${b.failures ? ` (!! ${b.failures} errors)` : ''}`);
    rows.push(`| ${BUILD_SCENARIO} | \`PUT /v1/content-types/manual\` (+ version indexed) during ${BUILD_WRITERS} connections of \`POST /v1/content\` | ${cells.join(' | ')} | ${growth(builds.map((b) => b.maxDuringMs))} | longest wait ≤ ${BUILD_WAIT_GOAL} ms: ${waited ? 'PASS' : 'MISS'} |`);
  }
  return rows;
}

function report(runs: SizeRun[], duration: number, loadBefore: number): { text: string; misses: string[] } {
  const misses: string[] = [];
  const lines = [
    'Command: `npm run bench:scale` (also the last step of `npm run bench`)',
    `Date: ${new Date().toISOString()}`,
    `Machine: ${machine()}; 1-minute load average before the run: ${loadBefore.toFixed(2)}${loadBefore > 0.5 ? ' (other work was running: every figure is pessimistic)' : ''}`,
    `Settings: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up then ${duration} s per scenario; product = \`node ${productArgs().join(' ')}\`, LOG_LEVEL=warn, ` +
      'LIST_CACHE_ENTRIES=0 ITEM_CACHE_MB=0 (every list and item read from the store); requests rotate over the 10 accounts (and over ids, cursors and words).',
    '',
  ];
  for (const kind of ['sqlite', 'postgres'] as const) {
    const mine = runs.filter((r) => r.store === kind).sort((a, b) => a.items - b.items);
    if (mine.length === 0) continue;
    const [small, large] = [mine[0]!, mine[mine.length - 1]!];
    lines.push(`### ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`, '');
    lines.push(mine.map((r) => `${r.items.toLocaleString('en')} items: seeded in ${r.seedSeconds.toFixed(0)} s, store ${(r.bytes / MB).toFixed(0)} MB`).join('; ') + '.', '');
    const sizes = mine.map((r) => r.items.toLocaleString('en'));
    lines.push(`| scenario | request | ${sizes.map((s) => `${s}: req/s · p50 · p99 · loop p99 (ms)`).join(' | ')} | p99 ${sizes.at(-1)} ÷ ${sizes[0]} | p99 ≤ ${READ_P99_GOAL} ms · growth ≤ ${GROWTH_GOAL}× (typed fields: · p99 ≤ ${FIELDS_VS_LIST_GOAL}× list's) |`);
    lines.push(`|---|---|${sizes.map(() => '---:').join('|')}|---:|---|`);
    for (const m of small.results) {
      const row = mine.map((r) => r.results.find((x) => x.scenario.name === m.scenario.name)!);
      const growth = row.at(-1)!.p99 / Math.max(m.p99, 1);
      const fast = row.every((x) => x.p99 <= READ_P99_GOAL);
      const flat = growth <= GROWTH_GOAL;
      const isRead = !m.scenario.name.startsWith('create');
      // Typed-field reads against the plain list, and the create with fields against the plain create, at each size.
      const against = (name: string) => mine.map((r) => r.results.find((x) => x.scenario.name === name));
      const vsList = FIELD_READS.includes(m.scenario.name) ? against('list').map((l, i) => (l ? row[i]!.p99 / Math.max(l.p99, 1) : NaN)) : [];
      const near = vsList.every((r) => !(r > FIELDS_VS_LIST_GOAL));
      if (isRead && !(fast && flat && near)) misses.push(`${kind} ${m.scenario.name} (${[fast ? '' : 'p99', flat ? '' : 'growth', near ? '' : 'vs list'].filter(Boolean).join(', ')})`);
      const cells = row.map((x, i) => `${Math.round(x.rps)} · ${x.p50} · ${x.p99} · ${formatBound(mine[i]!.loopP99.get(m.scenario.name) ?? 0)}${x.failures ? ` (!! ${x.failures} errors)` : ''}`);
      const ratios = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');
      let verdict = isRead ? `${fast ? 'PASS' : 'MISS'} · ${flat ? 'PASS' : 'MISS'}` : '(write)';
      if (vsList.length) verdict += ` · ${near ? 'PASS' : 'MISS'} (p99 ÷ list: ${ratios(vsList)})`;
      if (m.scenario.name === 'create 10 fields') {
        const plain = against('create');
        verdict += ` ÷ create: req/s ${ratios(row.map((x, i) => x.rps / (plain[i]?.rps ?? NaN)))}, p99 ${ratios(row.map((x, i) => x.p99 / Math.max(plain[i]?.p99 ?? NaN, 1)))}`;
      }
      lines.push(`| ${m.scenario.name} | \`${m.scenario.request}\` | ${cells.join(' | ')} | ${growth.toFixed(2)} | ${verdict} |`);
    }
    lines.push(...fieldRows(kind, mine, misses));
    if (large === small) lines.push('', '(one size only: no growth figure)');
    lines.push('', `How the store answers each read at ${large.items.toLocaleString('en')} items (EXPLAIN of the statements, scan and sort steps):`, '');
    for (const [name, plan] of large.plans) lines.push(`- ${name}: ${plan.replace(/\|/g, '\\|')}${usesFieldIndex(name, plan) ? '' : ' (!! not the field\'s expression index)'}`);
    for (const r of mine) for (const [name, plan] of r.plans) if (!usesFieldIndex(name, plan)) misses.push(`${kind} ${r.items} ${name} (plan without its expression index)`);
    lines.push('');
  }
  lines.push(
    `"fields filter" and "fields sort" read the seeded manuals' typed fields (each account's model PUT through the API: pages integer, released date, both indexed); "create 10 fields" creates ${TEN_FIELDS_TYPE} items with 10 typed fields (3 indexed, 1 text) right after the plain create of blog items, which have no model. ` +
      '"model PUT": each account\'s `PUT /v1/content-types/manual` in turn, from the first request until every one is answered and the expression indexes `cf_manual_pages`, `cf_manual_released` exist (the PUT answers at once; the indexes are built after it commits), and until the build is over (SQLite: the replaced copy of `content_keys` taken apart; the reads are measured after it). ' +
      `"${BUILD_SCENARIO}": ${BUILD_WRITERS} connections of creates run while one account's model PUT adds an indexed field (\`cf_manual_version\`); the cell is the longest any create waited that was open at some moment between the PUT and the end of the build (on SQLite: until the replaced copy of \`content_keys\` has been taken apart; and, to compare, the longest of the creates before and after), the creates' p99, how long until the index existed and until the build was over (goal: no write waits more than ${BUILD_WAIT_GOAL} ms). ` +
      'SQLite builds an index on a new copy of `content_keys`, a turn of 2,000 rows at a time (docs/content-model.md); PostgreSQL builds it CONCURRENTLY.',
  );
  lines.push('"loop p99" is the event-loop delay p99 during the scenario, from the product\'s `cms_event_loop_delay_seconds` histogram (a bucket bound; summed over workers).');
  for (const run of runs) {
    const common = run.results.find((m) => m.scenario.name === 'search common');
    if (common) {
      lines.push(`Search goal (issue 22): ${run.store} ${run.items.toLocaleString('en')} items, "search common" p99 ${common.p99} ms (goal ≤ ${SEARCH_COMMON_GOAL} ms), event-loop delay p99 ${formatBound(run.loopP99.get('search common') ?? 0)} ms (goal ≤ ${LOOP_GOAL} ms).`);
    }
  }
  lines.push('');
  lines.push(`Targets (reads): p99 ≤ ${READ_P99_GOAL} ms at ${CONNECTIONS} connections, and the largest store's p99 ≤ ${GROWTH_GOAL} × the smallest's; typed-field reads' p99 ≤ ${FIELDS_VS_LIST_GOAL} × the list's, each through its expression index; no write waits more than ${BUILD_WAIT_GOAL} ms for an index build. ${misses.length ? `Missed: ${misses.join(', ')}.` : 'All met.'}`);
  return { text: lines.join('\n'), misses };
}

async function main(): Promise<void> {
  const { duration, stores, sizes, build, doc, only } = options();
  const started = Date.now();
  const loadBefore = os.loadavg()[0] ?? 0;
  if (build) {
    console.log('Building (npm run build)...');
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
  }
  const runs: SizeRun[] = [];
  for (const kind of stores) {
    for (const items of sizes) {
      console.log(`${kind}, ${items.toLocaleString('en')} items:`);
      runs.push(await runSize(kind, items, duration, only, (line) => console.log(line)));
    }
  }
  const { text, misses } = report(runs, duration, loadBefore);
  console.log(`\n${text}\n`);
  if (doc) writeSection('<!-- bench:scale:start -->', '<!-- bench:scale:end -->', text);
  const failed = runs.flatMap((r) => [
    ...r.results.filter((m) => m.failures > 0).map((m) => `${r.store} ${r.items} ${m.scenario.name}`),
    ...(r.build?.failures ? [`${r.store} ${r.items} ${BUILD_SCENARIO}`] : []),
  ]);
  if (failed.length) throw new Error(`scenarios with non-2xx responses or errors: ${failed.join(', ')}`);
  console.log(`${doc ? 'Wrote docs/benchmarks.md' : 'docs/benchmarks.md left as it was (--no-doc)'}; ${misses.length ? `${misses.length} target(s) missed` : 'every target met'}; done in ${Math.round((Date.now() - started) / 1000)} s.`);
}

main().catch((error: unknown) => {
  console.error(`bench:scale: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
