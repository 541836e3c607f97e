// The scale benchmark's store: 10 accounts made with the real CLI, then N items spread over them,
// written by bulk insert through the app's own repositories (the rows, counts, search index and
// first revision production writes; no HTTP). Texts are drawn from a fixed vocabulary so searches
// have known selectivity: vocabulary words follow Zipf's law (as words in text do), and every item
// also carries one "specific" word (think a product or customer name) shared by about 200 items at
// any store size, so a search for one finds ~20 items per account whether there are 10k or 1M.
// Every `manual` item has typed fields (manualFields); bench/scale.ts then gives the accounts the model.
import { sql } from 'kysely';
import { openStore, type Store, type Tx } from '../src/storage/db.js';
import { titleSortKey } from '../src/storage/content-sort.js';
import { ContentRepository, type NewContentRow } from '../src/storage/content-repository.js';
import { RevisionRepository } from '../src/storage/revision-repository.js';
import { newId } from '../src/domain/ids.js';
import { CONTENT_TYPES } from '../src/domain/schemas/content.js';
import { createAccount, type SeedAccount } from './seed.js';

export const ACCOUNTS = 10;
/** Items per specific word, across all accounts. */
const PER_SPECIFIC_WORD = 200;
const VOCABULARY = 8000;
const BODY_WORDS = 60;
const BATCH = 500;

/** mulberry32: a small seeded generator, so every run writes the same texts. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = ['b', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'br', 'dr', 'gl', 'pl', 'st', 'tr', 'ch'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'oo'];
const CODAS = ['', 'n', 'r', 'l', 'm', 'st', 'nd', 'x'];

/** Distinct pronounceable words; `mark` makes a family no other family shares (specific words start with "zy"). */
function words(count: number, seed: number, mark = ''): string[] {
  const next = random(seed);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const made = new Set<string>();
  while (made.size < count) {
    let word = mark;
    const syllables = 2 + Math.floor(next() * 2);
    for (let i = 0; i < syllables; i++) word += pick(ONSETS) + pick(VOWELS) + (i === syllables - 1 ? pick(CODAS) : '');
    made.add(word);
  }
  return [...made];
}

export interface Corpus {
  vocabulary: string[];
  /** Specific words; word i is in items i, i + n, i + 2n, … (n = their count). */
  specific: string[];
}

export function corpus(items: number): Corpus {
  // A count prime to the number of accounts, so each specific word is spread over all of them.
  let count = Math.max(1, Math.round(items / PER_SPECIFIC_WORD));
  while (count % 2 === 0 || count % 5 === 0) count++;
  return { vocabulary: words(VOCABULARY, 1), specific: words(count, 2, 'zy') };
}

/** Zipf's law over the vocabulary: rank r is drawn with probability ∝ 1/r. */
function zipf(next: () => number, size: number): () => number {
  const cumulative: number[] = [];
  let sum = 0;
  for (let r = 1; r <= size; r++) cumulative.push((sum += 1 / r));
  return () => {
    const target = next() * sum;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function statusFor(i: number): string {
  const r = (i * 7919) % 10;
  return r < 5 ? 'published' : r < 8 ? 'draft' : 'archived';
}

/** Pages of a seeded manual: 1 to this, evenly, so `fields.pages[gte]=N` matches a known share. */
export const PAGES_MAX = 1000;

/** A manual's typed fields, from their own generator (the texts stay those of earlier runs). */
function manualFields(next: () => number) {
  const released = new Date(Date.UTC(2016, 0, 1) + Math.floor(next() * 3653) * 86_400_000).toISOString().slice(0, 10);
  return { pages: 1 + Math.floor(next() * PAGES_MAX), released, version: `${1 + Math.floor(next() * 5)}.${Math.floor(next() * 10)}` };
}

export interface Seeded {
  accounts: SeedAccount[];
  corpus: Corpus;
  seconds: number;
}

/**
 * Accounts by the CLI, then `items` items in batches of 500 (one transaction each), item i in
 * account i mod 10, created over the past year, oldest first.
 */
export async function seedScale(env: Record<string, string>, storeConfig: Parameters<typeof openStore>[0], items: number, log: (line: string) => void): Promise<Seeded> {
  const started = Date.now();
  const accounts: SeedAccount[] = [];
  for (let a = 0; a < ACCOUNTS; a++) accounts.push(await createAccount(env, `scale-${a}@example.com`));
  const texts = corpus(items);
  const store = openStore(storeConfig);
  try {
    await fill(store, accounts, texts, items, log);
    if (store.dialect === 'postgres') {
      // What autovacuum would have done by the time a store has grown to this size; and the seed's
      // writes flushed now rather than by a checkpoint in the middle of the measurements.
      await sql`VACUUM ANALYZE`.execute(store.db);
      await sql`CHECKPOINT`.execute(store.db);
    } else {
      await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(store.db);
    }
  } finally {
    await store.close();
  }
  return { accounts, corpus: texts, seconds: (Date.now() - started) / 1000 };
}

/**
 * Writes `items` items over the accounts in batches (the rows, counts, search index and first
 * revision), without slugs. `beforeContentModel`: the store is at a migration
 * older than 016 (no `fields` column, which the repositories always write), so the rows go in as
 * that schema has them — the slug backfill bench seeds at 011.
 */
export async function fill(store: Store, accounts: SeedAccount[], texts: Corpus, items: number, log: (line: string) => void, beforeContentModel = false): Promise<void> {
  const content = new ContentRepository(store.dialect);
  const revisions = new RevisionRepository();
  const write = async (tx: Tx, accountId: string, rows: NewContentRow[]) => {
    const firsts = rows.map((r) => ({ content_id: r.id, version: 1, title: r.title, type: r.type, content: r.content, status: r.status, changed_by: r.author, created_at: r.created_at }));
    if (!beforeContentModel) {
      await content.insertMany(tx, accountId, rows);
      await revisions.insert(tx, accountId, firsts);
      return;
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema of migration 011, older than the typed one
    const old = tx as any;
    await old.insertInto('content').values(rows.map(({ fields: _fields, ...row }) => ({ ...row, account_id: accountId, title_sort: titleSortKey(row.title) }))).execute();
    await old.insertInto('content_revisions').values(firsts.map((row) => ({ ...row, account_id: accountId }))).execute();
  };
  const next = random(3);
  const rank = zipf(next, texts.vocabulary.length);
  const nextField = random(4);
  const word = () => texts.vocabulary[rank()]!;
  const start = Date.now() - 365 * 24 * 3600 * 1000;
  const step = Math.floor((365 * 24 * 3600 * 1000) / items);
  // Two writers on PostgreSQL (each account's rows, counts and index entries are its own); SQLite has one writer anyway.
  const lanes = store.dialect === 'postgres' ? 2 : 1;
  let written = 0;
  let reported = Date.now();
  const batches: number[] = [];
  for (let from = 0; from < items; from += BATCH) batches.push(from);
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let b = lane; b < batches.length; b += lanes) {
        const from = batches[b]!;
        const byAccount = new Map<number, NewContentRow[]>();
        for (let i = from; i < Math.min(from + BATCH, items); i++) {
          const at = new Date(start + i * step).toISOString();
          const status = statusFor(i);
          const body = Array.from({ length: BODY_WORDS }, word);
          body.splice(Math.floor(next() * BODY_WORDS), 0, texts.specific[i % texts.specific.length]!);
          const type = CONTENT_TYPES[i % CONTENT_TYPES.length]!;
          const row: NewContentRow = {
            id: newId('content'),
            title: `${word()} ${word()} ${word()} ${word()}`,
            type,
            content: `# ${word()} ${word()}\n\n${body.join(' ')}.`,
            status,
            author: accounts[i % ACCOUNTS]!.userId,
            created_at: at,
            updated_at: at,
            published_at: status === 'draft' ? null : at,
            version: 1,
            ...(type === 'manual' ? { fields: manualFields(nextField) } : {}),
          };
          const group = byAccount.get(i % ACCOUNTS) ?? [];
          group.push(row);
          byAccount.set(i % ACCOUNTS, group);
        }
        await store.transaction(async (tx) => {
          for (const [a, rows] of byAccount) await write(tx, accounts[a]!.accountId, rows);
        });
        written += BATCH;
        if (Date.now() - reported > 15_000) {
          reported = Date.now();
          log(`    ${Math.min(written, items).toLocaleString('en')} of ${items.toLocaleString('en')} items`);
        }
      }
    }),
  );
}
