// Typed fields in the scale benchmark (issue 25 item 8): the models bench/scale.ts gives the seeded
// accounts through the API (`PUT /v1/content-types/{type}`, which is what builds the expression
// indexes), how long that takes until the indexes exist, and how long writes wait while an index is
// built (SQLite holds the single writer for a build; PostgreSQL builds CONCURRENTLY).
import autocannon from 'autocannon';
import type { StoreConfig } from '../src/storage/db.js';
import { ContentFieldIndexes, indexName } from '../src/storage/content-field-indexes.js';
import type { SeedAccount } from './seed.js';
import { httpsRequest } from './processes.js';
import { connect } from './plans.js';

export type Definition = { name: string; kind: string; indexed?: boolean } & Record<string, unknown>;

/** The seeded manuals' model (scale-seed.ts manualFields): pages and released indexed. */
export const MANUAL_MODEL: Definition[] = [
  { name: 'pages', kind: 'integer', min: 1, indexed: true },
  { name: 'released', kind: 'date', indexed: true },
  { name: 'version', kind: 'string', max_length: 20 },
];
/** The same with `version` indexed too: the change whose index build the writes wait on. */
export const MANUAL_MODEL_MORE = MANUAL_MODEL.map((d) => (d.name === 'version' ? { ...d, indexed: true } : d));

/** Ten fields of mixed kinds (three indexed, one searched text) on `whitepaper`, for "create 10 fields". */
export const TEN_FIELDS_TYPE = 'whitepaper';
export const TEN_FIELDS: Definition[] = [
  { name: 'product', kind: 'enum', values: ['cms', 'crm', 'erp'] },
  { name: 'version', kind: 'string', max_length: 20, indexed: true },
  { name: 'pages', kind: 'integer', min: 1, indexed: true },
  { name: 'score', kind: 'number', min: 0, max: 10 },
  { name: 'beta', kind: 'boolean' },
  { name: 'released', kind: 'date', indexed: true },
  { name: 'reviewed_at', kind: 'datetime' },
  { name: 'link', kind: 'url' },
  { name: 'tags', kind: 'list', of: 'string' },
  { name: 'summary', kind: 'text' },
];

/** Values for TEN_FIELDS, varying with `n`. */
export function tenFieldValues(n: number, words: string[]): Record<string, unknown> {
  const day = new Date(Date.UTC(2020, 0, 1) + (n % 2000) * 86_400_000).toISOString();
  return {
    product: ['cms', 'crm', 'erp'][n % 3],
    version: `${1 + (n % 5)}.${n % 10}`,
    pages: 1 + (n % 900),
    score: (n % 100) / 10,
    beta: n % 2 === 0,
    released: day.slice(0, 10),
    reviewed_at: day,
    link: `https://example.com/papers/${n}`,
    tags: ['api', 'cli', 'ui'].slice(0, 1 + (n % 3)),
    summary: words.join(' '),
  };
}

export interface Target {
  base: string;
  ca: string;
  store: StoreConfig;
}

export interface ModelTiming {
  /** The first account's PUT, until answered (the index builds follow it). */
  putMs: number;
  /** From the first PUT until every account's PUT is answered and the indexes exist (valid). */
  readyMs: number;
  /** Until the build is over (SQLite: the replaced copy of content_keys taken apart, the lease let go). */
  settledMs: number;
}

/** Every account's model of `type` made `fields` by PUT, then waits for the indexes they ask for. */
export async function putModels(t: Target, accounts: SeedAccount[], type: string, fields: Definition[]): Promise<ModelTiming> {
  const started = performance.now();
  let putMs = 0;
  for (const account of accounts) {
    const res = await httpsRequest(`${t.base}/v1/content-types/${type}`, {
      ca: t.ca,
      method: 'PUT',
      headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fields }),
      timeoutMs: 30 * 60_000,
    });
    if (res.status !== 200) throw new Error(`PUT /v1/content-types/${type}: ${res.status} ${res.body}`);
    putMs ||= performance.now() - started;
  }
  await indexesBuilt(t.store, fields.filter((d) => d.indexed).map((d) => indexName({ type, name: d.name, list: d.kind === 'list' })));
  const readyMs = performance.now() - started;
  await buildSettled(t.store);
  return { putMs, readyMs, settledMs: performance.now() - started };
}

/** SQLite: polls until no process holds the content_keys build lease (the build and its clean-up are over). */
async function buildSettled(store: StoreConfig): Promise<void> {
  if (store.kind !== 'sqlite') return;
  const db = connect(store);
  try {
    while (await db.selectFrom('settings').select('key').where('key', '=', 'content_keys_build').executeTakeFirst()) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await db.destroy();
  }
}

/** Polls the store (a second connection, with the app's own index listing) until the named indexes exist and are valid. */
async function indexesBuilt(store: StoreConfig, names: string[]): Promise<void> {
  const db = connect(store);
  const indexes = new ContentFieldIndexes(store.kind);
  try {
    for (;;) {
      const ready = new Set((await indexes.existing(db)).filter((i) => i.valid).map((i) => i.name));
      if (names.every((name) => ready.has(name))) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await db.destroy();
  }
}

export interface WritesDuringBuild extends ModelTiming {
  /** The longest a create waited that was open while the index was being built, ms. */
  maxDuringMs: number;
  /** The longest of the other creates (before and after the build): what load alone costs, ms. */
  maxOutsideMs: number;
  p99: number;
  writes: number;
  failures: number;
}

export const BUILD_WRITERS = 10;

/**
 * `creates` at BUILD_WRITERS connections for a second, then the PUT that adds an indexed field
 * (`change`, which returns once the index exists), then a second more. Each create is timed against
 * the build: the longest of those open at any moment of it is how long the build held writes up.
 */
export async function writesDuringBuild(t: Target, creates: autocannon.Request, change: () => Promise<ModelTiming>): Promise<WritesDuringBuild> {
  const load = autocannon({ url: t.base, connections: BUILD_WRITERS, duration: 3600, timeout: 600, requests: [creates], tlsOptions: { ca: t.ca } });
  const waits: { end: number; ms: number }[] = [];
  load.on('response', (_client, _status, _bytes, ms) => waits.push({ end: performance.now(), ms }));
  const sleep = () => new Promise((resolve) => setTimeout(resolve, 1000));
  await sleep();
  const from = performance.now();
  const timing = await change();
  const to = performance.now();
  await sleep();
  load.stop();
  const result = await load;
  const during = (w: { end: number; ms: number }) => w.end >= from && w.end - w.ms <= to;
  const longest = (list: { ms: number }[]) => Math.round(Math.max(0, ...list.map((w) => w.ms)));
  return {
    ...timing,
    maxDuringMs: longest(waits.filter(during)),
    maxOutsideMs: longest(waits.filter((w) => !during(w))),
    p99: result.latency.p99,
    writes: result.requests.total ?? 0,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
