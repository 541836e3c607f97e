// The response serializer: Fastify's own (fast-json-stringify, through its compiler), given each
// response schema with its unions of disjoint JSON types written as a list of types. For `anyOf`,
// fast-json-stringify picks the branch by running a JSON Schema validator over the value, branch by
// branch: a nullable timestamp costs a date-time check, and a batch result's `data` (an item or
// null) a validation of the whole item, on every response. A list of types it picks by `typeof`.
// The OpenAPI document and request validation keep the schemas as written; only the serializer
// sees the rewritten copy, and it writes the same JSON for every value the schema describes. A
// merged schema validates the same values as the union it replaces (an enclosing union that stays
// is still decided by validation). What changes is a value the schema does not describe: a union
// left no branch for it and the response failed (500); now it is written by its type, as values
// outside a union always were (a timestamp as the string it is, unknown members of an object left out).
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Schema = Record<string, unknown>;

/** JSON types a serializer tells apart by `typeof` (integer and number overlap, so not both). */
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Keywords that make a branch more than "a value of this type" for choosing it. */
const BRANCHING = ['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref'];

const isSchema = (value: unknown): value is Schema => value !== null && typeof value === 'object' && !Array.isArray(value);
const simpleType = (branch: Schema): string | undefined =>
  typeof branch.type === 'string' && TYPES.has(branch.type) && !BRANCHING.some((keyword) => keyword in branch) ? branch.type : undefined;

/**
 * One schema for a union, or undefined when its branches cannot be told apart by type alone: one
 * branch of any type with null (`T | null`), or constants of one primitive type (a union of literals).
 */
function merged(union: Schema[], siblings: Schema): Schema | undefined {
  const types = union.map(simpleType);
  if (types.some((type) => type === undefined)) return undefined;
  const values = union.filter((branch) => branch.type !== 'null');
  const nullable = values.length < union.length;
  if (values.length === 1) {
    // A branch's own default is not the union's (the serializer writes a default for a missing member).
    const { default: _default, $id: _id, ...branch } = values[0]!;
    const type = branch.type as string;
    if (!nullable) return { ...branch, ...siblings, type };
    // Null joins the branch's constants too, so the merged schema still accepts it.
    const choices = 'const' in branch ? [branch.const] : Array.isArray(branch.enum) ? branch.enum : undefined;
    const { const: _const, ...rest } = branch;
    return { ...rest, ...siblings, type: [type, 'null'], ...(choices ? { enum: [...choices, null] } : {}) };
  }
  const first = values[0]?.type;
  const literals = values.every((branch) => 'const' in branch && branch.type === first && first !== 'object' && first !== 'array');
  if (union.length === values.length && literals) return { ...siblings, type: first, enum: values.map((branch) => branch.const) };
  return undefined;
}

/** A copy of `schema` with every such union merged; parts that change nothing are shared, never modified. */
export function serializable(schema: unknown): unknown {
  if (Array.isArray(schema)) {
    const items = schema.map(serializable);
    return items.some((item, i) => item !== schema[i]) ? items : schema;
  }
  if (!isSchema(schema)) return schema;
  let copy: Schema | undefined;
  for (const [key, value] of Object.entries(schema)) {
    // `properties` and the like hold schemas by name; `enum`, `const`, `examples` hold values.
    if (key === 'enum' || key === 'const' || key === 'examples' || key === 'default') continue;
    const next = serializable(value);
    if (next !== value) (copy ??= { ...schema })[key] = next;
  }
  const result = copy ?? schema;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const union = result[keyword];
    if (!Array.isArray(union) || !union.every(isSchema) || result.discriminator !== undefined) continue;
    const { [keyword]: _union, ...siblings } = result;
    const one = merged(union, siblings);
    if (one) return one;
  }
  return result;
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's `schemaController.compilersFactory.buildSerializer`: its default, over the rewritten schemas. */
export function buildSerializer(): SerializerFactory {
  const base = SerializerSelector();
  return (externalSchemas, options) => {
    const shared = Object.fromEntries(Object.entries(externalSchemas ?? {}).map(([id, schema]) => [id, serializable(schema)]));
    const compile = base(shared as typeof externalSchemas, options);
    return (route) => compile({ ...route, schema: serializable(route.schema) as typeof route.schema });
  };
}
