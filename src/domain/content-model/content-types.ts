// Content models (CONTRACT.md §20): each account's typed fields per content type, read by anyone
// with content:read and changed by admins and owners. A model is cached per instance for at most a
// second, and a change made here drops it at once on this process and, through the peer relay, on
// the other workers of the host — the way API keys are (auth/authenticator.ts). Writes never rely
// on the cache: they read the model in their own transaction (`inTransaction`).
import type { Store, Tx } from '../../storage/db.js';
import type { ContentTypeRepository, ContentTypeRow } from '../../storage/content-type-repository.js';
import { DomainError, forbidden, invalid, notFound } from '../errors.js';
import type { EventLog } from '../events/event-log.js';
import type { Clock } from '../ids.js';
import type { PeerRelay } from '../peers.js';
import { requireScope, type Principal } from '../auth/permissions.js';
import { CONTENT_TYPES, type ContentType } from '../schemas/content.js';
import type { ContentTypeModel, FieldDefinition } from '../schemas/content-types.js';
import type { Precondition } from '../content/content-writes.js';
import { definitionErrors } from './definition-rules.js';
import type { FieldValidators } from './field-validator.js';
import { itemSchema, type JsonSchema } from './json-schema.js';
import type { MediaIds } from './media-ids.js';
import type { ModelChanges } from './model-changes.js';

const FRESH_MS = 1000;
const MAX_ENTRIES = 10_000;
const CHANGED = 'content-model.changed';

/** Told after a model change commits (the expression indexes follow the models). */
export type ModelListener = () => void;

interface Entry {
  model: ContentTypeModel;
  fetchedAt: number;
}

/** A stored row as the model clients see; none: the empty model, version 0. */
export function modelOf(type: ContentType, row: ContentTypeRow | undefined): ContentTypeModel {
  if (!row) return { type, fields: [], version: 0, updated_at: null };
  return { type, fields: JSON.parse(row.fields) as FieldDefinition[], version: row.version, updated_at: row.updated_at };
}

/** Changing a model takes content:write and the admin or owner role. */
export function requireModelEditor(principal: Principal): void {
  requireScope(principal, 'content:write');
  if (principal.role !== 'admin' && principal.role !== 'owner') throw forbidden(`Your role (${principal.role}) may not change content models; admins and owners may.`);
}

/** A path's type, or 404: anything else names no content type. */
function known(type: string): ContentType {
  if (!(CONTENT_TYPES as readonly string[]).includes(type)) throw notFound('Content type');
  return type as ContentType;
}

export class ContentTypes {
  private readonly cache = new Map<string, Entry>();
  /** Models read inside each open transaction (inTransaction). */
  private readonly readIn = new WeakMap<Tx, Map<string, ContentTypeModel>>();
  private generation = 0;
  private relay: PeerRelay | undefined;
  private readonly listeners: ModelListener[] = [];
  /** Checks `media` values; until the media library provides it, media fields cannot be defined. */
  media: MediaIds | undefined;

  constructor(
    private readonly store: Store,
    private readonly repo: ContentTypeRepository,
    private readonly events: EventLog,
    private readonly validators: FieldValidators,
    private readonly changes: ModelChanges,
    private readonly clock: Clock,
  ) {}

  /** With several server processes (WORKERS): tells the others which model changed here, and hears theirs. */
  relayTo(relay: PeerRelay): void {
    this.relay = relay;
    relay.subscribe(CHANGED, (key) => this.drop(key));
  }

  /** Hears every model change committed here (after commit). */
  onChange(listener: ModelListener): void {
    this.listeners.push(listener);
  }

  async list(principal: Principal): Promise<ContentTypeModel[]> {
    requireScope(principal, 'content:read');
    return Promise.all(CONTENT_TYPES.map((type) => this.model(principal.accountId, type)));
  }

  async get(principal: Principal, type: string): Promise<ContentTypeModel> {
    requireScope(principal, 'content:read');
    return this.model(principal.accountId, known(type));
  }

  /** The JSON Schema of the type's items as read. */
  async schema(principal: Principal, type: string, baseUrl: string): Promise<JsonSchema> {
    const model = await this.get(principal, type);
    return itemSchema(model.type, model.fields, model.version, baseUrl);
  }

  /** The account's model of `type`, cached for at most a second (list filters, reads). */
  async model(accountId: string, type: ContentType): Promise<ContentTypeModel> {
    const key = `${accountId}/${type}`;
    const cached = this.cache.get(key);
    if (cached && Date.now() - cached.fetchedAt < FRESH_MS) return cached.model;
    const generation = this.generation;
    const model = modelOf(type, await this.store.run((db) => this.repo.get(db, accountId, type)));
    if (generation === this.generation) {
      this.cache.set(key, { model, fetchedAt: Date.now() });
      if (this.cache.size > MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    }
    return model;
  }

  /**
   * The model as stored now, inside a write's transaction (never the cache across transactions):
   * read once per transaction, so a batch of 100 creates of one type reads it once. A model changes
   * only in its own transaction (`put`), never inside a content write's.
   */
  async inTransaction(tx: Tx, accountId: string, type: ContentType): Promise<ContentTypeModel> {
    let read = this.readIn.get(tx);
    if (!read) this.readIn.set(tx, (read = new Map()));
    const key = `${accountId}\0${type}`;
    let model = read.get(key);
    if (!model) read.set(key, (model = modelOf(type, await this.repo.get(tx, accountId, type))));
    return model;
  }

  /** Replaces the model of `type`: checked, then checked against the stored items, in one transaction with its event. */
  async put(principal: Principal, name: string, fields: FieldDefinition[], precondition: Precondition): Promise<ContentTypeModel> {
    requireModelEditor(principal);
    const type = known(name);
    const accountId = principal.accountId;
    const model = await this.events.change(accountId, async (tx, emit) => {
      const rows = await this.repo.all(tx, accountId);
      const others = Object.fromEntries(rows.filter((row) => row.type !== type).map((row) => [row.type, JSON.parse(row.fields) as FieldDefinition[]]));
      const errors = definitionErrors(type, fields, { media: this.media !== undefined, others }, this.validators);
      if (errors.length) throw invalid(errors);
      const current = modelOf(type, rows.find((row) => row.type === type));
      if (precondition !== undefined && !precondition.includes(current.version)) {
        throw new DomainError('precondition_failed', `If-Match does not match the model's current ETag "${current.version}".`);
      }
      if (JSON.stringify(current.fields) === JSON.stringify(fields)) return current;
      await this.changes.apply(tx, accountId, type, current.fields, fields);
      const next: ContentTypeModel = { type, fields, version: current.version + 1, updated_at: this.clock().toISOString() };
      await this.repo.save(tx, accountId, { type, fields: JSON.stringify(fields), version: next.version, updated_at: next.updated_at! });
      emit('content_type.updated', next);
      this.store.afterCommit(tx, () => this.changed(`${accountId}/${type}`));
      return next;
    });
    return model;
  }

  private changed(key: string): void {
    this.drop(key);
    this.relay?.publish(CHANGED, key);
    for (const listener of this.listeners) listener();
  }

  private drop(key: string): void {
    this.generation++;
    this.cache.delete(key);
  }
}
