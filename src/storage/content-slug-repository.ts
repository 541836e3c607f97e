// Slugs of content items (CONTRACT.md §19): every slug an item holds, current and aliases, reserved
// per account and type. Every method takes the account id and puts it in the WHERE clause.
import type { Db, Tx } from './db.js';
import { PreparedInsert } from './prepared.js';
import type { ContentSlugTable } from './schema.js';

export interface SlugRow {
  slug: string;
  type: string;
  base: string;
  n: number;
}

export class ContentSlugRepository {
  private readonly inserts = new PreparedInsert<ContentSlugTable>('content_slugs', ['account_id', 'slug', 'type', 'content_id', 'base', 'n', 'created_at']);

  /** The item holding `slug` in the account's `type`, if any. */
  async holder(db: Db, accountId: string, type: string, slug: string): Promise<string | undefined> {
    const row = await db.selectFrom('content_slugs').select('content_id').where('account_id', '=', accountId).where('slug', '=', slug).where('type', '=', type).executeTakeFirst();
    return row?.content_id;
  }

  /** For each of `bases`, the highest suffix number taken by slugs made from it in the account's `type` (bases with none left out). */
  async lastNumbers(db: Db, accountId: string, type: string, bases: string[]): Promise<Map<string, number>> {
    if (bases.length === 0) return new Map();
    const rows = await db
      .selectFrom('content_slugs')
      .select((eb) => ['base', eb.fn.max('n').as('n')])
      .where('account_id', '=', accountId)
      .where('type', '=', type)
      .where('base', 'in', bases)
      .groupBy('base')
      .execute();
    return new Map(rows.map((row) => [row.base, Number(row.n)]));
  }

  /** Which of `slugs` are held in the account's `type`. */
  async taken(db: Db, accountId: string, type: string, slugs: string[]): Promise<Set<string>> {
    if (slugs.length === 0) return new Set();
    const rows = await db.selectFrom('content_slugs').select('slug').where('account_id', '=', accountId).where('type', '=', type).where('slug', 'in', slugs).execute();
    return new Set(rows.map((row) => row.slug));
  }

  /** Every slug the item holds. */
  ofItem(db: Db, accountId: string, contentId: string): Promise<SlugRow[]> {
    return db.selectFrom('content_slugs').select(['slug', 'type', 'base', 'n']).where('account_id', '=', accountId).where('content_id', '=', contentId).execute();
  }

  async insert(tx: Tx, accountId: string, contentId: string, rows: SlugRow[], now: string): Promise<void> {
    await this.insertEach(tx, accountId, rows.map((row) => ({ ...row, contentId })), now);
  }

  /** Rows of several items in one statement. */
  async insertEach(tx: Tx, accountId: string, rows: (SlugRow & { contentId: string })[], now: string): Promise<void> {
    await this.inserts.run(tx, rows.map((row) => ({ account_id: accountId, slug: row.slug, type: row.type, content_id: row.contentId, base: row.base, n: row.n, created_at: now })));
  }

  /** Moves the item's slugs to another type (its type changed), leaving out those named in `drop`. */
  async retype(tx: Tx, accountId: string, contentId: string, type: string, drop: string[]): Promise<void> {
    if (drop.length) await tx.deleteFrom('content_slugs').where('account_id', '=', accountId).where('content_id', '=', contentId).where('slug', 'in', drop).execute();
    await tx.updateTable('content_slugs').set({ type }).where('account_id', '=', accountId).where('content_id', '=', contentId).execute();
  }

  /** The account's items holding `slug` (one per type at most), of `type` when given: a subquery for lists. */
  itemsWith(db: Db, accountId: string, slug: string, type?: string) {
    let query = db.selectFrom('content_slugs').select('content_id').where('account_id', '=', accountId).where('slug', '=', slug);
    if (type !== undefined) query = query.where('type', '=', type);
    return query;
  }
}
