// Bulk jobs (CONTRACT.md §21, docs/bulk.md): publish, archive or delete every item a filter matches,
// as an outbox queue for the one worker loop. A job is a row claimed under a lease (once across
// instances); each claim runs one chunk: the next CHUNK items of the content list's own keyset walk
// (newest first among the items that existed when the job was created), changed by ContentWrites as
// the job's creator is *now* (actingAs: a creator demoted below editor fails the job, saying why),
// in ONE transaction that also records the job's progress and position — so a kill -9 leaves either
// the whole chunk and its progress or neither: nothing done twice, nothing skipped. Between chunks
// the job pauses as long as its last chunk took, so live requests get at least half the writer.
// `set_fields` is an update of each item's typed fields (checked against the model when the job is
// created, and by each item's write); its filter may use `fields.*` as the list does.
import type { Store, Tx } from '../../storage/db.js';
import type { ContentRepository } from '../../storage/content-repository.js';
import type { ContentJobRepository, JobRow } from '../../storage/content-job-repository.js';
import type { Position, SortKey } from '../../storage/content-sort.js';
import { inSavepoint } from '../../storage/savepoint.js';
import type { UserRepository } from '../../storage/user-repository.js';
import { actingAs } from '../auth/acting-user.js';
import { requireScope, type Principal, type Scope } from '../auth/permissions.js';
import type { ContentWrites } from '../content/content-writes.js';
import { listRequest, type ListRequest, type ModelLookup } from '../content/list-request.js';
import type { ContentListQuery, ContentType } from '../schemas/content.js';
import { DomainError, forbidden, invalid, notFound, type FieldError } from '../errors.js';
import type { Emit, EventLog, EventType } from '../events/event-log.js';
import { newId, type Clock } from '../ids.js';
import type { Capacity, OutboxQueue, Wake } from '../outbox.js';
import { pageWindow } from '../schemas/common.js';
import { continuation, cursorPage } from '../keyset-cursor.js';
import type { BulkBody, Job, JobAction, JobError, JobFilter, JobListQuery, JobPage, JobState } from '../schemas/jobs.js';

/**
 * Items per chunk, one transaction each. On SQLite the one writer runs on the event loop: a chunk
 * holds every request of its process for its whole transaction, so it is kept to about 10 ms
 * there (200 items held readers ~80 ms: their p99 was 4.2× the quiet one; docs/bulk.md).
 * PostgreSQL writes beside the event loop.
 */
export const CHUNK = { sqlite: 25, postgres: 200 } as const;
/** The shortest pause between two chunks of a job. */
const MIN_PAUSE_MS = 20;
const MAX_ERRORS = 100;
const ORDER: SortKey[] = [{ field: 'created_at', desc: true }];
const RUNS_JOBS = new Set(['editor', 'admin', 'owner']);
const FINISHED = new Set<string>(['succeeded', 'failed', 'cancelled']);

/** A claimed job: one chunk of it is run under `lease`. */
export interface JobClaim {
  id: string;
  accountId: string;
  lease: string;
}

/** What a chunk came to: more to do (after `pauseMs`), or not; `error` when the store failed (tried again). */
export interface ChunkResult {
  more: boolean;
  pauseMs: number;
  error?: string;
}

export function present(row: JobRow): Job {
  return {
    id: row.id,
    action: row.action as JobAction,
    status: row.state as JobState,
    total: Number(row.total),
    done: Number(row.done),
    failed: Number(row.failed),
    errors: JSON.parse(row.errors) as JobError[],
    created_by: row.created_by,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

/** The fields a set_fields job sets (checked for their shape here, against the model later); other actions take none. */
function fieldsOf(body: BulkBody): Fields | undefined {
  const errors: FieldError[] = [];
  if (body.action !== 'set_fields') {
    if (body.fields !== undefined) errors.push({ field: 'fields', code: 'invalid_value', message: 'Only the set_fields action takes fields.' });
  } else {
    if (body.fields === undefined) errors.push({ field: 'fields', code: 'required', message: 'set_fields needs the fields to set.' });
    else if (Object.keys(body.fields).length === 0) errors.push({ field: 'fields', code: 'too_short', message: 'set_fields needs at least one field to set.' });
    if (body.filter.type === undefined) errors.push({ field: 'filter.type', code: 'required', message: "set_fields needs filter.type: fields are those of one type's model." });
  }
  if (errors.length) throw invalid(errors);
  return body.fields as Fields | undefined;
}

/** Who may start, cancel and keep running a job: editors and above with content:write. */
function refusal(principal: Principal): string | undefined {
  if (!principal.scopes.includes('content:write')) return 'The key lacks the content:write scope.';
  return RUNS_JOBS.has(principal.role) ? undefined : `Bulk jobs need the editor role or above; the role is ${principal.role}.`;
}

/** What set_fields needs of the content model: the models (for fields.* filters) and the check of the fields it sets. */
export interface JobModel {
  models: ModelLookup;
  fields: { check(tx: Tx, accountId: string, type: ContentType, given: Record<string, unknown>): Promise<FieldError[]> };
}

type Fields = Record<string, unknown>;

/** The filter as the content list reads it (fields.* against the type's model); a bad one is a 422 on filter.<name>. */
async function requestOf(accountId: string, filter: JobFilter, models: ModelLookup): Promise<ListRequest> {
  try {
    return await listRequest(accountId, filter as ContentListQuery, models);
  } catch (error) {
    if (error instanceof DomainError && error.errors) throw invalid(error.errors.map((e) => ({ ...e, field: `filter.${e.field}` })));
    throw error;
  }
}

export class BulkJobs implements OutboxQueue<JobClaim, ChunkResult> {
  constructor(
    private readonly store: Store,
    private readonly jobs: ContentJobRepository,
    private readonly content: ContentRepository,
    private readonly writes: ContentWrites,
    private readonly events: EventLog,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    /** Tells this process's worker a job was queued. */
    readonly wake: Wake,
    private readonly model: JobModel,
  ) {}

  /** POST /v1/content/bulk: counts the matching items and queues the job (a job of none has succeeded at once). */
  async create(principal: Principal, body: BulkBody): Promise<Job> {
    requireScope(principal, 'content:write');
    const refused = refusal(principal);
    if (refused) throw forbidden(refused);
    const setFields = fieldsOf(body);
    const request = await requestOf(principal.accountId, body.filter, this.model.models);
    const { total } = await this.store.run(async (db) => {
      const search = request.words && (await this.content.prepareSearch(db, principal.accountId, request.words));
      return this.content.total(db, principal.accountId, request.filter, search);
    });
    const now = this.clock().toISOString();
    const empty = total === 0;
    // The walk starts at the newest item that exists now: items created later are not the job's.
    const start: Position = { values: [now], id: 'content_~' };
    const row: JobRow = {
      id: newId('job'),
      account_id: principal.accountId,
      action: body.action,
      filter: JSON.stringify(body.filter),
      scopes: JSON.stringify(principal.scopes),
      state: empty ? 'succeeded' : 'queued',
      status: empty ? 'done' : 'pending',
      next_attempt_at: now,
      lease: null,
      locked_until: null,
      position: JSON.stringify(start),
      total,
      done: 0,
      failed: 0,
      errors: '[]',
      created_by: principal.userId,
      created_at: now,
      started_at: empty ? now : null,
      finished_at: empty ? now : null,
      fields: setFields === undefined ? null : JSON.stringify(setFields),
    };
    // The job is the transaction's result: what a keyed request's stored response is made from.
    return this.events.change(principal.accountId, async (tx, emit) => {
      // The fields are checked as an update's would be, in the transaction that queues the job.
      if (setFields !== undefined) {
        const errors = await this.model.fields.check(tx, principal.accountId, body.filter.type!, setFields);
        if (errors.length) throw invalid(errors);
      }
      await this.jobs.insert(tx, row);
      if (empty) emit('job.finished', present(row));
      else this.store.afterCommit(tx, () => this.wake.notify());
      return present(row);
    });
  }

  async get(principal: Principal, id: string): Promise<Job> {
    requireScope(principal, 'content:read');
    const row = await this.store.run((db) => this.jobs.get(db, principal.accountId, id));
    if (!row) throw notFound('Job');
    return present(row);
  }

  /** The account's jobs, newest first, by offset or by cursor (CONTRACT.md §17 paging). */
  async list(principal: Principal, query: JobListQuery): Promise<JobPage> {
    requireScope(principal, 'content:read');
    const { limit } = pageWindow(query);
    const { after, offset } = continuation(query, principal.accountId, {});
    const { rows, total } = await this.store.run((db) => this.jobs.list(db, principal.accountId, limit + 1, offset, after));
    const page = cursorPage(rows, { limit, offset, after, total }, principal.accountId);
    return { data: page.rows.map(present), pagination: page.pagination };
  }

  /** Cancels a queued or running job: what was done stays done; a finished job → 409. */
  cancel(principal: Principal, id: string): Promise<Job> {
    requireScope(principal, 'content:write');
    return this.events.change(principal.accountId, async (tx, emit) => {
      const row = await this.jobs.get(tx, principal.accountId, id);
      if (!row) throw notFound('Job');
      const refused = refusal(principal);
      if (refused) throw forbidden(refused);
      if (FINISHED.has(row.state)) throw new DomainError('conflict', `The job has already ${row.state === 'cancelled' ? 'been cancelled' : row.state}; only a queued or running job can be cancelled.`);
      return this.end(tx, emit, row, { state: 'cancelled' });
    });
  }

  async claim(lease: string, leaseMs: number, capacity: Capacity): Promise<JobClaim[]> {
    if (capacity.total <= 0) return [];
    const now = this.clock();
    const nowIso = now.toISOString();
    const due = await this.store.run((db) => this.jobs.dueAnyAccount(db, nowIso, capacity.total));
    if (due.length === 0) return [];
    const until = new Date(now.getTime() + leaseMs).toISOString();
    const rows = await this.store.transaction((tx) => this.jobs.claimAnyAccount(tx, due, nowIso, lease, until));
    return rows.map((row) => ({ id: row.id, accountId: row.account_id, lease }));
  }

  renew(ids: string[], lease: string, leaseMs: number): Promise<void> {
    const until = new Date(this.clock().getTime() + leaseMs).toISOString();
    return this.store.transaction((tx) => this.jobs.renewAnyAccount(tx, ids, lease, until));
  }

  release(ids: string[], lease: string): Promise<void> {
    return this.store.transaction((tx) => this.jobs.releaseAnyAccount(tx, ids, lease));
  }

  async finish(item: JobClaim, lease: string, result: ChunkResult): Promise<number | undefined> {
    if (result.error !== undefined) {
      // The store did not answer: the chunk made nothing; give the job back and try again shortly.
      await this.release([item.id], lease);
      return 1000;
    }
    return result.more ? result.pauseMs : undefined;
  }

  /** One chunk of a claimed job. */
  async runChunk(item: JobClaim): Promise<ChunkResult> {
    const { accountId, id, lease } = item;
    const job = await this.store.run((db) => this.jobs.get(db, accountId, id));
    if (!job || job.lease !== lease || job.status !== 'pending') return { more: false, pauseMs: 0 };
    const request = await requestOf(accountId, JSON.parse(job.filter) as JobFilter, this.model.models);
    const after = JSON.parse(job.position) as Position;
    // Read outside the transaction (the list's own query); each item is read again by its write.
    const page = await this.store.run(async (db) => {
      const search = request.words && (await this.content.prepareSearch(db, accountId, request.words));
      return this.content.page(db, accountId, { filter: request.filter, search, order: ORDER, after, limit: CHUNK[this.store.dialect], offset: 0 });
    });
    const started = performance.now();
    return this.events.change(accountId, async (tx, emit): Promise<ChunkResult> => {
      const row = await this.jobs.get(tx, accountId, id);
      // Cancelled, or taken over after a lapsed lease, since it was read: this claim does nothing.
      if (!row || row.lease !== lease || row.status !== 'pending' || row.position !== job.position) return { more: false, pauseMs: 0 };
      const principal = await actingAs(tx, this.users, { accountId, userId: row.created_by, scopes: JSON.parse(row.scopes) as Scope[] });
      const refused = principal ? refusal(principal) : 'The person who created the job is no longer a user of the account.';
      if (refused || !principal) {
        await this.end(tx, emit, row, { state: 'failed', reason: { id: null, code: 'forbidden', message: `The job stopped: ${refused!}` } });
        return { more: false, pauseMs: 0 };
      }
      const errors = JSON.parse(row.errors) as JobError[];
      let done = 0;
      let failed = 0;
      for (const listed of page.rows) {
        const emitted: { type: EventType; data: object }[] = [];
        try {
          await inSavepoint(tx, () => this.apply(tx, (type, data) => void emitted.push({ type, data }), principal, row, listed.id));
          for (const event of emitted) emit(event.type, event.data);
          done++;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          failed++;
          if (errors.length < MAX_ERRORS) errors.push({ id: listed.id, code: error.code, message: error.message });
        }
      }
      const progress = { done: Number(row.done) + done, failed: Number(row.failed) + failed, errors: JSON.stringify(errors), started_at: row.started_at ?? this.clock().toISOString() };
      if (page.next === null) {
        await this.end(tx, emit, row, { state: 'succeeded', progress });
        return { more: false, pauseMs: 0 };
      }
      const pauseMs = Math.max(MIN_PAUSE_MS, Math.round(performance.now() - started));
      const next = new Date(this.clock().getTime() + pauseMs).toISOString();
      await this.jobs.update(tx, accountId, id, { ...progress, state: 'running', position: JSON.stringify(page.next), lease: null, locked_until: null, next_attempt_at: next });
      return { more: true, pauseMs };
    });
  }

  private async apply(tx: Tx, emit: Emit, principal: Principal, job: JobRow, id: string): Promise<void> {
    const action = job.action as JobAction;
    if (action === 'publish') await this.writes.publish(tx, emit, principal, id, undefined);
    else if (action === 'archive') await this.writes.archive(tx, emit, principal, id, undefined);
    else if (action === 'set_fields') await this.setFields(tx, emit, principal, id, JSON.parse(job.fields!) as Fields);
    else await this.writes.remove(tx, emit, principal, id, undefined);
  }

  /** An update of the item's fields; an item that holds them already counts as done without a change (as publish does). */
  private async setFields(tx: Tx, emit: Emit, principal: Principal, id: string, fields: Fields): Promise<void> {
    const item = await this.content.get(tx, principal.accountId, id);
    const holds = item !== undefined && Object.entries(fields).every(([name, value]) => JSON.stringify(item.fields[name] ?? null) === JSON.stringify(value));
    if (!holds) await this.writes.update(tx, emit, principal, id, { fields }, undefined);
  }

  /** Ends a job (succeeded, failed, cancelled) with its job.finished event, in the caller's transaction. */
  private async end(
    tx: Tx,
    emit: Emit,
    row: JobRow,
    how: { state: 'succeeded' | 'failed' | 'cancelled'; progress?: Partial<JobRow>; reason?: JobError },
  ): Promise<Job> {
    const now = this.clock().toISOString();
    const errors = how.reason ? JSON.stringify([...(JSON.parse(row.errors) as JobError[]).slice(0, MAX_ERRORS - 1), how.reason]) : undefined;
    const ended: JobRow = { ...row, ...how.progress, ...(errors ? { errors } : {}), state: how.state, status: 'done', lease: null, locked_until: null, finished_at: now };
    ended.started_at ??= how.state === 'cancelled' ? null : now;
    // A search's total may have been counted only up to its cap: at the end it is what was walked.
    if (how.state === 'succeeded') ended.total = Math.max(Number(ended.total), Number(ended.done) + Number(ended.failed));
    await this.jobs.update(tx, row.account_id, row.id, ended);
    const job = present(ended);
    emit('job.finished', job);
    return job;
  }
}
