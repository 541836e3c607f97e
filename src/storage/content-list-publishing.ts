// The list filters publishing adds (CONTRACT.md §19), in one piece: `slug` (the item holding that
// slug now or as an alias, found through content_slugs' primary key) and `scheduled` (items with a
// pending transition, found through content_schedules). Both narrow the list to a handful of ids
// read from a small indexed table, so neither needs an index on the content table.
import type { SelectQueryBuilder } from 'kysely';
import type { Db } from './db.js';
import type { Database } from './schema.js';

export interface PublishingFilter {
  /** Only the item holding this slug (current or old); with `type`, in that type only. */
  slug?: string;
  /** Only items with a pending publish or unpublish. */
  scheduled?: boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any selection over content
type ContentQuery<O = any> = SelectQueryBuilder<Database, 'content', O>;

export function publishingFilter<Q extends ContentQuery>(db: Db, accountId: string, query: Q, filter: PublishingFilter & { type?: string }): Q {
  let narrowed = query as ContentQuery;
  if (filter.slug !== undefined) {
    let holders = db.selectFrom('content_slugs').select('content_slugs.content_id').where('content_slugs.account_id', '=', accountId).where('content_slugs.slug', '=', filter.slug);
    if (filter.type !== undefined) holders = holders.where('content_slugs.type', '=', filter.type);
    narrowed = narrowed.where('content.id', 'in', holders);
  }
  if (filter.scheduled) {
    narrowed = narrowed.where('content.id', 'in', db.selectFrom('content_schedules').select('content_schedules.content_id').where('content_schedules.account_id', '=', accountId).where('content_schedules.status', '=', 'pending'));
  }
  return narrowed as Q;
}

/**
 * The items with a publish time, for an order led by publish_at: every such item has its row in
 * content_schedules (pending, or failed and kept), so the dated part of the list is read from there.
 */
export function scheduledWithin<Q extends ContentQuery>(db: Db, accountId: string, lead: string, query: Q): Q {
  if (lead !== 'publish_at') return query;
  const dated = db.selectFrom('content_schedules').select('content_schedules.content_id').where('content_schedules.account_id', '=', accountId).where('content_schedules.action', '=', 'publish');
  return (query as ContentQuery).where('content.id', 'in', dated) as Q;
}
