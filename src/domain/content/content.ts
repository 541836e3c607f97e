// Content items: listing, reading and every change, with the role rules and version preconditions.
import type { Store, Tx } from '../../storage/db.js';
import type { ContentRepository, ContentRow, WriteGuard } from '../../storage/content-repository.js';
import { DomainError, forbidden, notFound } from '../errors.js';
import type { Emit, EventLog } from '../events/event-log.js';
import { PageCache, type CacheStats } from './page-cache.js';
import { newId, type Clock } from '../ids.js';
import { requireScope, type Principal } from '../auth/permissions.js';
import type {
  ContentCreate,
  ContentGetQuery,
  ContentItem,
  ContentListItem,
  ContentListQuery,
  ContentPage,
  ContentUpdate,
  RenderedContentItem,
} from '../schemas/content.js';
import { RenderCache } from './render-cache.js';
import { encodeCursor, listRequest } from './list-request.js';
import { versionNumber, type ContentRevisions } from './revisions.js';

/** Versions an `If-Match` header allows; undefined means no precondition. */
export type Precondition = number[] | undefined;

export class ContentService {
  private readonly pages: PageCache<ContentPage>;
  private readonly items: PageCache<ContentItem>;
  private readonly rendered = new RenderCache();

  constructor(
    private readonly store: Store,
    private readonly repo: ContentRepository,
    private readonly events: EventLog,
    private readonly clock: Clock,
    readonly revisions: ContentRevisions,
    /** How many list pages to keep per instance (LIST_CACHE_ENTRIES); 0: none. */
    listCacheEntries?: number,
    /** How many bytes of single items to keep per instance (ITEM_CACHE_MB); 0: none. */
    itemCacheBytes = 16 * 1024 * 1024,
  ) {
    this.pages = new PageCache(listCacheEntries);
    this.items = new PageCache<ContentItem>({ maxEntries: 100_000, maxBytes: itemCacheBytes, sizeOf: itemSize });
  }

  /** Hits, misses and size of the list page cache and the item cache (for /metrics). */
  cacheStats(): { content_list: CacheStats; content_item: CacheStats } {
    return { content_list: this.pages.stats(), content_item: this.items.stats() };
  }

  async list(principal: Principal, query: ContentListQuery): Promise<ContentPage> {
    requireScope(principal, 'content:read');
    const request = listRequest(principal.accountId, query);
    const key = JSON.stringify([principal.accountId, request.filter.type, request.filter.status, request.q, request.sort, query.cursor, request.limit, request.offset]);
    // Read before the page, so a page cached under this generation is never older than it.
    const generation = this.pages.enabled ? await this.events.generation(principal.accountId) : 0;
    const cached = this.pages.get(key, generation);
    if (cached) return cached;
    const { rows, next, total, exact } = await this.store.run(async (db) => {
      const search = request.words && (await this.repo.prepareSearch(db, principal.accountId, request.words));
      return this.repo.list(db, principal.accountId, { ...request, search, offset: request.offset ?? 0 });
    });
    const nextCursor = next && encodeCursor(principal.accountId, request, next);
    // On an offset page with an exact total, has_more is offset + length < total (CONTRACT.md §5).
    const hasMore = request.offset !== null && exact ? request.offset + rows.length < total : nextCursor !== null;
    const page: ContentPage = {
      data: rows as ContentListItem[],
      pagination: { total, limit: request.limit, offset: request.offset, has_more: hasMore, next_cursor: nextCursor, ...(exact ? {} : { total_exact: false }) },
    };
    this.pages.set(key, generation, page);
    return page;
  }

  async get(principal: Principal, id: string, query: ContentGetQuery = {}): Promise<RenderedContentItem> {
    requireScope(principal, 'content:read');
    const key = `${principal.accountId}/${id}`;
    // Read before the item, so an item cached under this generation is never older than it.
    const generation = this.items.enabled ? await this.events.generation(principal.accountId) : 0;
    let item = this.items.get(key, generation);
    if (!item) {
      const row = await this.store.run((db) => this.repo.get(db, principal.accountId, id));
      if (!row) throw notFound('Content item');
      item = row as ContentItem;
      this.items.set(key, generation, item);
    }
    return query.render === 'html' ? { ...item, content_html: await this.rendered.html(item.id, item.version, item.content) } : item;
  }

  async create(principal: Principal, input: ContentCreate): Promise<ContentItem> {
    requireScope(principal, 'content:write');
    const now = this.clock().toISOString();
    const status = input.status ?? 'draft';
    const row: ContentRow = {
      id: newId('content'),
      title: input.title,
      type: input.type,
      content: input.content,
      status,
      author: principal.userId,
      created_at: now,
      updated_at: now,
      published_at: status === 'published' ? now : null,
      version: 1,
    };
    // The item is the transaction's result: what a keyed request's stored response is made from.
    return this.events.change(principal.accountId, async (tx, emit) => {
      await this.repo.insert(tx, principal.accountId, row);
      await this.revisions.record(tx, principal.accountId, row, principal.userId);
      emit('content.created', row);
      return row as ContentItem;
    });
  }

  async update(principal: Principal, id: string, input: ContentUpdate, precondition: Precondition): Promise<ContentItem> {
    requireScope(principal, 'content:write');
    const now = this.clock().toISOString();
    const guard = this.guardFor(principal, precondition);
    return this.events.change(principal.accountId, async (tx, emit) => {
      const publishedAt = input.status === 'published' ? now : undefined;
      const row = await this.repo.update(tx, principal.accountId, id, input, now, guard, publishedAt);
      if (row) return this.changed(tx, principal, row, emit);
      throw this.explainMiss(await this.repo.get(tx, principal.accountId, id), principal, guard);
    });
  }

  /**
   * Makes the item what revision `version` was (title, type, body and status) at a new version;
   * published_at keeps the first-publication rule. `version` is the path segment as given.
   */
  async restore(principal: Principal, id: string, version: string, precondition: Precondition): Promise<ContentItem> {
    requireScope(principal, 'content:write');
    const number = versionNumber(version);
    const now = this.clock().toISOString();
    const guard = this.guardFor(principal, precondition);
    return this.events.change(principal.accountId, async (tx, emit) => {
      const revision = await this.revisions.find(tx, principal.accountId, id, number);
      if (!revision) {
        const exists = await this.repo.get(tx, principal.accountId, id);
        throw notFound(exists ? 'Revision' : 'Content item');
      }
      const { title, type, content, status } = revision;
      const publishedAt = status === 'published' ? now : undefined;
      const row = await this.repo.update(tx, principal.accountId, id, { title, type, content, status }, now, guard, publishedAt);
      if (row) return this.changed(tx, principal, row, emit);
      throw this.explainMiss(await this.repo.get(tx, principal.accountId, id), principal, guard);
    });
  }

  /** Archives an item; archiving an archived item changes nothing and still succeeds. */
  async archive(principal: Principal, id: string, precondition: Precondition): Promise<ContentItem> {
    requireScope(principal, 'content:write');
    const now = this.clock().toISOString();
    const guard = this.guardFor(principal, precondition);
    return this.events.change(principal.accountId, async (tx, emit) => {
      const row = await this.repo.archive(tx, principal.accountId, id, now, guard);
      if (row) return this.changed(tx, principal, row, emit);
      const current = await this.repo.get(tx, principal.accountId, id);
      if (current?.status === 'archived' && this.passes(current, principal, guard)) return current as ContentItem;
      throw this.explainMiss(current, principal, guard);
    });
  }

  async remove(principal: Principal, id: string, precondition: Precondition): Promise<void> {
    requireScope(principal, 'content:write');
    const guard = this.guardFor(principal, precondition);
    await this.events.change(principal.accountId, async (tx, emit) => {
      const deleted = await this.repo.delete(tx, principal.accountId, id, guard);
      if (!deleted) throw this.explainMiss(await this.repo.get(tx, principal.accountId, id), principal, guard);
      emit('content.deleted', { id });
    });
  }

  /** A new version of an existing item: its revision and its event, in the change's transaction. */
  private async changed(tx: Tx, principal: Principal, row: ContentRow, emit: Emit): Promise<ContentItem> {
    await this.revisions.record(tx, principal.accountId, row, principal.userId);
    emit('content.updated', row);
    return row as ContentItem;
  }

  /** Authors may change only their own items; everyone else with content:write may change any. */
  private guardFor(principal: Principal, precondition: Precondition): WriteGuard {
    return { versions: precondition, author: principal.role === 'author' ? principal.userId : undefined };
  }

  private passes(row: ContentRow, principal: Principal, guard: WriteGuard): boolean {
    return (guard.author === undefined || row.author === guard.author) && (guard.versions === undefined || guard.versions.includes(row.version));
  }

  /** Why a guarded write matched no row, checked in the contract's order: 404, then 403, then 412. */
  private explainMiss(current: ContentRow | undefined, principal: Principal, guard: WriteGuard): DomainError {
    if (!current) return notFound('Content item');
    if (guard.author !== undefined && current.author !== guard.author) {
      return forbidden(`Your role (${principal.role}) may change only content you authored.`);
    }
    return new DomainError('precondition_failed', `If-Match does not match the item's current ETag "${current.version}".`);
  }
}

/** What a cached item holds, roughly: its strings at two bytes a character, plus the object. */
function itemSize(item: ContentItem): number {
  return 2 * (item.content.length + item.title.length) + 512;
}
