// Content batches (CONTRACT.md §21): up to 100 changes in one request. `batch` sends them as given;
// results come back in order, each with the status the operation alone would have had.
import type { Client } from 'openapi-fetch';
import type { operations, paths } from './schema.js';
import { unwrap } from './unwrap.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type BatchBody = Json<operations['batchContent']['requestBody']>;
export type BatchOperation = BatchBody['operations'][number];
export type BatchResult = Json<operations['batchContent']['responses'][200]>['data'][number];

export interface BatchOptions {
  /** false: every operation stands alone (default true: all or nothing). */
  atomic?: boolean;
  /** Makes the whole batch safe to repeat (the same key and body replay the first answer). */
  idempotencyKey?: string;
}

export function batchApi(api: Client<paths>) {
  /**
   * @example
   * const results = await cms.content.batch([
   *   { op: 'create', data: { title: 'One', type: 'blog', content: '# 1' } },
   *   { op: 'publish', id: 'content_…', if_match: '"3"' },
   * ]);
   */
  return async (operations: BatchOperation[], options: BatchOptions = {}): Promise<BatchResult[]> => {
    const body: BatchBody = { operations, ...(options.atomic === undefined ? {} : { atomic: options.atomic }) };
    const headers = options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {};
    return (await unwrap(api.POST('/v1/content/batch', { body, headers }))).data;
  };
}
