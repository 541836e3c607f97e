// The publishing part of the composition (docs/publishing.md), kept beside services.ts: the slug and
// schedule steps every content write runs, the scheduler's queue and its wake-up, and the slug
// backfill. The loops that drive the queues are the server's (app.ts); the CLI builds this too, so
// its writes keep the same rules.
import { publicUrlOf, type Config } from './config.js';
import type { ContentWrites } from './domain/content/content-writes.js';
import type { EventLog } from './domain/events/event-log.js';
import type { Clock } from './domain/ids.js';
import { Wake } from './domain/outbox.js';
import { ScheduleStep } from './domain/publishing/schedule-step.js';
import { Scheduler } from './domain/publishing/scheduler.js';
import { SlugStep } from './domain/publishing/slugs.js';
import { PreviewLinks } from './domain/publishing/previews.js';
import { AccountRepository } from './storage/account-repository.js';
import { SlugBackfill } from './domain/publishing/slug-backfill.js';
import { BackgroundTaskRepository } from './storage/background-task-repository.js';
import type { openMail } from './mail-services.js';
import type { ContentRepository } from './storage/content-repository.js';
import { ContentScheduleRepository } from './storage/content-schedule-repository.js';
import { ContentSlugRepository } from './storage/content-slug-repository.js';
import type { Store } from './storage/db.js';
import type { UserRepository } from './storage/user-repository.js';

export interface PublishingDeps {
  store: Store;
  clock: Clock;
  events: EventLog;
  writes: ContentWrites;
  content: ContentRepository;
  users: UserRepository;
  mail: ReturnType<typeof openMail>;
  /** The public URL links are built from; the server knows its port only once it listens. */
  publicUrl?: () => string;
}

export function openPublishing(config: Config, deps: PublishingDeps) {
  const { store, clock } = deps;
  const slugRepo = new ContentSlugRepository();
  const scheduleRepo = new ContentScheduleRepository(store.dialect);
  const wake = new Wake();
  const slugs = new SlugStep(slugRepo, clock);
  deps.writes.addStep(slugs);
  deps.writes.addStep(new ScheduleStep(store, scheduleRepo, clock, wake));
  return {
    slugRepo,
    scheduleRepo,
    /** Due publish and unpublish transitions, for the outbox worker. */
    scheduler: new Scheduler(store, scheduleRepo, deps.writes, deps.content, deps.events, deps.users, deps.mail, clock),
    /** Tells this process's scheduler that a time was set here. */
    wake,
    /** Slugs for the items that existed before migration 015, in batches, for the outbox worker. */
    backfill: new SlugBackfill(store, new BackgroundTaskRepository(store.dialect), slugRepo, slugs, deps.events, clock),
    previews: new PreviewLinks(store, new AccountRepository(), deps.content, clock, config.previewTtlSeconds, deps.publicUrl ?? (() => publicUrlOf(config))),
  };
}
