// The rules a model's definitions follow beyond their shape (which the route schema checks): unique
// names, keys that belong to the field's kind, sound bounds, a default that passes its own field,
// and no cycle of required references (no first item could ever be written). Every problem is
// named after the definition, `fields[<i>].<key>`.
import type { FieldError } from '../errors.js';
import type { FieldDefinition, FieldKind } from '../schemas/content-types.js';
import { CONTENT_TYPES, type ContentType } from '../schemas/content.js';
import { LIMITS } from './json-schema.js';
import type { FieldValidators } from './field-validator.js';

type Key = 'max_length' | 'min' | 'max' | 'values' | 'of' | 'types';
/** Which kind-specific keys each (element) kind takes. */
const KEYS: Record<Exclude<FieldKind, 'list'>, Key[]> = {
  string: ['max_length'],
  text: ['max_length'],
  url: ['max_length'],
  integer: ['min', 'max'],
  number: ['min', 'max'],
  date: ['min', 'max'],
  datetime: ['min', 'max'],
  enum: ['values'],
  reference: ['types'],
  boolean: [],
  media: [],
};
const MAX_LENGTH: Partial<Record<FieldKind, number>> = { string: LIMITS.string, text: LIMITS.text, url: LIMITS.url };
/** Kinds whose values an index can order: a list, a long text and a media id cannot be filtered or sorted. */
const INDEXABLE: FieldKind[] = ['string', 'integer', 'number', 'boolean', 'date', 'datetime', 'enum', 'url', 'reference', 'list'];
const DATE = /^\d{4}-\d\d-\d\d$/;

export interface RuleContext {
  /** Whether media ids can be checked (the media library is wired). */
  media: boolean;
  /** The other types' models of the account, for the reference cycle check. */
  others: Partial<Record<ContentType, FieldDefinition[]>>;
}

export function definitionErrors(type: ContentType, fields: FieldDefinition[], context: RuleContext, validators: FieldValidators): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  fields.forEach((field, i) => {
    const at = (key: string) => `fields[${i}].${key}`;
    const fail = (key: string, code: FieldError['code'], message: string) => errors.push({ field: at(key), code, message });
    if (seen.has(field.name)) fail('name', 'invalid_value', `"${field.name}" is defined twice; field names are unique within a type.`);
    seen.add(field.name);
    const kind = field.kind === 'list' ? field.of : field.kind;
    if (field.kind === 'list' && field.of === undefined) fail('of', 'required', 'A list names the kind of its elements in "of".');
    if (field.kind !== 'list' && field.of !== undefined) fail('of', 'invalid_value', '"of" applies to list fields only.');
    if (kind === 'media' && !context.media) fail('kind', 'invalid_value', 'media fields need the media library, which this service does not offer yet.');
    if (kind === 'enum' && field.values === undefined) fail('values', 'required', 'An enum lists its allowed values in "values".');
    if (field.values && new Set(field.values).size !== field.values.length) fail('values', 'invalid_value', 'values must be distinct.');
    if (kind !== undefined) {
      for (const key of ['max_length', 'min', 'max', 'values', 'types'] as const) {
        if (field[key] !== undefined && !KEYS[kind].includes(key)) fail(key, 'invalid_value', `"${key}" does not apply to ${kind} values.`);
      }
      const ceiling = MAX_LENGTH[kind];
      if (field.max_length !== undefined && ceiling !== undefined && field.max_length > ceiling) fail('max_length', 'out_of_range', `max_length of a ${kind} is at most ${ceiling}.`);
      for (const key of ['min', 'max'] as const) {
        const bound = field[key];
        if (bound === undefined || !KEYS[kind].includes(key)) continue;
        const numeric = kind === 'integer' || kind === 'number';
        const ok = numeric ? typeof bound === 'number' && (kind === 'number' || Number.isInteger(bound)) : typeof bound === 'string' && (kind === 'date' ? DATE.test(bound) : !Number.isNaN(Date.parse(bound)));
        if (!ok) fail(key, numeric ? 'invalid_type' : 'invalid_format', `${key} of a ${kind} field must be ${numeric ? `${kind === 'integer' ? 'an integer' : 'a number'}` : `a ${kind} (ISO 8601)`}.`);
      }
      if (field.min !== undefined && field.max !== undefined && field.min > field.max) fail('max', 'out_of_range', 'max must not be below min.');
    }
    if (field.indexed && !INDEXABLE.includes(field.kind)) fail('indexed', 'invalid_value', `${field.kind} fields cannot be indexed.`);
    if (field.indexed && field.kind === 'list' && (field.of === 'text' || field.of === 'media')) fail('indexed', 'invalid_value', `lists of ${field.of} cannot be indexed.`);
    if (field.default !== undefined && errors.every((e) => !e.field.startsWith(`fields[${i}].`))) {
      if (field.default === null) fail('default', 'invalid_value', 'default must be a value (leave it out for none).');
      else if (kind === 'reference' || kind === 'media') fail('default', 'invalid_value', `${kind} fields take no default.`);
      else {
        for (const e of validators.validateValue(field, field.default, at('default'))) errors.push(e);
      }
    }
  });
  const stuck = unwritable(type, fields, context.others);
  fields.forEach((field, i) => {
    if (stuck && field.required && field.kind === 'reference' && field.default === undefined) {
      errors.push({ field: `fields[${i}].types`, code: 'invalid_value', message: `Required references form a cycle (${stuck}): no first item could ever be written.` });
    }
  });
  return errors;
}

/**
 * Whether some type could never get a first item because each needs an existing item of another
 * such type (required references): the types caught in such a cycle, or undefined.
 */
function unwritable(type: ContentType, fields: FieldDefinition[], others: Partial<Record<ContentType, FieldDefinition[]>>): string | undefined {
  const models: Partial<Record<ContentType, FieldDefinition[]>> = { ...others, [type]: fields };
  const needs = (t: ContentType) => (models[t] ?? []).filter((f) => f.kind === 'reference' && f.required && f.default === undefined).map((f) => f.types ?? [...CONTENT_TYPES]);
  const writable = new Set<ContentType>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of CONTENT_TYPES) {
      if (!writable.has(t) && needs(t).every((allowed) => allowed.some((a) => writable.has(a)))) {
        writable.add(t);
        grew = true;
      }
    }
  }
  const stuck = CONTENT_TYPES.filter((t) => !writable.has(t));
  return stuck.includes(type) ? stuck.join(', ') : undefined;
}
