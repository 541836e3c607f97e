// The "sender" of the slug backfill for the outbox worker: a batch is work on the store
// (domain/publishing/slug-backfill.ts); a batch that fails (the store did not answer) is given back
// and tried again a little later, from where the last one stopped.
import type { BackfillBatch, BackfillResult, SlugBackfill } from '../domain/publishing/slug-backfill.js';
import type { OutboxSender } from './outbox-worker.js';

export class BackfillRunner implements OutboxSender<BackfillBatch, BackfillResult> {
  constructor(private readonly backfill: SlugBackfill) {}

  async send(item: BackfillBatch): Promise<BackfillResult> {
    try {
      return await this.backfill.run(item.position);
    } catch (error) {
      return { position: item.position, filled: 0, finished: false, longestMs: 0, error: error instanceof Error ? error.message : String(error) };
    }
  }

  close(): void {}
}
