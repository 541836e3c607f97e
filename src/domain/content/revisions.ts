// Revisions of content items (CONTRACT.md §17): every version an item takes is recorded in the
// transaction of the change that made it, and the item keeps its last `keep` (REVISIONS_KEEP).
import type { Store, Tx } from '../../storage/db.js';
import type { ContentRow } from '../../storage/content-repository.js';
import type { RevisionRepository, RevisionRow } from '../../storage/revision-repository.js';
import { notFound } from '../errors.js';
import { requireScope, type Principal } from '../auth/permissions.js';
import { pageOf, pageWindow, type PageResult } from '../schemas/common.js';
import type { Revision, RevisionListItem, RevisionListQuery } from '../schemas/revisions.js';

/** A `{version}` path segment as a version number; anything but a positive integer names no revision. */
export function versionNumber(segment: string): number {
  if (!/^[1-9]\d{0,9}$/.test(segment) || Number(segment) > 2 ** 31 - 1) throw notFound('Revision');
  return Number(segment);
}

export class ContentRevisions {
  constructor(
    private readonly store: Store,
    private readonly repo: RevisionRepository,
    private readonly keep: number,
  ) {}

  /** Records the versions `items` now are (one statement), made by `changedBy`, and lets each one's oldest beyond `keep` go. */
  async recordEach(tx: Tx, accountId: string, items: ContentRow[], changedBy: string): Promise<void> {
    const rows = items.map(({ id, version, title, type, content, status, updated_at, fields }) => ({ content_id: id, version, title, type, content, status, fields, changed_by: changedBy, created_at: updated_at }));
    await this.repo.insert(tx, accountId, rows);
    for (const { id, version } of items) if (version > this.keep) await this.repo.pruneThrough(tx, accountId, id, version - this.keep);
  }

  /** A revision inside a change's transaction (restore). */
  find(tx: Tx, accountId: string, contentId: string, version: number): Promise<RevisionRow | undefined> {
    return this.repo.get(tx, accountId, contentId, version).then((row) => row && { ...row, content_id: contentId });
  }

  async list(principal: Principal, contentId: string, query: RevisionListQuery): Promise<PageResult<RevisionListItem>> {
    requireScope(principal, 'content:read');
    const window = pageWindow(query);
    const [total, rows] = await this.store.run((db) =>
      Promise.all([this.repo.count(db, principal.accountId, contentId), this.repo.list(db, principal.accountId, contentId, window.limit, window.offset)]),
    );
    // Every item has at least its current revision: none means no such item in this account.
    if (total === 0) throw notFound('Content item');
    return pageOf(rows as RevisionListItem[], total, window);
  }

  async get(principal: Principal, contentId: string, segment: string): Promise<Revision> {
    requireScope(principal, 'content:read');
    const version = versionNumber(segment);
    const row = await this.store.run((db) => this.repo.get(db, principal.accountId, contentId, version));
    if (!row) throw notFound('Revision');
    return row as Revision;
  }
}
