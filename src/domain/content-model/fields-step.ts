// Typed fields (CONTRACT.md §20) as a step of every content write: the given `fields` merged into
// the stored ones (null removes one), defaults given to new items, the result checked against the
// type's model as stored in this transaction (one compiled schema per model: field-validator.ts),
// then references and media ids checked in the same transaction. Archiving and scheduled
// transitions leave fields alone; an update that sends no fields and keeps the type is not re-checked.
// After the row is stored, the searchable text of its text fields follows when it changed (search-text.ts).
import type { Tx } from '../../storage/db.js';
import type { ContentRepository } from '../../storage/content-repository.js';
import type { ContentWrite, ContentWriteStep } from '../content/content-writes.js';
import { DomainError, invalid, type FieldError } from '../errors.js';
import type { ContentTypeModel, FieldDefinition } from '../schemas/content-types.js';
import type { ContentType } from '../schemas/content.js';
import type { ContentTypes } from './content-types.js';
import type { FieldValidators } from './field-validator.js';
import { searchText } from './search-text.js';

type Fields = Record<string, unknown>;

/** The values of `field` in `fields` as a list (a list field's elements, else the one value). */
const valuesOf = (field: FieldDefinition, fields: Fields): unknown[] => {
  const value = fields[field.name];
  if (value === undefined) return [];
  return field.kind === 'list' ? (value as unknown[]) : [value];
};
const elementKind = (field: FieldDefinition) => (field.kind === 'list' ? field.of : field.kind);

export class FieldsStep implements ContentWriteStep {
  /** Each item's fields are checked against its model alone: a refusal here never depends on another item of the batch. */
  readonly judgesEachAlone = true;
  /** The searchable text a write's item gets once stored, when it differs from what the row holds. */
  private readonly texts = new WeakMap<ContentWrite, string>();

  constructor(
    private readonly types: ContentTypes,
    private readonly validators: FieldValidators,
    private readonly content: ContentRepository,
  ) {}

  async prepare(tx: Tx, write: ContentWrite): Promise<void> {
    if (!this.concerns(write)) return;
    await this.prepareWith(tx, write, await this.types.inTransaction(tx, write.accountId, write.next.type as ContentType));
  }

  /** A group of creates: each type's model read once, and each item checked as `prepare` would (no item depends on another). */
  async prepareEach(tx: Tx, creates: ContentWrite[]): Promise<Map<ContentWrite, DomainError>> {
    const refused = new Map<ContentWrite, DomainError>();
    const models = new Map<string, ContentTypeModel>();
    for (const write of creates) {
      const type = write.next.type as ContentType;
      let model = models.get(type);
      if (!model) models.set(type, (model = await this.types.inTransaction(tx, write.accountId, type)));
      try {
        const checking = this.prepareWith(tx, write, model);
        if (checking) await checking;
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        refused.set(write, error);
      }
    }
    return refused;
  }

  /** Whether the write's fields are checked at all: archiving, scheduled transitions and an update that keeps fields and type are not. */
  private concerns({ kind, previous, next, input }: ContentWrite): boolean {
    if (kind === 'archive' || kind === 'schedule') return false;
    const retyped = previous !== undefined && previous.type !== next.type;
    return !(kind === 'update' && input?.fields === undefined && !retyped);
  }

  /** `prepare` once the model is read; it finishes at once unless a reference or media id must be looked up. */
  private prepareWith(tx: Tx, write: ContentWrite, model: ContentTypeModel): Promise<void> | void {
    const { kind, next, previous, input, accountId } = write;
    const given = input?.fields as Fields | undefined;
    const retyped = previous !== undefined && previous.type !== next.type;
    const defined = new Map(model.fields.map((field) => [field.name, field]));
    const errors: FieldError[] = [];
    // What the item holds already (a restore: what the revision held), of the fields the model still has.
    const base = kind === 'create' ? {} : kind === 'restore' ? next.fields : previous!.fields;
    const fields: Fields = Object.fromEntries(Object.entries(base).filter(([name]) => defined.has(name)));
    for (const [name, value] of Object.entries(given ?? {})) {
      if (!defined.has(name)) errors.push({ field: `fields.${name}`, code: 'unknown_field', message: `fields.${name} is not a field of the ${next.type} model.` });
      else if (value === null) delete fields[name];
      else fields[name] = value;
    }
    // A default fills a new item (and one that becomes this type, or is restored), never one already written.
    if (kind === 'create' || kind === 'restore' || retyped) {
      for (const field of model.fields) if (fields[field.name] === undefined && field.default !== undefined && given?.[field.name] !== null) fields[field.name] = field.default;
    }
    errors.push(...this.validators.validate(model.fields, fields));
    const finish = (more: FieldError[]) => {
      errors.push(...more);
      if (errors.length) throw invalid(errors);
      next.fields = normalized(model.fields, fields);
      // The stored text follows the item's model: on a type change it was the other type's.
      const text = searchText(model.fields, next.fields);
      const stored = kind === 'create' ? '' : retyped ? undefined : searchText(model.fields, previous!.fields);
      if (text !== stored) this.texts.set(write, text);
    };
    const looksUp = model.fields.some((field) => (elementKind(field) === 'reference' || elementKind(field) === 'media') && fields[field.name] !== undefined);
    if (errors.length === 0 && looksUp) return this.references(tx, accountId, model.fields, fields).then(finish);
    finish([]);
  }

  /**
   * The problems of `given` as the `fields` of an update of `type` items, before any item is read (a
   * bulk `set_fields` job when it is created): unknown names, values their field refuses, null on a
   * required field, references and media ids this account does not have.
   */
  async check(tx: Tx, accountId: string, type: ContentType, given: Fields): Promise<FieldError[]> {
    const model = await this.types.inTransaction(tx, accountId, type);
    const defined = new Map(model.fields.map((field) => [field.name, field]));
    const errors: FieldError[] = [];
    const values: Fields = {};
    for (const [name, value] of Object.entries(given)) {
      const field = defined.get(name);
      if (!field) errors.push({ field: `fields.${name}`, code: 'unknown_field', message: `fields.${name} is not a field of the ${type} model.` });
      else if (value === null) {
        if (field.required) errors.push({ field: `fields.${name}`, code: 'required', message: `fields.${name} is required: it cannot be removed.` });
      } else {
        errors.push(...this.validators.validateValue(field, value, `fields.${name}`));
        values[name] = value;
      }
    }
    if (errors.length === 0) errors.push(...(await this.references(tx, accountId, model.fields, values)));
    return errors;
  }

  written(tx: Tx, write: ContentWrite): Promise<void> | void {
    const text = this.texts.get(write);
    if (text !== undefined) return this.content.setFieldsText(tx, write.accountId, write.next.id, text);
  }

  /** Reference and media values that name nothing of this account (or an item of a type not allowed). */
  private async references(tx: Tx, accountId: string, definitions: FieldDefinition[], fields: Fields): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    const at = (field: FieldDefinition, i: number) => (field.kind === 'list' ? `fields.${field.name}[${i}]` : `fields.${field.name}`);
    const references = definitions.filter((field) => elementKind(field) === 'reference' && fields[field.name] !== undefined);
    const ids = [...new Set(references.flatMap((field) => valuesOf(field, fields) as string[]))];
    if (ids.length) {
      const found = new Map((await this.content.getMany(tx, accountId, ids)).map((row) => [row.id, row.type]));
      for (const field of references) {
        valuesOf(field, fields).forEach((id, i) => {
          const type = found.get(id as string);
          if (type === undefined) errors.push({ field: at(field, i), code: 'invalid_reference', message: `${id as string} is not a content item of this account.` });
          else if (field.types && !field.types.includes(type as ContentType)) {
            errors.push({ field: at(field, i), code: 'invalid_reference', message: `${id as string} is a ${type} item; ${field.name} takes ${field.types.join(', ')} items.` });
          }
        });
      }
    }
    const media = definitions.filter((field) => elementKind(field) === 'media' && fields[field.name] !== undefined);
    const mediaIds = [...new Set(media.flatMap((field) => valuesOf(field, fields) as string[]))];
    if (mediaIds.length) {
      // Without the media library no media field can be defined; a model from elsewhere is refused here.
      const missing = new Set(this.types.media ? await this.types.media.missing(tx, accountId, mediaIds) : mediaIds);
      for (const field of media) {
        valuesOf(field, fields).forEach((id, i) => {
          if (missing.has(id as string)) errors.push({ field: at(field, i), code: 'invalid_reference', message: `${id as string} is not a media record of this account.` });
        });
      }
    }
    return errors;
  }
}

/** Datetimes stored as the contract's UTC form (so they order as text), in the model's field order. */
function normalized(definitions: FieldDefinition[], fields: Fields): Fields {
  const out: Fields = {};
  for (const field of definitions) {
    const value = fields[field.name];
    if (value === undefined) continue;
    const utc = (v: unknown) => new Date(v as string).toISOString();
    out[field.name] = elementKind(field) !== 'datetime' ? value : field.kind === 'list' ? (value as unknown[]).map(utc) : utc(value);
  }
  return out;
}
