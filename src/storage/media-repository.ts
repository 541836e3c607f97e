// Media records, their references from content, variant claims and storage per account. Every
// query of an account's records names the account.
import { sql, type Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { MediaTable } from './schema.js';
import { olderThan } from './newest-first.js';

export type MediaRow = Omit<Selectable<MediaTable>, 'size'> & { size: number };

export interface MediaListFilter {
  kind?: string;
  /** Lower-case words, each found in the filename, title or alt. */
  words: string[];
  /** Keyset position: rows strictly after it (newest first). */
  after?: { created_at: string; id: string };
  limit: number;
  offset: number;
}

const toRow = (row: Selectable<MediaTable>): MediaRow => ({ ...row, size: Number(row.size) });

export class MediaRepository {
  async insert(tx: Tx, row: MediaRow): Promise<void> {
    await tx.insertInto('media').values(row).execute();
  }

  get(db: Db, accountId: string, id: string): Promise<MediaRow | undefined> {
    return db.selectFrom('media').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst().then((r) => r && toRow(r));
  }

  /** A record by id alone: the public file route, which has no account to name. */
  getAnyAccount(db: Db, id: string): Promise<MediaRow | undefined> {
    return db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst().then((r) => r && toRow(r));
  }

  async update(tx: Tx, accountId: string, id: string, changes: Partial<MediaRow>): Promise<void> {
    await tx.updateTable('media').set(changes).where('account_id', '=', accountId).where('id', '=', id).execute();
  }

  async delete(tx: Tx, accountId: string, id: string): Promise<void> {
    await tx.deleteFrom('media_refs').where('account_id', '=', accountId).where('media_id', '=', id).execute();
    await tx.deleteFrom('media').where('account_id', '=', accountId).where('id', '=', id).execute();
  }

  async list(db: Db, accountId: string, filter: MediaListFilter): Promise<{ rows: MediaRow[]; total: number }> {
    let query = db.selectFrom('media').where('account_id', '=', accountId);
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    for (const word of filter.words) {
      const pattern = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where(sql<boolean>`lower(filename || ' ' || title || ' ' || alt) like ${pattern} escape '\\'`);
    }
    const total = await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    let page = query.selectAll();
    if (filter.after) page = page.where((eb) => olderThan(eb, filter.after!));
    const rows = await page.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
    return { rows: rows.map(toRow), total: Number(total.n) };
  }

  /** The ids of the content items that reference each of `mediaIds`. */
  async usedBy(db: Db, accountId: string, mediaIds: string[]): Promise<Map<string, string[]>> {
    const used = new Map<string, string[]>(mediaIds.map((id) => [id, []]));
    if (mediaIds.length === 0) return used;
    const rows = await db
      .selectFrom('media_refs')
      .select(['media_id', 'content_id'])
      .where('account_id', '=', accountId)
      .where('media_id', 'in', mediaIds)
      .orderBy('content_id')
      .execute();
    for (const row of rows) used.get(row.media_id)?.push(row.content_id);
    return used;
  }

  /** The ids among `ids` that name no record of the account. */
  async missing(db: Db, accountId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const found = await db.selectFrom('media').select('id').where('account_id', '=', accountId).where('id', 'in', ids).execute();
    const have = new Set(found.map((r) => r.id));
    return ids.filter((id) => !have.has(id));
  }

  /** Replaces the media a content item references. */
  async setRefs(tx: Tx, accountId: string, contentId: string, mediaIds: string[]): Promise<void> {
    await tx.deleteFrom('media_refs').where('account_id', '=', accountId).where('content_id', '=', contentId).execute();
    if (mediaIds.length) await tx.insertInto('media_refs').values(mediaIds.map((media_id) => ({ account_id: accountId, media_id, content_id: contentId }))).execute();
  }

  async clearRefs(tx: Tx, accountId: string, contentId: string): Promise<void> {
    await tx.deleteFrom('media_refs').where('account_id', '=', accountId).where('content_id', '=', contentId).execute();
  }

  /** Records of the given ids (any of the account's), for resolving references. */
  async many(db: Db, accountId: string, ids: string[]): Promise<MediaRow[]> {
    if (ids.length === 0) return [];
    return (await db.selectFrom('media').selectAll().where('account_id', '=', accountId).where('id', 'in', ids).execute()).map(toRow);
  }

  /** Whether any record of any account names these bytes (the sweep). */
  async anyWithSha(db: Db, sha256: string): Promise<boolean> {
    return (await db.selectFrom('media').select('id').where('sha256', '=', sha256).limit(1).executeTakeFirst()) !== undefined;
  }

  async storage(db: Db, accountId: string): Promise<{ used: number; quota: number | null }> {
    const row = await db.selectFrom('media_storage').selectAll().where('account_id', '=', accountId).executeTakeFirst();
    return { used: Number(row?.used_bytes ?? 0), quota: row?.quota_bytes == null ? null : Number(row.quota_bytes) };
  }

  /** Adds `delta` bytes (negative on deletion) to the account's storage used. */
  async addUsed(tx: Tx, accountId: string, delta: number): Promise<void> {
    await tx
      .insertInto('media_storage')
      .values({ account_id: accountId, used_bytes: Math.max(0, delta), quota_bytes: null })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ used_bytes: sql`media_storage.used_bytes + ${delta}` }))
      .execute();
  }

  async setQuota(tx: Tx, accountId: string, quota: number | null): Promise<void> {
    await tx
      .insertInto('media_storage')
      .values({ account_id: accountId, used_bytes: 0, quota_bytes: quota })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ quota_bytes: quota }))
      .execute();
  }

  /** Claims the making of a variant; false when another instance holds a claim younger than `staleBefore`. */
  async claimVariant(tx: Tx, sha256: string, variant: string, now: string, staleBefore: string): Promise<'claimed' | 'done' | 'busy'> {
    const existing = await tx.selectFrom('media_variants').selectAll().where('sha256', '=', sha256).where('variant', '=', variant).executeTakeFirst();
    if (!existing) {
      await tx.insertInto('media_variants').values({ sha256, variant, state: 'making', claimed_at: now }).execute();
      return 'claimed';
    }
    if (existing.state === 'done') return 'done';
    if (existing.claimed_at >= staleBefore) return 'busy';
    await tx.updateTable('media_variants').set({ claimed_at: now }).where('sha256', '=', sha256).where('variant', '=', variant).execute();
    return 'claimed';
  }

  async variantDone(db: Db, sha256: string, variant: string): Promise<void> {
    await db.updateTable('media_variants').set({ state: 'done' }).where('sha256', '=', sha256).where('variant', '=', variant).execute();
  }

  async dropVariantClaim(db: Db, sha256: string, variant: string): Promise<void> {
    await db.deleteFrom('media_variants').where('sha256', '=', sha256).where('variant', '=', variant).execute();
  }

  async dropVariants(db: Db, sha256: string): Promise<void> {
    await db.deleteFrom('media_variants').where('sha256', '=', sha256).execute();
  }
}
