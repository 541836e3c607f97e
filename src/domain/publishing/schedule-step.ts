// Scheduling (CONTRACT.md §19), as a step of every content write: `publish_at` and `unpublish_at`
// checked (in the future, at most 5 years ahead; a publish time not on a published item; the end
// after the start) and kept as pending rows for the scheduler, in the write's transaction. Setting
// the status by hand cancels both times, unless the same request sets them; a time the client sends
// again unchanged is not checked again (a failed schedule's past time may be echoed back).
import type { Tx } from '../../storage/db.js';
import type { ContentScheduleRepository, ScheduleAction } from '../../storage/content-schedule-repository.js';
import type { ContentWrite, ContentWriteStep } from '../content/content-writes.js';
import { invalid, type FieldError } from '../errors.js';
import type { Clock } from '../ids.js';
import type { Wake } from '../outbox.js';
import { MAX_SCHEDULE_YEARS } from '../schemas/content.js';
import type { Store } from '../../storage/db.js';

const FIELDS: Record<ScheduleAction, 'publish_at' | 'unpublish_at'> = { publish: 'publish_at', unpublish: 'unpublish_at' };

/** An ISO 8601 time as the store keeps it: UTC with milliseconds. */
export const utc = (time: string) => new Date(time).toISOString();

export class ScheduleStep implements ContentWriteStep {
  constructor(
    private readonly store: Store,
    private readonly schedules: ContentScheduleRepository,
    private readonly clock: Clock,
    /** Tells this process's scheduler that a time was set, so it looks at when the next one falls due. */
    private readonly wake: Wake,
  ) {}

  prepare(_tx: Tx, write: ContentWrite): void {
    // The scheduler's own transition clears its time and keeps the other one.
    if (write.kind === 'schedule') return;
    const { next, previous, input } = write;
    for (const field of Object.values(FIELDS)) {
      const given = input?.[field];
      if (typeof given === 'string') next[field] = utc(given);
      else if (previous && previous.status !== next.status && given === undefined) next[field] = null;
    }
    const now = this.clock().getTime();
    const limit = new Date(now);
    limit.setUTCFullYear(limit.getUTCFullYear() + MAX_SCHEDULE_YEARS);
    const errors: FieldError[] = [];
    const changed = (field: 'publish_at' | 'unpublish_at') => next[field] !== null && next[field] !== previous?.[field];
    for (const field of Object.values(FIELDS)) {
      if (!changed(field)) continue;
      const at = Date.parse(next[field]!);
      if (at <= now) errors.push({ field, code: 'invalid_value', message: `${field} must lie in the future.` });
      else if (at > limit.getTime()) errors.push({ field, code: 'out_of_range', message: `${field} must lie at most ${MAX_SCHEDULE_YEARS} years ahead.` });
    }
    if (next.publish_at !== null && next.status === 'published' && (changed('publish_at') || previous?.status !== 'published')) {
      errors.push({ field: 'publish_at', code: 'invalid_value', message: 'The item is published already: publish_at is for items not yet published (clear it with null).' });
    }
    if (next.publish_at !== null && next.unpublish_at !== null && next.unpublish_at <= next.publish_at && (changed('publish_at') || changed('unpublish_at'))) {
      const field = changed('unpublish_at') ? 'unpublish_at' : 'publish_at';
      if (!errors.some((e) => e.field === field)) {
        errors.push({ field, code: 'invalid_value', message: 'unpublish_at must lie after publish_at.' });
      }
    }
    if (errors.length) throw invalid(errors);
  }

  written(tx: Tx, write: ContentWrite): Promise<void> | void {
    const { next, previous } = write;
    const changed = (Object.entries(FIELDS) as [ScheduleAction, 'publish_at' | 'unpublish_at'][]).filter(([, field]) => next[field] !== (previous?.[field] ?? null));
    // Most writes set no time: nothing to store, and nothing to wait for.
    if (changed.length) return this.keep(tx, write, changed);
  }

  private async keep(tx: Tx, write: ContentWrite, changed: [ScheduleAction, 'publish_at' | 'unpublish_at'][]): Promise<void> {
    const { next, accountId } = write;
    for (const [action, field] of changed) {
      await this.schedules.set(tx, accountId, next.id, action, next[field], write.principal.userId, this.clock().toISOString());
    }
    if (changed.some(([, field]) => next[field] !== null)) this.store.afterCommit(tx, () => this.wake.notify());
  }
}
