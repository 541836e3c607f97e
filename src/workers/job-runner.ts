// The "sender" of bulk jobs for the outbox worker: one chunk of a job is one transaction on the store
// (domain/jobs/bulk-jobs.ts), so shutdown lets it finish rather than cancel it half-way. A chunk the
// store could not make comes back as an error result: the job is given back and tried again.
import type { BulkJobs, ChunkResult, JobClaim } from '../domain/jobs/bulk-jobs.js';
import type { OutboxSender, WorkerLog } from './outbox-worker.js';

export class JobRunner implements OutboxSender<JobClaim, ChunkResult> {
  constructor(
    private readonly jobs: BulkJobs,
    private readonly log: WorkerLog,
  ) {}

  async send(item: JobClaim): Promise<ChunkResult> {
    try {
      return await this.jobs.runChunk(item);
    } catch (error) {
      this.log.warn({ err: error, job: item.id }, 'a bulk job chunk failed; it is tried again');
      return { more: true, pauseMs: 0, error: error instanceof Error ? error.message : String(error) };
    }
  }

  close(): void {}
}
