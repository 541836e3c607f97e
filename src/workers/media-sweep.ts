// Removes media bytes that no record names (CONTRACT.md §18): staged uploads that never finished,
// originals whose record never committed or was deleted, and their variants. Only objects older
// than the grace period go, so bytes whose record is about to commit are never touched (an upload
// of bytes already stored writes them again, which makes them young again).
import type { MediaStore } from '../domain/media/media-store.js';
import type { Store } from '../storage/db.js';
import type { MediaRepository } from '../storage/media-repository.js';

export const SWEEP_GRACE_MS = 30 * 60_000;

export async function sweepMedia(store: Store, repo: MediaRepository, bytes: MediaStore, now: Date, graceMs = SWEEP_GRACE_MS): Promise<{ removed: number }> {
  const before = now.getTime() - graceMs;
  let removed = 0;
  for await (const object of bytes.list('tmp/')) {
    if (object.modifiedAt.getTime() > before) continue;
    await bytes.delete(object.key);
    removed++;
  }
  for await (const object of bytes.list('blobs/')) {
    if (object.modifiedAt.getTime() > before) continue;
    const sha256 = object.key.slice('blobs/'.length);
    if (await store.run((db) => repo.anyWithSha(db, sha256))) continue;
    for await (const variant of bytes.list(`variants/${sha256}/`)) await bytes.delete(variant.key);
    await store.run((db) => repo.dropVariants(db, sha256));
    await bytes.delete(object.key);
    removed++;
  }
  return { removed };
}
