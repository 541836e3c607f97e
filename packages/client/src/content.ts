// Content items with the few helpers that add something over the generated calls: errors thrown as
// CmsApiError, If-Match from a version number, and `iterate`, which walks every page by cursor
// (CONTRACT.md §17) so a loop never skips or repeats an item while others write.
import type { Client } from 'openapi-fetch';
import type { operations, paths } from './schema.js';
import { unwrap } from './unwrap.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type ContentListQuery = NonNullable<operations['listContent']['parameters']['query']>;
export type ContentPage = Json<operations['listContent']['responses'][200]>;
export type ContentListItem = ContentPage['data'][number];
export type ContentItem = Json<operations['getContent']['responses'][200]>['data'];
export type ContentCreate = Json<operations['createContent']['requestBody']>;
export type ContentUpdate = Json<operations['updateContent']['requestBody']>;

export interface WriteOptions {
  /** The version you last saw: the change is refused (412) if the item has changed since. */
  ifMatch?: number;
}

const ifMatch = (options: WriteOptions = {}) => (options.ifMatch === undefined ? {} : { 'if-match': `"${options.ifMatch}"` });

export function contentApi(api: Client<paths>) {
  return {
    /** One page: filters, `q`, `sort`, `limit`, and `cursor` (from the previous page's `next_cursor`). */
    list: (query: ContentListQuery = {}) => unwrap(api.GET('/v1/content', { params: { query } })),

    /**
     * Every item that matches, page after page by cursor.
     * @example for await (const item of cms.content.iterate({ status: 'published' })) console.log(item.title);
     */
    async *iterate(query: Omit<ContentListQuery, 'cursor' | 'offset'> = {}): AsyncGenerator<ContentListItem> {
      const limit = query.limit ?? 100;
      let page = await unwrap(api.GET('/v1/content', { params: { query: { ...query, limit } } }));
      for (;;) {
        yield* page.data;
        const cursor = page.pagination.next_cursor;
        if (cursor === null || cursor === undefined) return;
        // The cursor carries the filters, q and sort of the first request.
        page = await unwrap(api.GET('/v1/content', { params: { query: { cursor, limit } } }));
      }
    },

    get: async (id: string, options: { render?: 'html' } = {}): Promise<ContentItem> =>
      (await unwrap(api.GET('/v1/content/{id}', { params: { path: { id }, query: options.render ? { render: options.render } : {} } }))).data,

    /** Creates an item. Retried safely: every POST carries an Idempotency-Key (yours, or a new one). */
    create: async (body: ContentCreate, options: { idempotencyKey?: string } = {}): Promise<ContentItem> =>
      (await unwrap(api.POST('/v1/content', { body, headers: options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {} }))).data,

    update: async (id: string, body: ContentUpdate, options?: WriteOptions): Promise<ContentItem> =>
      (await unwrap(api.PUT('/v1/content/{id}', { params: { path: { id } }, body, headers: ifMatch(options) }))).data,

    publish: async (id: string, options?: WriteOptions): Promise<ContentItem> =>
      (await unwrap(api.PUT('/v1/content/{id}', { params: { path: { id } }, body: { status: 'published' }, headers: ifMatch(options) }))).data,

    archive: async (id: string, options?: WriteOptions): Promise<ContentItem> =>
      (await unwrap(api.POST('/v1/content/{id}/archive', { params: { path: { id } }, headers: ifMatch(options) }))).data,

    /** Deletes an item for good. */
    delete: async (id: string, options?: WriteOptions): Promise<void> => {
      await unwrap(api.DELETE('/v1/content/{id}', { params: { path: { id } }, headers: ifMatch(options) }));
    },
  };
}
