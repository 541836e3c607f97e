// Every change of a content item, as work inside a transaction the caller holds (with the account's
// write turn): the single routes run one of these in their own `EventLog.change`, a batch runs
// several in one. Each reads the item first, so the contract's order of refusals (404, then 403,
// then 412) falls out of one place, and every capability that adds to an item (slugs, schedules,
// typed fields, media references) does so as a ContentWriteStep rather than a copy of these rules.
import type { Tx } from '../../storage/db.js';
import type { ContentRepository, ContentRow } from '../../storage/content-repository.js';
import { DomainError, forbidden, notFound } from '../errors.js';
import type { Emit } from '../events/event-log.js';
import { newId, type Clock } from '../ids.js';
import { requireScope, type Principal } from '../auth/permissions.js';
import type { ContentCreate, ContentItem, ContentUpdate } from '../schemas/content.js';
import { versionNumber, type ContentRevisions } from './revisions.js';

/** Versions an `If-Match` header allows; undefined means no precondition. */
export type Precondition = number[] | undefined;

/** One write in progress: what the item was and what it is about to become. */
export interface ContentWrite {
  /** `schedule`: a scheduled publish or unpublish, made by the scheduler as the person who set it. */
  readonly kind: 'create' | 'update' | 'restore' | 'archive' | 'schedule';
  readonly accountId: string;
  readonly principal: Principal;
  /** The item before the write; undefined on create. */
  readonly previous?: ContentRow;
  /** The item as it will be stored: a step may complete or change it. */
  next: ContentRow;
  /** The fields the client sent (create and update); undefined for restore and archive. */
  readonly input?: Readonly<Record<string, unknown>>;
}

/**
 * Work another capability does on every content write, inside its transaction. `prepare` runs
 * before the row is stored and may change `write.next` or refuse the write with a DomainError;
 * `written` runs after it is stored (side tables); `deleted` after an item is deleted. Every
 * `prepare` only reads, so a group's writes can be prepared again (see `ContentWrites.createEach`).
 *
 * A step may also take a group of creates at once: `prepareEach` gets them in order and must treat
 * each as if the ones before it that it did not refuse were stored already (what `prepare` one
 * after another would see), returning those it refuses; `writtenEach` stores a group's side rows.
 * A step without them gets `prepare` and `written` for each write of the group. `prepare` and
 * `written` may finish at once (return nothing) when a write gives them nothing to read or store:
 * a batch then spends no promise on them.
 */
export interface ContentWriteStep {
  prepare?(tx: Tx, write: ContentWrite): Promise<void> | void;
  prepareEach?(tx: Tx, creates: ContentWrite[]): Promise<Map<ContentWrite, DomainError>>;
  /** Its `prepareEach` judges each write alone, not by the ones before it: its refusals stand as `prepare`'s do. */
  readonly judgesEachAlone?: boolean;
  written?(tx: Tx, write: ContentWrite): Promise<void> | void;
  writtenEach?(tx: Tx, writes: ContentWrite[]): Promise<void>;
  deleted?(tx: Tx, accountId: string, id: string): Promise<void>;
}

/** Why a step refused one of a group's creates: the error, the step's place, and whether it took the group together. */
interface Refusal {
  error: DomainError;
  step: number;
  together: boolean;
}

export class ContentWrites {
  private readonly steps: ContentWriteStep[] = [];

  constructor(
    private readonly repo: ContentRepository,
    private readonly clock: Clock,
    private readonly revisions: ContentRevisions,
  ) {}

  /** Adds work to every content write (composition root only). */
  addStep(step: ContentWriteStep): void {
    this.steps.push(step);
  }

  async create(tx: Tx, emit: Emit, principal: Principal, input: ContentCreate): Promise<ContentItem> {
    const [made] = await this.createEach(tx, emit, principal, [input]);
    if (made instanceof DomainError) throw made;
    return made!;
  }

  /**
   * Several creates (a batch's, an import's) as `create` one after another would make them: each
   * item its own id, slug, revision and event, or the error it alone would have had, in the order
   * given. A refused one leaves no trace. The steps prepare the group together, and should any
   * write be refused the others are prepared again without it, so that none was given a slug
   * suffix on account of an item that is never stored. The items, their side rows and their
   * revisions are then written a few statements for the whole group rather than several per item.
   */
  async createEach(tx: Tx, emit: Emit, principal: Principal, inputs: ContentCreate[]): Promise<(ContentItem | DomainError)[]> {
    try {
      requireScope(principal, 'content:write');
    } catch (error) {
      if (error instanceof DomainError) return inputs.map(() => error);
      throw error;
    }
    const made: (ContentItem | DomainError)[] = new Array(inputs.length);
    let pending = inputs.map((_, i) => i);
    let writes: ContentWrite[] = [];
    while (pending.length > 0) {
      writes = pending.map((i) => this.newItem(principal, inputs[i]!));
      const refused = await this.prepareEach(tx, writes);
      if (refused.size === 0) break;
      // A step that took the group together judged each write with the earlier ones as it saw them:
      // its refusal stands unless an earlier write was then refused by a step after it (a slug said
      // taken by an item never stored); such writes are prepared again, with the rest, without the
      // refused ones. The first refused write's refusal always stands, so this ends.
      let latest = -1;
      pending = pending.filter((i, k) => {
        const refusal = refused.get(writes[k]!);
        if (!refusal) return true;
        const stands = !refusal.together || latest <= refusal.step;
        latest = Math.max(latest, refusal.step);
        if (stands) made[i] = refusal.error;
        return !stands;
      });
      writes = [];
    }
    if (writes.length === 0) return made;
    await this.repo.insertMany(tx, principal.accountId, writes.map((write) => write.next));
    for (const step of this.steps) {
      if (step.writtenEach) await step.writtenEach(tx, writes);
      else if (step.written) {
        for (const write of writes) {
          const storing = step.written(tx, write);
          if (storing) await storing;
        }
      }
    }
    await this.revisions.recordEach(tx, principal.accountId, writes.map((write) => write.next), principal.userId);
    writes.forEach((write, k) => {
      emit('content.created', write.next);
      made[pending[k]!] = write.next as ContentItem;
    });
    return made;
  }

  /** A create as it starts, before the steps complete it. */
  private newItem(principal: Principal, input: ContentCreate): ContentWrite {
    const now = this.clock().toISOString();
    const status = input.status ?? 'draft';
    const { title, type, content } = input;
    const next: ContentRow = {
      id: newId('content'),
      title,
      type,
      slug: input.slug ?? null,
      content,
      status,
      author: principal.userId,
      created_at: now,
      updated_at: now,
      published_at: status === 'published' ? now : null,
      publish_at: input.publish_at ?? null,
      unpublish_at: input.unpublish_at ?? null,
      version: 1,
      // Filled and checked by the content model's step (content-model/fields-step.ts).
      fields: {},
    };
    return { kind: 'create', accountId: principal.accountId, principal, next, input };
  }

  /** Each step's work before a group of creates is stored, in step order; the writes refused, with why and by which step. */
  private async prepareEach(tx: Tx, writes: ContentWrite[]): Promise<Map<ContentWrite, Refusal>> {
    const refused = new Map<ContentWrite, Refusal>();
    for (const [step, work] of this.steps.entries()) {
      const live = writes.filter((write) => !refused.has(write));
      if (work.prepareEach) {
        for (const [write, error] of await work.prepareEach(tx, live)) refused.set(write, { error, step, together: !work.judgesEachAlone });
        continue;
      }
      if (!work.prepare) continue;
      for (const write of live) {
        try {
          const reading = work.prepare(tx, write);
          if (reading) await reading;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          refused.set(write, { error, step, together: false });
        }
      }
    }
    return refused;
  }

  async update(tx: Tx, emit: Emit, principal: Principal, id: string, input: ContentUpdate, precondition: Precondition): Promise<ContentItem> {
    requireScope(principal, 'content:write');
    const previous = await this.current(tx, principal, id, precondition);
    const { title, type, content, status, slug, publish_at, unpublish_at } = input;
    const changes = Object.fromEntries(Object.entries({ title, type, content, status, slug, publish_at, unpublish_at }).filter(([, value]) => value !== undefined));
    return this.change(tx, emit, { kind: 'update', accountId: principal.accountId, principal, previous, next: this.successor(previous, changes), input });
  }

  /**
   * Makes the item what revision `version` was (title, type, body and status) at a new version;
   * published_at keeps the first-publication rule. `version` is the path segment as given.
   */
  async restore(tx: Tx, emit: Emit, principal: Principal, id: string, version: string, precondition: Precondition): Promise<ContentItem> {
    requireScope(principal, 'content:write');
    const number = versionNumber(version);
    const revision = await this.revisions.find(tx, principal.accountId, id, number);
    if (!revision) {
      const exists = await this.repo.get(tx, principal.accountId, id);
      throw notFound(exists ? 'Revision' : 'Content item');
    }
    const previous = await this.current(tx, principal, id, precondition);
    const { title, type, content, status, fields } = revision;
    return this.change(tx, emit, { kind: 'restore', accountId: principal.accountId, principal, previous, next: this.successor(previous, { title, type, content, status, fields: fields ?? {} }) });
  }

  /**
   * Publishes an item (a batch's or a bulk job's `publish`): the update `{"status": "published"}`
   * would make, except that publishing a published item changes nothing and still succeeds, as
   * archiving does, so a job that runs a chunk again does nothing twice.
   */
  async publish(tx: Tx, emit: Emit, principal: Principal, id: string, precondition: Precondition): Promise<ContentItem> {
    requireScope(principal, 'content:write');
    const previous = await this.current(tx, principal, id, precondition);
    if (previous.status === 'published') return previous as ContentItem;
    const input = { status: 'published' as const };
    return this.change(tx, emit, { kind: 'update', accountId: principal.accountId, principal, previous, next: this.successor(previous, input), input });
  }

  /** Archives an item; archiving an archived item changes nothing and still succeeds. */
  async archive(tx: Tx, emit: Emit, principal: Principal, id: string, precondition: Precondition): Promise<ContentItem> {
    requireScope(principal, 'content:write');
    const previous = await this.current(tx, principal, id, precondition);
    if (previous.status === 'archived') return previous as ContentItem;
    return this.change(tx, emit, { kind: 'archive', accountId: principal.accountId, principal, previous, next: this.successor(previous, { status: 'archived' }) });
  }

  /**
   * A scheduled transition, made as `principal` (the person who set the time, as they are now): a
   * publish makes the item published (published_at, if it was never published, the time it was due);
   * an unpublish archives it. The schedule's time is cleared in the same version.
   */
  async scheduled(tx: Tx, emit: Emit, principal: Principal, id: string, action: 'publish' | 'unpublish', dueAt: string): Promise<ContentItem> {
    requireScope(principal, 'content:write');
    const previous = await this.current(tx, principal, id, undefined);
    const changes: Partial<ContentRow> =
      action === 'publish' ? { status: 'published', publish_at: null, published_at: previous.published_at ?? dueAt } : { status: 'archived', unpublish_at: null };
    return this.change(tx, emit, { kind: 'schedule', accountId: principal.accountId, principal, previous, next: this.successor(previous, changes) });
  }

  async remove(tx: Tx, emit: Emit, principal: Principal, id: string, precondition: Precondition): Promise<void> {
    requireScope(principal, 'content:write');
    await this.current(tx, principal, id, precondition);
    await this.repo.delete(tx, principal.accountId, id);
    for (const step of this.steps) await step.deleted?.(tx, principal.accountId, id);
    emit('content.deleted', { id });
  }

  /** The item `principal` may change under `precondition`, refused in the contract's order: 404, then 403, then 412. */
  private async current(tx: Tx, principal: Principal, id: string, precondition: Precondition): Promise<ContentRow> {
    const row = await this.repo.get(tx, principal.accountId, id);
    if (!row) throw notFound('Content item');
    // Authors may change only their own items; everyone else with content:write may change any.
    if (principal.role === 'author' && row.author !== principal.userId) {
      throw forbidden(`Your role (${principal.role}) may change only content you authored.`);
    }
    if (precondition !== undefined && !precondition.includes(row.version)) {
      throw new DomainError('precondition_failed', `If-Match does not match the item's current ETag "${row.version}".`);
    }
    return row;
  }

  /** The next version of `previous` with `changes`; published_at is set the first time the item is published. */
  private successor(previous: ContentRow, changes: Partial<ContentRow>): ContentRow {
    const now = this.clock().toISOString();
    const next = { ...previous, ...changes, updated_at: now, version: previous.version + 1 };
    if (next.status === 'published' && next.published_at === null) next.published_at = now;
    return next;
  }

  private async change(tx: Tx, emit: Emit, write: ContentWrite): Promise<ContentItem> {
    for (const step of this.steps) await step.prepare?.(tx, write);
    await this.repo.replace(tx, write.accountId, write.next, write.previous!);
    return this.stored(tx, emit, write, 'content.updated');
  }

  /** A stored version: the steps' side tables, its revision and its event, in the write's transaction. */
  private async stored(tx: Tx, emit: Emit, write: ContentWrite, event: 'content.updated'): Promise<ContentItem> {
    for (const step of this.steps) await step.written?.(tx, write);
    await this.revisions.recordEach(tx, write.accountId, [write.next], write.principal.userId);
    emit(event, write.next);
    return write.next as ContentItem;
  }
}
