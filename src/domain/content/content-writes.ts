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
 * `written` runs after it is stored (side tables); `deleted` after an item is deleted.
 */
export interface ContentWriteStep {
  prepare?(tx: Tx, write: ContentWrite): Promise<void>;
  written?(tx: Tx, write: ContentWrite): Promise<void>;
  deleted?(tx: Tx, accountId: string, id: string): Promise<void>;
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
    requireScope(principal, 'content:write');
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
    const write: ContentWrite = { kind: 'create', accountId: principal.accountId, principal, next, input };
    for (const step of this.steps) await step.prepare?.(tx, write);
    await this.repo.insert(tx, principal.accountId, write.next);
    return this.stored(tx, emit, write, 'content.created');
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
  private async stored(tx: Tx, emit: Emit, write: ContentWrite, event: 'content.created' | 'content.updated'): Promise<ContentItem> {
    for (const step of this.steps) await step.written?.(tx, write);
    await this.revisions.record(tx, write.accountId, write.next, write.principal.userId);
    emit(event, write.next);
    return write.next as ContentItem;
  }
}
