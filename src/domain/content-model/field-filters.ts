// `fields.<name>` list parameters (CONTRACT.md §20): filters `fields.<name>=<v>` and
// `fields.<name>[gt|gte|lt|lte|in|contains]=<v>` and sort keys `fields.<name>`, allowed on the
// indexed fields of the `type` given. Each value is read as its field's kind; every problem is named
// after the parameter as sent and ends in one 400 with the others (list-request.ts).
import type { FieldFilter, FieldOperator, FieldScalar } from '../../storage/content-list-fields.js';
import type { FieldError } from '../errors.js';
import type { FieldDefinition, FieldKind } from '../schemas/content-types.js';

export const FIELD_PARAM = /^fields\.([a-z][a-z0-9_]{0,39})(?:\[(gt|gte|lt|lte|in|contains)\])?$/;
/** The most values an `in` takes. */
const MAX_IN = 100;
/** Kinds whose values have an order worth a range (a boolean has none). */
const ORDERED: FieldKind[] = ['string', 'integer', 'number', 'date', 'datetime', 'enum', 'url', 'reference'];

/** A query value read as a value of `field`'s (element) kind; a string is the problem. */
const READ: Record<Exclude<FieldKind, 'list'>, (raw: string, field: FieldDefinition) => FieldScalar | { problem: FieldError['code'] }> = {
  string: (raw) => raw,
  text: (raw) => raw,
  url: (raw) => raw,
  reference: (raw) => raw,
  media: (raw) => raw,
  integer: (raw) => (/^-?\d{1,16}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : { problem: 'invalid_type' }),
  number: (raw) => (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(raw) && Number.isFinite(Number(raw)) ? Number(raw) : { problem: 'invalid_type' }),
  boolean: (raw) => (raw === 'true' ? true : raw === 'false' ? false : { problem: 'invalid_type' }),
  date: (raw) => (/^\d{4}-\d\d-\d\d$/.test(raw) && !Number.isNaN(Date.parse(raw)) ? raw : { problem: 'invalid_format' }),
  datetime: (raw) => (/^\d{4}-\d\d-\d\dT/.test(raw) && !Number.isNaN(Date.parse(raw)) ? new Date(raw).toISOString() : { problem: 'invalid_format' }),
  enum: (raw, field) => (field.values?.includes(raw) ? raw : { problem: 'invalid_value' }),
};

/** The field a parameter or sort key may use: indexed, of `type`'s model; otherwise why not. */
function usable(name: string, type: string | undefined, model: FieldDefinition[] | undefined): FieldDefinition | string {
  if (type === undefined || model === undefined) return 'needs type: typed fields are filtered and sorted within one content type.';
  const field = model.find((f) => f.name === name);
  if (!field) return `the ${type} model has no field "${name}".`;
  if (!field.indexed) return `"${name}" is not indexed; mark it indexed in the ${type} model to filter or sort by it.`;
  return field;
}

/** The filters of the `fields.*` parameters `params`, or their problems in `errors`. */
export function fieldFilters(params: [string, string][], type: string | undefined, model: FieldDefinition[] | undefined, errors: FieldError[]): FieldFilter[] {
  const filters: FieldFilter[] = [];
  for (const [param, raw] of params) {
    const match = FIELD_PARAM.exec(param)!;
    const [name, op = 'eq'] = [match[1]!, match[2] as FieldOperator | undefined];
    const field = usable(name, type, model);
    if (typeof field === 'string') {
      errors.push({ field: param, code: field.startsWith('the ') ? 'unknown_field' : 'invalid_value', message: `${param}: ${field}` });
      continue;
    }
    const list = field.kind === 'list';
    const kind = list ? field.of! : (field.kind as Exclude<FieldKind, 'list'>);
    if (list !== (op === 'contains')) {
      errors.push({ field: param, code: 'invalid_value', message: list ? `${param}: ${name} is a list; filter it with fields.${name}[contains].` : `${param}: contains applies to list fields only.` });
      continue;
    }
    if (['gt', 'gte', 'lt', 'lte'].includes(op) && !ORDERED.includes(kind)) {
      errors.push({ field: param, code: 'invalid_value', message: `${param}: ${kind} values have no order to compare.` });
      continue;
    }
    const raws = op === 'in' ? raw.split(',') : [raw];
    if (raws.length > MAX_IN) {
      errors.push({ field: param, code: 'too_long', message: `${param} takes at most ${MAX_IN} values.` });
      continue;
    }
    const values = raws.map((r) => READ[kind](r, field));
    const bad = values.find((v) => typeof v === 'object');
    if (bad) {
      errors.push({ field: param, code: bad.problem, message: `${param} must be ${kind === 'enum' ? `one of: ${field.values!.join(', ')}` : `a ${kind} value`}.` });
      continue;
    }
    filters.push({ name, op, values: values as FieldScalar[] });
  }
  return filters;
}

/** Why sort key `fields.<name>` cannot be used, or undefined when it can. */
export function sortFieldProblem(name: string, type: string | undefined, model: FieldDefinition[] | undefined): string | undefined {
  const field = usable(name, type, model);
  if (typeof field === 'string') return `sort by fields.${name}: ${field}`;
  if (field.kind === 'list') return `sort by fields.${name}: list fields cannot be sorted by.`;
  return undefined;
}
