// Content items: listing, reading and every change, with the role rules and version preconditions.
import type { Store } from '../../storage/db.js';
import type { ContentRepository } from '../../storage/content-repository.js';
import { notFound } from '../errors.js';
import type { EventLog } from '../events/event-log.js';
import { PageCache, type CacheStats } from './page-cache.js';
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
import { encodeCursor, listRequest, type ModelLookup } from './list-request.js';
import type { ContentRevisions } from './revisions.js';
import { ContentWrites, type Precondition } from './content-writes.js';

export type { Precondition } from './content-writes.js';

export class ContentService {
  private readonly pages: PageCache<ContentPage>;
  private readonly items: PageCache<ContentItem>;
  private readonly rendered = new RenderCache();
  /** Turns `media:` references of rendered HTML into URLs (the media library sets it). */
  resolveMedia: (accountId: string, html: string) => Promise<string> = (_accountId, html) => Promise.resolve(html);

  constructor(
    private readonly store: Store,
    private readonly repo: ContentRepository,
    private readonly events: EventLog,
    /** Every change of an item, as work inside a transaction (the single routes here, batches elsewhere). */
    readonly writes: ContentWrites,
    readonly revisions: ContentRevisions,
    /** Each type's model of typed fields, for `fields.*` filters and sort keys (cached per instance). */
    private readonly models: ModelLookup,
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
    // A delivery key sees published items only, whatever status it asks for (CONTRACT.md §19).
    const delivery = principal.kind === 'delivery';
    const request = await listRequest(principal.accountId, delivery ? { ...query, status: undefined } : query, this.models);
    if (delivery) request.filter.status = 'published';
    const { type, status, slug, scheduled, fields } = request.filter;
    const key = JSON.stringify([principal.accountId, type, status, slug, scheduled, fields, request.q, request.sort, query.cursor, request.limit, request.offset]);
    // Read before the page, so a page cached under this generation is never older than it.
    const generation = this.pages.enabled ? await this.events.generation(principal.accountId) : 0;
    const cached = this.pages.get(key, generation);
    if (cached) return cached;
    const { rows, next, floor, total, exact } = await this.store.run(async (db) => {
      const search = request.words && (await this.repo.prepareSearch(db, principal.accountId, request.words));
      return this.repo.list(db, principal.accountId, { ...request, search, offset: request.offset ?? 0 });
    });
    const nextCursor = next && encodeCursor(principal.accountId, request, next, floor);
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
    // To a delivery key a draft or archived item does not exist.
    if (principal.kind === 'delivery' && item.status !== 'published') throw notFound('Content item');
    return query.render === 'html' ? { ...item, content_html: await this.resolveMedia(principal.accountId, await this.renderHtml(item)) } : item;
  }

  /** The body of `item` as sanitized HTML: the one Markdown entry point (render=html, previews, the feed). */
  renderHtml(item: Pick<ContentItem, 'id' | 'version' | 'content'>): Promise<string> {
    return this.rendered.html(item.id, item.version, item.content);
  }

  create(principal: Principal, input: ContentCreate): Promise<ContentItem> {
    // The item is the transaction's result: what a keyed request's stored response is made from.
    return this.events.change(principal.accountId, (tx, emit) => this.writes.create(tx, emit, principal, input));
  }

  update(principal: Principal, id: string, input: ContentUpdate, precondition: Precondition): Promise<ContentItem> {
    return this.events.change(principal.accountId, (tx, emit) => this.writes.update(tx, emit, principal, id, input, precondition));
  }

  /** Makes the item what revision `version` (the path segment as given) was, at a new version. */
  restore(principal: Principal, id: string, version: string, precondition: Precondition): Promise<ContentItem> {
    return this.events.change(principal.accountId, (tx, emit) => this.writes.restore(tx, emit, principal, id, version, precondition));
  }

  /** Archives an item; archiving an archived item changes nothing and still succeeds. */
  archive(principal: Principal, id: string, precondition: Precondition): Promise<ContentItem> {
    return this.events.change(principal.accountId, (tx, emit) => this.writes.archive(tx, emit, principal, id, precondition));
  }

  async remove(principal: Principal, id: string, precondition: Precondition): Promise<void> {
    await this.events.change(principal.accountId, (tx, emit) => this.writes.remove(tx, emit, principal, id, precondition));
  }
}

/** What a cached item holds, roughly: its strings at two bytes a character, plus the object. */
function itemSize(item: ContentItem): number {
  return 2 * (item.content.length + item.title.length) + 512;
}
