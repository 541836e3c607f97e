// Slugs for the items that existed before migration 015 (CONTRACT.md §19), made in the background by
// the outbox worker loop rather than by the migration, so that a store of a million items migrates
// in an instant and the service keeps answering while they are filled in. The task is one row of
// background_tasks, claimed under a lease by one instance at a time; each batch walks the next
// BATCH items in id order (a primary-key range) and gives those still without a slug one, per
// account, at most PER_TRANSACTION at a time, in a short transaction holding that account's write turn (the same turn every write
// takes, so a made slug never clashes with a live write's). Its position is stored after each
// batch: a restart goes on from there. Items written meanwhile get their slug from the write itself.
import type { Store } from '../../storage/db.js';
import type { BackgroundTaskRepository } from '../../storage/background-task-repository.js';
import type { ContentSlugRepository } from '../../storage/content-slug-repository.js';
import type { EventLog } from '../events/event-log.js';
import type { Clock } from '../ids.js';
import type { Capacity, OutboxQueue } from '../outbox.js';
import type { SlugStep } from './slugs.js';

export const SLUG_BACKFILL = 'slug-backfill';
/** Items looked at per batch. */
export const BATCH = 500;
/** Items given slugs in one transaction at most: what bounds how long an account's writes wait for one. */
export const PER_TRANSACTION = 50;
/** The pause between two batches, so that live traffic always gets its turn. */
export const PAUSE_MS = 20;

export interface BackfillBatch {
  id: string;
  /** The last item id done; null: from the start. */
  position: string | null;
  lease: string;
}

export interface BackfillResult {
  position: string | null;
  /** Items given a slug in this batch. */
  filled: number;
  finished: boolean;
  /** The longest of the batch's transactions, in milliseconds. */
  longestMs: number;
  error?: string;
}

export class SlugBackfill implements OutboxQueue<BackfillBatch, BackfillResult> {
  private finished = false;

  constructor(
    private readonly store: Store,
    private readonly tasks: BackgroundTaskRepository,
    private readonly slugs: ContentSlugRepository,
    private readonly step: SlugStep,
    private readonly events: EventLog,
    private readonly clock: Clock,
  ) {}

  async claim(lease: string, leaseMs: number, capacity: Capacity): Promise<BackfillBatch[]> {
    if (this.finished || capacity.total <= 0) return [];
    const now = this.clock();
    const task = await this.store.run((db) => this.tasks.get(db, SLUG_BACKFILL));
    if (!task || task.status === 'done') {
      this.finished = true;
      return [];
    }
    const until = new Date(now.getTime() + leaseMs).toISOString();
    const claimed = await this.store.transaction((tx) => this.tasks.claim(tx, SLUG_BACKFILL, now.toISOString(), lease, until));
    return claimed ? [{ id: SLUG_BACKFILL, position: claimed.position, lease }] : [];
  }

  renew(ids: string[], lease: string, leaseMs: number): Promise<void> {
    const until = new Date(this.clock().getTime() + leaseMs).toISOString();
    return this.store.transaction((tx) => this.tasks.renew(tx, ids, lease, until));
  }

  release(ids: string[], lease: string): Promise<void> {
    return this.store.transaction((tx) => this.tasks.release(tx, ids, lease));
  }

  /** One batch: the next BATCH items after `position`, those without a slug given one. */
  async run(position: string | null): Promise<BackfillResult> {
    const rows = await this.store.run((db) => this.tasks.contentAfterAnyAccount(db, position, BATCH));
    const byAccount = new Map<string, typeof rows>();
    for (const row of rows) if (row.slug === null) byAccount.set(row.account_id, [...(byAccount.get(row.account_id) ?? []), row]);
    const chunks = [...byAccount].flatMap(([accountId, items]) =>
      Array.from({ length: Math.ceil(items.length / PER_TRANSACTION) }, (_, i) => [accountId, items.slice(i * PER_TRANSACTION, (i + 1) * PER_TRANSACTION)] as const),
    );
    let filled = 0;
    let longestMs = 0;
    for (const [accountId, items] of chunks) {
      const started = performance.now();
      // The account's write turn, as every write takes it; no event: a slug made for an old item is not a change of it.
      filled += await this.events.change(accountId, async (tx) => {
        // Those a write has not given a slug since they were read (none can meanwhile: the turn is held).
        const still = new Set(await this.tasks.withoutSlug(tx, accountId, items.map((item) => item.id)));
        const todo = items.filter((item) => still.has(item.id));
        const slugs = await this.step.makeEach(tx, accountId, todo);
        const rows = todo.map((item, i) => ({ ...slugs[i]!, contentId: item.id }));
        await this.tasks.setSlugs(tx, accountId, rows.map((row) => ({ id: row.contentId, slug: row.slug })));
        await this.slugs.insertEach(tx, accountId, rows, this.clock().toISOString());
        return rows.length;
      });
      longestMs = Math.max(longestMs, performance.now() - started);
    }
    return { position: rows.length ? rows[rows.length - 1]!.id : position, filled, finished: rows.length < BATCH, longestMs };
  }

  async finish(item: BackfillBatch, lease: string, result: BackfillResult): Promise<number | undefined> {
    if (result.error !== undefined) {
      await this.store.transaction((tx) => this.tasks.release(tx, [item.id], lease));
      return 5000;
    }
    const now = this.clock().toISOString();
    await this.store.transaction((tx) => this.tasks.advance(tx, item.id, lease, result.position, result.filled, result.finished, now));
    if (result.finished) {
      this.finished = true;
      return undefined;
    }
    return PAUSE_MS;
  }
}
