// The media library's services, built in the composition root: the store chosen by MEDIA_STORE,
// the records, variants, signed links, and the content write step that keeps references.
import type { Config } from './config.js';
import type { Clock } from './domain/ids.js';
import type { EventLog } from './domain/events/event-log.js';
import type { ContentWrites } from './domain/content/content-writes.js';
import type { Store } from './storage/db.js';
import { AccountRepository } from './storage/account-repository.js';
import { MediaRepository } from './storage/media-repository.js';
import { DiskMediaStore } from './domain/media/disk-store.js';
import { S3MediaStore } from './domain/media/s3-store.js';
import type { MediaStore } from './domain/media/media-store.js';
import { MediaService } from './domain/media/media.js';
import { MediaVariants } from './domain/media/variants.js';
import { MediaLinks } from './domain/media/links.js';
import { MediaReferences } from './domain/media/references.js';
import { sweepMedia } from './workers/media-sweep.js';

export async function openMedia(config: Config, deps: { store: Store; clock: Clock; events: EventLog; writes: ContentWrites; publicUrl: () => string }) {
  const { store, clock } = deps;
  let bytes: MediaStore;
  if (config.media.store.kind === 's3') {
    const s3 = new S3MediaStore(config.media.store);
    await s3.ensureBucket();
    bytes = s3;
  } else {
    bytes = new DiskMediaStore(config.media.store.dir);
  }
  const repo = new MediaRepository();
  const links = new MediaLinks(store, new AccountRepository(), clock, config.media.linkTtlSeconds);
  const media = new MediaService(store, repo, deps.events, bytes, config.media, clock, deps.publicUrl, links);
  const references = new MediaReferences(repo, media, links);
  deps.writes.addStep(references);
  return {
    media,
    variants: new MediaVariants(store, repo, bytes, clock),
    references,
    /** Removes bytes no record names, older than the grace period (hourly, and from tests). */
    sweep: (graceMs?: number) => sweepMedia(store, repo, bytes, clock(), graceMs),
    close: () => bytes.close(),
  };
}
