// Request validation from the route schemas. Bodies go through Ajv with every error collected and
// mapped onto the contract's closed list of field codes; query strings go through a strict parser
// that rejects unknown, empty, repeated and malformed parameters (CONTRACT.md §3). Every string of
// a body, every query value and every path parameter is held to the same text rules (domain/text.ts).
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { notFound, type FieldError } from '../domain/errors.js';
import { NON_BLANK } from '../domain/schemas/common.js';
import { isEmailAddress } from '../domain/users/users.js';
import { textProblem, textProblemMessage } from '../domain/text.js';

/** Thrown by a validator; the error handler turns it into 400 (query) or 422 (body). */
export class RequestValidationError extends Error {
  constructor(
    readonly part: 'body' | 'querystring',
    readonly errors: FieldError[],
  ) {
    super(part === 'body' ? 'The request body failed validation; see errors for each field.' : 'One or more query parameters are invalid; see errors.');
  }
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;

function createAjv(): Ajv {
  // discriminator: a oneOf told apart by a property (a batch's `op`) reports the errors of its own branch only.
  const ajv = new Ajv({ allErrors: true, verbose: true, coerceTypes: false, useDefaults: false, removeAdditional: false, discriminator: true });
  addFormats(ajv);
  // E-mail addresses are trimmed before they are stored (CONTRACT.md §6), so judge the trimmed value.
  ajv.addFormat('email', { type: 'string', validate: (value: string) => isEmailAddress(value.trim()) });
  // x-multiline is read by textErrors(); x-no-nul is kept for schemas written before the text rules covered every string.
  ajv.addVocabulary(['x-read-only', 'x-hint', 'x-optional-body', 'x-multiline', 'x-no-nul', 'x-multipart']);
  ajv.addKeyword({
    keyword: 'x-max-utf8-bytes',
    type: 'string',
    schemaType: 'number',
    validate: (max: number, data: string) => Buffer.byteLength(data, 'utf8') <= max,
  });
  return ajv;
}

/** `/scopes/1` → `scopes[1]`, `/a/b` → `a.b`. */
function fieldName(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}

function describe(error: ErrorObject, readOnly: string[]): FieldError {
  const field = fieldName(error.instancePath);
  const schema = error.parentSchema as Record<string, unknown> | undefined;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const name = fieldName(`${error.instancePath}/${String(params.missingProperty)}`);
      return { field: name, code: 'required', message: `${name} is required.` };
    }
    case 'additionalProperties': {
      const name = fieldName(`${error.instancePath}/${String(params.additionalProperty)}`);
      // Read-only names are the body's own, or those of a nested body (a batch operation's data).
      const nested = (schema?.['x-read-only'] as string[] | undefined) ?? [];
      return readOnly.includes(name) || nested.includes(String(params.additionalProperty))
        ? { field: name, code: 'read_only', message: `${name} is read-only and cannot be set.` }
        : { field: name, code: 'unknown_field', message: `${name} is not a field of this resource.` };
    }
    case 'type':
      return field === ''
        ? { field, code: 'invalid_type', message: 'The request body must be a JSON object.' }
        : { field, code: 'invalid_type', message: `${field} must be ${article(String(params.type))}.` };
    case 'enum': {
      const hint = typeof schema?.['x-hint'] === 'string' ? ` ${schema['x-hint']}` : '';
      return { field, code: 'invalid_value', message: `${field} must be one of: ${(params.allowedValues as unknown[]).join(', ')}.${hint}` };
    }
    case 'minLength':
      return { field, code: 'too_short', message: `${field} must be at least ${String(params.limit)} character(s).` };
    case 'maxLength':
      return { field, code: 'too_long', message: `${field} must be at most ${String(params.limit)} characters.` };
    case 'x-max-utf8-bytes':
      return { field, code: 'too_long', message: `${field} must be at most ${String(schema?.['x-max-utf8-bytes'])} bytes of UTF-8.` };
    case 'pattern':
      return params.pattern === NON_BLANK
        ? { field, code: 'too_short', message: `${field} must not be empty or only white space.` }
        : { field, code: 'invalid_format', message: `${field} has an invalid format.` };
    case 'format':
      return { field, code: 'invalid_format', message: `${field} must be a valid ${String(params.format)}.` };
    case 'discriminator': {
      const name = fieldName(`${error.instancePath}/${String(params.tag)}`);
      const allowed = ((schema?.oneOf as { properties?: Record<string, { const?: unknown }> }[] | undefined) ?? []).map((branch) => branch.properties?.[String(params.tag)]?.const);
      if (params.tagValue === undefined) return { field: name, code: 'required', message: `${name} is required.` };
      if (typeof params.tagValue !== 'string') return { field: name, code: 'invalid_type', message: `${name} must be a string.` };
      return { field: name, code: 'invalid_value', message: `${name} must be one of: ${allowed.join(', ')}.` };
    }
    case 'minProperties':
      // An empty body, or an empty nested body (a batch update's data): nothing to update.
      return field === '' || schema?.['x-read-only'] !== undefined
        ? { field, code: 'empty_update', message: 'The body must contain at least one field to change.' }
        : { field, code: 'too_short', message: `${field} must not be empty.` };
    case 'minItems':
      return { field, code: 'too_short', message: `${field} must have at least ${String(params.limit)} element(s).` };
    case 'maxItems':
      return { field, code: 'too_long', message: `${field} must have at most ${String(params.limit)} elements.` };
    default:
      return { field, code: 'invalid_value', message: `${field || 'The body'} ${error.message ?? 'is invalid'}.` };
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

interface StringSchema {
  'x-multiline'?: boolean;
  properties?: Record<string, StringSchema & { const?: unknown }>;
  additionalProperties?: StringSchema | boolean;
  items?: StringSchema;
  oneOf?: StringSchema[];
}

/** The schema of a member not named in `properties` (an item's typed fields), or of an element that has none of its own. */
function memberSchema(schema: StringSchema | undefined, name?: string): StringSchema | undefined {
  const named = name === undefined ? schema?.items : schema?.properties?.[name];
  if (named) return named;
  const extra = typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  return extra ?? (schema?.['x-multiline'] ? { 'x-multiline': true } : undefined);
}

/** The branch of a oneOf that `data` takes: the first whose constant properties it matches. */
function branchOf(schema: StringSchema | undefined, data: Record<string, unknown>): StringSchema | undefined {
  if (!schema?.oneOf) return schema;
  return schema.oneOf.find((branch) => Object.entries(branch.properties ?? {}).every(([name, p]) => p.const === undefined || p.const === data[name]));
}

/** Where a value sits in a body: its member name or index, and the place that holds it (none at the root). */
interface Place {
  up: Place | undefined;
  part: string;
}

/** A place as a JSON Pointer, made only for a value that has a problem. */
function pointerOf(place: Place | undefined): string {
  let pointer = '';
  for (let at = place; at; at = at.up) pointer = `/${at.part.replace(/~/g, '~0').replace(/\//g, '~1')}${pointer}`;
  return pointer;
}

/**
 * Every string in `data` that breaks the text rules; one line unless its schema says x-multiline.
 * Iterative (an explicit stack, not recursion), so no nesting can run it out of stack; bodies are
 * bounded at MAX_JSON_DEPTH before parsing anyway (json-depth.ts). Found in document order.
 */
function textErrors(data: unknown, schema: StringSchema | undefined): FieldError[] {
  const out: FieldError[] = [];
  const stack: { value: unknown; schema: StringSchema | undefined; place: Place | undefined }[] = [{ value: data, schema, place: undefined }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value, schema: at, place } = next;
    if (typeof value === 'string') {
      const multiline = at?.['x-multiline'] === true;
      const problem = textProblem(value, multiline);
      if (problem) {
        const field = fieldName(pointerOf(place));
        out.push({ field, code: 'invalid_value', message: textProblemMessage(field || 'The body', problem, multiline) });
      }
    } else if (Array.isArray(value)) {
      const member = memberSchema(at);
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], schema: member, place: { up: place, part: String(i) } });
    } else if (value !== null && typeof value === 'object') {
      const own = branchOf(at, value as Record<string, unknown>);
      const names = Object.keys(value);
      for (let i = names.length - 1; i >= 0; i--) {
        const name = names[i]!;
        stack.push({ value: (value as Record<string, unknown>)[name], schema: memberSchema(own, name), place: { up: place, part: name } });
      }
    }
  }
  return out;
}

function compileBody(ajv: Ajv, schema: Record<string, unknown>) {
  const validate = ajv.compile(schema);
  const readOnly = (schema['x-read-only'] as string[] | undefined) ?? [];
  const optional = schema['x-optional-body'] === true;
  return (data: unknown) => {
    // A route whose body may be left out (archive) accepts none, but never silently ignores one.
    if (data == null && optional) return { value: data };
    const valid = validate(data);
    const text = textErrors(data, schema);
    if (valid && text.length === 0) return { value: data };
    // One error per field, the first found: "too short" and "blank" on the same title are one problem,
    // and an unknown field is that before it is anything else.
    const byField = new Map<string, FieldError>();
    for (const described of [...(validate.errors ?? []).map((error) => describe(error, readOnly)), ...text]) {
      if (!byField.has(described.field)) byField.set(described.field, described);
    }
    return { error: new RequestValidationError('body', [...byField.values()]) };
  };
}

interface QueryProperty {
  type?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
}

export type QuerySchema = { properties?: Record<string, QueryProperty>; patternProperties?: Record<string, QueryProperty> };

/** The strict query-string parser of a route's querystring schema. */
export function compileQuery(schema: QuerySchema) {
  const properties = schema.properties ?? {};
  // Families of parameters (typed-field filters: fields.<name>[op]), each a pattern and its rules.
  const patterns = Object.entries(schema.patternProperties ?? {}).map(([pattern, spec]) => [new RegExp(pattern, 'u'), spec] as const);
  return (data: unknown) => {
    const query = (data ?? {}) as Record<string, unknown>;
    const value: Record<string, unknown> = {};
    const errors: FieldError[] = [];
    for (const [name, raw] of Object.entries(query)) {
      const spec = Object.hasOwn(properties, name) ? properties[name] : patterns.find(([pattern]) => pattern.test(name))?.[1];
      if (!spec) {
        errors.push({ field: name, code: 'unknown_field', message: `${name} is not a query parameter of this endpoint.` });
      } else if (typeof raw !== 'string') {
        errors.push({ field: name, code: 'invalid_value', message: `${name} must be given once.` });
      } else if (raw === '') {
        errors.push({ field: name, code: 'invalid_value', message: `${name} must not be empty.` });
      } else if (textProblem(raw) !== undefined) {
        errors.push({ field: name, code: 'invalid_value', message: textProblemMessage(name, textProblem(raw)!) });
      } else if (spec.type === 'integer') {
        if (!/^-?\d+$/.test(raw)) errors.push({ field: name, code: 'invalid_type', message: `${name} must be an integer.` });
        else if (spec.minimum !== undefined && Number(raw) < spec.minimum) {
          errors.push({ field: name, code: 'invalid_value', message: `${name} must be ${spec.minimum} or more.` });
        } else if (spec.maximum !== undefined && Number(raw) > spec.maximum) {
          errors.push({ field: name, code: 'invalid_value', message: `${name} must be ${spec.maximum} or less.` });
        } else value[name] = Number(raw);
      } else if (spec.maxLength !== undefined && [...raw].length > spec.maxLength) {
        errors.push({ field: name, code: 'too_long', message: `${name} must be at most ${spec.maxLength} characters.` });
      } else if (spec.enum && !spec.enum.includes(raw)) {
        errors.push({ field: name, code: 'invalid_value', message: `${name} must be one of: ${spec.enum.join(', ')}.` });
      } else if (spec.pattern && !new RegExp(spec.pattern, 'u').test(raw)) {
        errors.push({ field: name, code: 'invalid_format', message: `${name} has an invalid format.` });
      } else value[name] = raw;
    }
    return errors.length ? { error: new RequestValidationError('querystring', errors) } : { value };
  };
}

/** One compiler for every route: bodies through Ajv, query strings strictly, path parameters as given. */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const ajv = createAjv();
  return ({ schema, httpPart }) => {
    if (httpPart === 'body') return compileBody(ajv, schema as Record<string, unknown>);
    if (httpPart === 'querystring') return compileQuery(schema as QuerySchema);
    return (data: unknown) => ({ value: data });
  };
}

/**
 * A preHandler: a path parameter that breaks the text rules names nothing that can exist (an id
 * with U+0000 cannot even be compared on PostgreSQL), so it is 404 where the existence check would be.
 */
export async function refuseUnusableParams(request: FastifyRequest): Promise<void> {
  for (const value of Object.values((request.params ?? {}) as Record<string, unknown>)) {
    if (typeof value === 'string' && textProblem(value)) throw notFound('Resource');
  }
}
