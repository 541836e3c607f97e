// Bulk jobs (CONTRACT.md §21): start one over every item a filter matches, read it, cancel it, and
// `wait` for it to finish (polling its progress, reported to `onProgress`).
import type { Client } from 'openapi-fetch';
import type { operations, paths } from './schema.js';
import { unwrap } from './unwrap.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type Job = Json<operations['getJob']['responses'][200]>['data'];
export type BulkRequest = Json<operations['bulkContent']['requestBody']>;

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

export interface WaitOptions {
  /** Between two reads of the job (default 1000 ms). */
  intervalMs?: number;
  /** Give up after this long (default: never); rejects with an Error, the job goes on. */
  timeoutMs?: number;
  onProgress?: (job: Job) => void;
  signal?: AbortSignal;
}

export function jobsApi(api: Client<paths>) {
  const get = async (id: string): Promise<Job> => (await unwrap(api.GET('/v1/jobs/{id}', { params: { path: { id } } }))).data;
  return {
    /**
     * @example const job = await cms.jobs.start({ action: 'archive', filter: { status: 'draft' } });
     */
    start: async (body: BulkRequest, options: { idempotencyKey?: string } = {}): Promise<Job> =>
      (await unwrap(api.POST('/v1/content/bulk', { body, headers: options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {} }))).data,
    get,
    list: (query: { limit?: number; offset?: number; cursor?: string } = {}) => unwrap(api.GET('/v1/jobs', { params: { query } })),
    /** Cancels a queued or running job; what was done stays done. */
    cancel: async (id: string): Promise<Job> => (await unwrap(api.DELETE('/v1/jobs/{id}', { params: { path: { id } } }))).data,
    /**
     * Resolves with the job once it has finished (succeeded, failed or cancelled).
     * @example const done = await cms.jobs.wait(job.id, { onProgress: (j) => console.log(j.done, '/', j.total) });
     */
    async wait(id: string, options: WaitOptions = {}): Promise<Job> {
      const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
      for (;;) {
        const job = await get(id);
        options.onProgress?.(job);
        if (FINISHED.has(job.status)) return job;
        if (Date.now() >= deadline) throw new Error(`job ${id} has not finished within ${options.timeoutMs} ms (${job.done} of ${job.total} done)`);
        options.signal?.throwIfAborted();
        await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1000));
      }
    },
  };
}
