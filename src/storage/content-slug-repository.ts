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

/** Bases listed in one statement (SQLite joins at most 500 SELECTs by UNION ALL). */
const BASES_PER_STATEMENT = 100;

export class ContentSlugRepository {
  private readonly inserts = new PreparedInsert<ContentSlugTable>('content_slugs', ['account_id', 'slug', 'type', 'content_id', 'base', 'n', 'created_at']);

  /** The item holding `slug` in the account's `type`, if any. */
  async holder(db: Db, accountId: string, type: string, slug: string): Promise<string | undefined> {
    const row = await db.selectFrom('content_slugs').select('content_id').where('account_id', '=', accountId).where('slug', '=', slug).where('type', '=', type).executeTakeFirst();
    return row?.content_id;
  }

  /**
   * For each of `bases`, the highest suffix number taken by slugs made from it in the account's
   * `type` (bases with none left out). A subquery per base seeks the base's last entry in
   * content_slugs_base: a GROUP BY over `base IN (…)` read every slug made from a base, thousands
   * for a common title ("Untitled"), on every create.
   */
  async lastNumbers(db: Db, accountId: string, type: string, bases: string[]): Promise<Map<string, number>> {
    const last = new Map<string, number>();
    for (let from = 0; from < bases.length; from += BASES_PER_STATEMENT) {
      const [first, ...rest] = bases.slice(from, from + BASES_PER_STATEMENT).map((base) => db.selectNoFrom((eb) => eb.cast<string>(eb.val(base), 'text').as('base')));
      const listed = rest.reduce((query, base) => query.unionAll(base), first!);
      const rows = await db
        .selectFrom(listed.as('b'))
        .select((eb) => [
          'b.base',
          eb
            .selectFrom('content_slugs')
            .select((slugs) => slugs.fn.max('content_slugs.n').as('n'))
            .where('content_slugs.account_id', '=', accountId)
            .where('content_slugs.type', '=', type)
            .whereRef('content_slugs.base', '=', 'b.base')
            .as('n'),
        ])
        .execute();
      for (const row of rows) if (row.n !== null) last.set(row.base, Number(row.n));
    }
    return last;
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
