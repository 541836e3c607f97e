// Validation of items' `fields`, in one place: a model's JSON Schema (json-schema.ts) compiled by Ajv
// once per model (cached by its definitions, so accounts with the same model share it), and Ajv's
// findings named `fields.<name>` (`fields.<name>[i]` for a list element) with the contract's codes.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FieldError } from '../errors.js';
import { textProblem, textProblemMessage } from '../text.js';
import type { FieldDefinition } from '../schemas/content-types.js';
import { fieldsSchema, valueSchema, type JsonSchema } from './json-schema.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv, options?: { keywords: boolean }) => void;
const MAX_CACHED = 1000;

function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
  // formatMinimum/formatMaximum: the bounds of dates and datetimes.
  addFormats(ajv, { keywords: true });
  ajv.addVocabulary(['x-multiline', 'x-reference', 'x-types']);
  ajv.addKeyword({ keyword: 'x-single-line', type: 'string', schemaType: 'boolean', validate: (_: boolean, data: string) => textProblem(data) === undefined });
  return ajv;
}

/** `/pages` → `fields.pages`, `/tags/2` → `fields.tags[2]`. */
function fieldName(pointer: string, prefix: string): string {
  return pointer.split('/').slice(1).reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : `${name}.${part}`), prefix);
}

function describe(error: ErrorObject, prefix: string): FieldError {
  const params = error.params as Record<string, unknown>;
  const field = fieldName(error.instancePath, prefix);
  switch (error.keyword) {
    case 'required': {
      const name = `${prefix}.${String(params.missingProperty)}`;
      return { field: name, code: 'required', message: `${name} is required.` };
    }
    case 'additionalProperties': {
      const name = `${prefix}.${String(params.additionalProperty)}`;
      return { field: name, code: 'unknown_field', message: `${name} is not a field of this content type's model.` };
    }
    case 'type':
      return { field, code: 'invalid_type', message: `${field} must be ${/^[aeiou]/.test(String(params.type)) ? 'an' : 'a'} ${String(params.type)}.` };
    case 'enum':
      return { field, code: 'invalid_value', message: `${field} must be one of: ${(params.allowedValues as unknown[]).join(', ')}.` };
    case 'maxLength':
      return { field, code: 'too_long', message: `${field} must be at most ${String(params.limit)} characters.` };
    case 'maxItems':
      return { field, code: 'too_long', message: `${field} must have at most ${String(params.limit)} elements.` };
    case 'minimum':
    case 'maximum':
    case 'formatMinimum':
    case 'formatMaximum':
      return { field, code: 'out_of_range', message: `${field} must be ${String(params.comparison)} ${String(params.limit)}.` };
    case 'format':
      return { field, code: 'invalid_format', message: `${field} must be a valid ${params.format === 'uri' ? 'URL' : String(params.format)}.` };
    case 'pattern': {
      const reference = (error.parentSchema as JsonSchema | undefined)?.['x-reference'];
      if (reference) return { field, code: 'invalid_reference', message: `${field} must be the id of a ${reference === 'media' ? 'media record' : 'content item'} of this account.` };
      return { field, code: 'invalid_format', message: `${field} must be an http or https URL.` };
    }
    case 'x-single-line':
      return { field, code: 'invalid_value', message: textProblemMessage(field, 'control') };
    default:
      return { field, code: 'invalid_value', message: `${field} ${error.message ?? 'is invalid'}.` };
  }
}

export class FieldValidators {
  private readonly ajv = createAjv();
  private readonly compiled = new Map<string, ValidateFunction>();

  /** The failures of `fields` under the model `definitions`, one per field (the first found), named `fields.<name>`. */
  validate(definitions: FieldDefinition[], fields: unknown): FieldError[] {
    return this.run(JSON.stringify(definitions), () => fieldsSchema(definitions), fields, 'fields');
  }

  /** The failures of one value under one field's rules (a default; a stored value under a changed field), named `field`. */
  validateValue(definition: FieldDefinition, value: unknown, field: string): FieldError[] {
    return this.run(`value:${JSON.stringify(definition)}`, () => valueSchema(definition), value, field);
  }

  private run(key: string, schema: () => JsonSchema, data: unknown, prefix: string): FieldError[] {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema());
      if (this.compiled.size >= MAX_CACHED) this.compiled.delete(this.compiled.keys().next().value!);
      this.compiled.set(key, validate);
    }
    if (validate(data)) return [];
    const byField = new Map<string, FieldError>();
    for (const error of validate.errors ?? []) {
      const described = describe(error, prefix);
      if (!byField.has(described.field)) byField.set(described.field, described);
    }
    return [...byField.values()];
  }
}

