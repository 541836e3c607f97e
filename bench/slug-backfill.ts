// `npm run bench:backfill [-- --store sqlite|postgres] [-- --items N]`: migration 015 on a store that
// already holds N items (default 1,000,000 over 10 accounts, as `npm run bench:scale` seeds them),
// then the slug backfill over all of them, batch by batch, while a probe makes a small write in the
// busiest account every 100 ms — how long a live write waits is how long the backfill blocks the
// service. The store is seeded at migration 011 (before publishing), so the migration runs at size.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Migrator, sql } from 'kysely';
import { openStore, type Store, type StoreConfig } from '../src/storage/db.js';
import { migrationProvider } from '../src/storage/migrations/index.js';
import { EventLog } from '../src/domain/events/event-log.js';
import { EventRepository } from '../src/storage/event-repository.js';
import type { EventSignal } from '../src/storage/event-signal.js';
import { newId, systemClock } from '../src/domain/ids.js';
import { SlugBackfill } from '../src/domain/publishing/slug-backfill.js';
import { SlugStep } from '../src/domain/publishing/slugs.js';
import { BackgroundTaskRepository } from '../src/storage/background-task-repository.js';
import { ContentSlugRepository } from '../src/storage/content-slug-repository.js';
import { benchDatabase } from './processes.js';
import { ACCOUNTS, corpus, fill } from './scale-seed.js';
import type { SeedAccount } from './seed.js';

const BEFORE_PUBLISHING = '011-idempotency-keys';

function options() {
  const { values } = parseArgs({ options: { store: { type: 'string', default: 'sqlite' }, items: { type: 'string', default: '1000000' } }, strict: true });
  if (values.store !== 'sqlite' && values.store !== 'postgres') throw new Error('--store is sqlite or postgres');
  const items = Number(values.items);
  if (!Number.isInteger(items) || items < ACCOUNTS) throw new Error(`--items is a whole number, at least ${ACCOUNTS}`);
  return { store: values.store, items };
}

/** Accounts and owners as the schema before publishing holds them (no CLI: it would migrate to the latest). */
async function accounts(store: Store): Promise<SeedAccount[]> {
  const made: SeedAccount[] = [];
  const now = new Date().toISOString();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema of migration 011, older than the typed one
  const db = store.db as any;
  for (let a = 0; a < ACCOUNTS; a++) {
    const accountId = newId('acct');
    const userId = newId('user');
    await db.insertInto('accounts').values({ id: accountId, name: `backfill ${a}`, plan: 'enterprise', rate_limit: null, quota: null, created_at: now, updated_at: now }).execute();
    await db.insertInto('event_sequences').values({ account_id: accountId, seq: 0 }).execute();
    await db.insertInto('users').values({ id: userId, account_id: accountId, email: `backfill-${a}-${randomBytes(3).toString('hex')}@example.com`, name: 'Owner', role: 'owner', password_hash: null, created_at: now, updated_at: now }).execute();
    made.push({ accountId, userId, key: '' });
  }
  return made;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function main(): Promise<void> {
  const { store: kind, items } = options();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-backfill-'));
  const pgDb = kind === 'postgres' ? await benchDatabase('cms_backfill') : undefined;
  const config: StoreConfig = pgDb ? { kind: 'postgres', url: pgDb.url } : { kind: 'sqlite', file: path.join(dir, 'cms.sqlite') };
  const store = openStore(config);
  try {
    const load = () => os.loadavg().map((n) => n.toFixed(2)).join(' ');
    console.log(`Seeding ${items.toLocaleString('en')} items over ${ACCOUNTS} accounts (${kind}, schema at ${BEFORE_PUBLISHING}); load ${load()} ...`);
    const migrated = await new Migrator({ db: store.db, provider: migrationProvider(store.dialect) }).migrateTo(BEFORE_PUBLISHING);
    if (migrated.error) throw migrated.error;
    const owners = await accounts(store);
    const seedStarted = Date.now();
    await fill(store, owners, corpus(items), items, (line) => console.log(line), true);
    if (kind === 'postgres') await sql`VACUUM ANALYZE`.execute(store.db);
    else await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(store.db);
    console.log(`  seeded in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s`);

    const migrationStarted = performance.now();
    const applied = await store.migrate();
    const migrationMs = performance.now() - migrationStarted;
    console.log(`Migration ${applied.join(', ')}: ${migrationMs.toFixed(0)} ms at ${items.toLocaleString('en')} items (load ${load()})`);

    const noSignal: EventSignal = { announce: async () => {}, listen: () => {}, close: async () => {} };
    const events = new EventLog(store, new EventRepository(store.dialect), systemClock, noSignal);
    const slugs = new ContentSlugRepository();
    const backfill = new SlugBackfill(store, new BackgroundTaskRepository(store.dialect), slugs, new SlugStep(slugs, systemClock), events, systemClock);

    // A live write in the busiest account every 100 ms: how long it takes is how long the backfill holds the writer or the account.
    const probes: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const started = performance.now();
        await events.change(owners[0]!.accountId, (tx) => tx.updateTable('accounts').set({ updated_at: new Date().toISOString() }).where('id', '=', owners[0]!.accountId).execute());
        probes.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const batchMs: number[] = [];
    const transactionMs: number[] = [];
    let position: string | null = null;
    let filled = 0;
    const started = performance.now();
    for (let reported = Date.now(); ; ) {
      const batchStarted = performance.now();
      const result = await backfill.run(position);
      batchMs.push(performance.now() - batchStarted);
      transactionMs.push(result.longestMs);
      filled += result.filled;
      position = result.position;
      if (result.finished) break;
      if (Date.now() - reported > 15_000) {
        reported = Date.now();
        console.log(`  ${filled.toLocaleString('en')} slugs made`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const totalS = (performance.now() - started) / 1000;
    probing = false;
    await probe;
    const [b, t, p] = [batchMs, transactionMs, probes].map((list) => [...list].sort((x, y) => x - y));
    console.log(
      [
        `Backfill: ${filled.toLocaleString('en')} slugs in ${totalS.toFixed(0)} s (${Math.round(filled / totalS)}/s), ${batchMs.length} batches of up to 500.`,
        `  batch ms: p50 ${quantile(b!, 0.5).toFixed(0)}, p99 ${quantile(b!, 0.99).toFixed(0)}, max ${b!.at(-1)!.toFixed(0)}`,
        `  longest transaction per batch (one account's items, its write turn held) ms: p50 ${quantile(t!, 0.5).toFixed(0)}, p99 ${quantile(t!, 0.99).toFixed(0)}, max ${t!.at(-1)!.toFixed(0)}`,
        `  a live write in the same account meanwhile (${probes.length} probes) ms: p50 ${quantile(p!, 0.5).toFixed(0)}, p99 ${quantile(p!, 0.99).toFixed(0)}, max ${p!.at(-1)!.toFixed(0)}`,
        `  load average after: ${load()}`,
      ].join('\n'),
    );
  } finally {
    await store.close();
    await pgDb?.drop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench:backfill: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
