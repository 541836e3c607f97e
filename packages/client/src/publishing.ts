// Publishing (CONTRACT.md §19) with the few helpers that add something over the generated calls:
// scheduling and clearing a schedule, finding an item by slug (current or old), preview links, and
// the Atom feed as text. Delivery keys (cms_live_dlv_…) may use `bySlug` and `feed`.
import type { Client } from 'openapi-fetch';
import type { ContentItem, ContentListItem, WriteOptions } from './content.js';
import type { operations, paths } from './schema.js';
import { unwrap } from './unwrap.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type PreviewLink = Json<operations['previewContent']['responses'][201]>['data'];
export type ContentType = NonNullable<NonNullable<operations['contentFeed']['parameters']['query']>['type']>;

export interface Schedule {
  /** Publish at this time (ISO 8601); null clears it. Omitted: left as it is. */
  publish_at?: string | null;
  /** Archive at this time; null clears it. Omitted: left as it is. */
  unpublish_at?: string | null;
}

const ifMatch = (options: WriteOptions = {}) => (options.ifMatch === undefined ? {} : { 'if-match': `"${options.ifMatch}"` });

export function publishingApi(api: Client<paths>) {
  return {
    /**
     * Sets (or with nulls, clears) an item's publish and unpublish times.
     * @example await cms.publishing.schedule(id, { publish_at: '2027-06-01T09:00:00Z' });
     */
    schedule: async (id: string, schedule: Schedule, options?: WriteOptions): Promise<ContentItem> =>
      (await unwrap(api.PUT('/v1/content/{id}', { params: { path: { id } }, body: schedule, headers: ifMatch(options) }))).data,

    /** The item holding `slug` now or as an old slug (of `type`, when given); undefined when none does. */
    bySlug: async (slug: string, options: { type?: ContentType } = {}): Promise<ContentListItem | undefined> =>
      (await unwrap(api.GET('/v1/content', { params: { query: { slug, ...options } } }))).data[0],

    /** A link that shows the item as it is when opened, without a key, until `expires_at`. */
    preview: async (id: string): Promise<PreviewLink> => (await unwrap(api.POST('/v1/content/{id}/preview', { params: { path: { id } } }))).data,

    /** The Atom feed of the 50 most recently published items, as XML text. */
    feed: async (options: { type?: ContentType } = {}): Promise<string> =>
      (await unwrap(api.GET('/v1/content/feed.atom', { params: { query: options }, parseAs: 'text' }))) as string,
  };
}
