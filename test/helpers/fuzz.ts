// fast-check arbitraries built from the OpenAPI document: for each operation, requests that are
// mostly well-formed (so they get past validation and reach the store) and partly hostile — text
// with control characters and lone surrogates, wrong types, unknown fields, ids that cannot exist,
// malformed JSON, wrong media types and credentials.
import fc from 'fast-check';

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  format?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

export interface Operation {
  method: string;
  /** The path template, `/v1/content/{id}`. */
  path: string;
  pathParams: string[];
  query: Record<string, JsonSchema>;
  headers: string[];
  body?: JsonSchema;
}

export interface FuzzCase {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Sent as is (JSON or not). */
  body?: string;
}

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: { in: string; name: string; schema?: JsonSchema }[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
}

/** Every operation of the document. */
export function operationsOf(document: unknown): Operation[] {
  const doc = document as OpenApi;
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      return {
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema ?? {}])),
        headers: parameters.filter((p) => p.in === 'header').map((p) => p.name),
        body: operation.requestBody?.content?.['application/json']?.schema,
      };
    }),
  );
}

/** Strings that have broken services before. */
const NASTY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31m',
  '\ud800',
  'x\udfff',
  '\u202e',
  '\ufeff',
  '\u0085',
  '😀',
  'İı',
  '%00',
  '%zz',
  '../../etc/passwd',
  "' OR '1'='1",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  'null',
  '{}',
  '-1',
  '1e309',
  'x'.repeat(257),
];

/** Any UTF-16 code units, lone surrogates and controls included. */
const anyUnits = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength });
const text = (maxLength = 40) => fc.oneof({ weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength }) }, { weight: 2, arbitrary: anyUnits(maxLength) }, { weight: 2, arbitrary: fc.constantFrom(...NASTY) });

/** A value meant to satisfy `schema` (most of the time: its strings may still be hostile). */
export function valueOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((s) => valueOf(s, depth + 1)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'email') return fc.oneof({ weight: 4, arbitrary: fc.emailAddress() }, { weight: 1, arbitrary: text() });
      if (schema.format === 'date-time') return fc.oneof(fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()), text());
      return fc.oneof(
        { weight: 4, arbitrary: fc.string({ unit: 'grapheme', minLength: Math.max(1, schema.minLength ?? 1), maxLength: Math.min(schema.maxLength ?? 60, 60) }) },
        { weight: 1, arbitrary: text(schema.maxLength === undefined ? 80 : schema.maxLength + 2) },
      );
    case 'integer':
      return fc.oneof(fc.integer({ min: schema.minimum ?? -5, max: 200 }), fc.constantFrom(-1, 0, 2 ** 53, 1.5));
    case 'number':
      return fc.double({ noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(valueOf(schema.items ?? {}, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'object':
      return depth > 3 ? fc.constant({}) : objectOf(schema, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectOf(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(properties).map(([name, property]) =>
    required.has(name)
      ? valueOf(property, depth + 1).map((value) => [[name, value]] as [string, unknown][])
      : fc.option(valueOf(property, depth + 1), { nil: undefined }).map((value) => (value === undefined ? [] : [[name, value]]) as [string, unknown][]),
  );
  return fc.tuple(...entries).map((parts) => Object.fromEntries(parts.flat()));
}

/** A body for `schema`: valid, one field spoiled, an extra field, or anything at all. */
export function bodyOf(schema: JsonSchema): fc.Arbitrary<string> {
  const valid = valueOf(schema);
  const names = Object.keys(schema.properties ?? {});
  const spoiled = names.length
    ? fc.tuple(valid, fc.constantFrom(...names), fc.oneof(fc.jsonValue({ maxDepth: 2 }), text())).map(([object, name, value]) => ({ ...(object as object), [name]: value }))
    : valid;
  const extra = fc.tuple(valid, text(20), fc.jsonValue({ maxDepth: 1 })).map(([object, name, value]) => ({ ...(object as object), [name]: value }));
  return fc.oneof(
    { weight: 6, arbitrary: valid.map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: spoiled.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: extra.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"title":', 'null', '[]', '"x"', '{"a":1}}', '\u0000', '{"title":"\\ud800"}') },
    { weight: 1, arbitrary: deepBodyOf(valid, names) },
  );
}

/**
 * Nesting near and far past the service's bound of 64 (issue 21, F-1): bare, or in place of one
 * field of a valid body, as arrays, objects or both, up to 20,000 levels.
 */
function deepBodyOf(valid: fc.Arbitrary<unknown>, names: string[]): fc.Arbitrary<string> {
  const depth = fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 65, max: 100 }), fc.integer({ min: 1000, max: 20_000 }));
  const nest = fc.tuple(depth, fc.constantFrom('[', '{"a":', 'mixed'), fc.constantFrom('1', '"x"', '{}', '[]', 'null')).map(([n, open, inner]) => {
    const opens = Array.from({ length: n }, (_, i) => (open === 'mixed' ? (i % 2 ? '[' : '{"a":') : open));
    return opens.join('') + inner + opens.reverse().map((o) => (o === '[' ? ']' : '}')).join('');
  });
  return fc.oneof(
    nest,
    fc.tuple(valid, fc.constantFrom(...(names.length ? names : ['deep'])), nest).map(([object, name, deep]) => {
      const body = JSON.stringify({ ...(object as object), [name]: '\u0000deep' });
      return body.replace('"\\u0000deep"', deep);
    }),
  );
}

/** Percent-encodes every byte of the UTF-8 form but the unreserved ones (a lone surrogate becomes U+FFFD's bytes). */
export function percentEncode(value: string): string {
  return [...Buffer.from(value, 'utf8')].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

const ULID = fc.string({ unit: fc.constantFrom(...'0123456789abcdefghjkmnpqrstvwxyz'), minLength: 26, maxLength: 26 });

/**
 * Ids that exist in the account, by what they name: the resource of the path (`content`, `users`,
 * `api-keys`, `webhooks`) or the parameter's own name (`delivery_id`, `after`). Read when each case
 * is made, so a test can put back what a generated DELETE removed.
 */
export type KnownIds = Record<string, string[]>;

/** The resource a path names: `content` for `/v1/content/{id}/archive`. */
export function resourceOf(path: string): string {
  return path.split('/')[2] ?? '';
}

/** One of the ids `pick` returns at the time the case is made. */
function known(pick: () => string[]): fc.Arbitrary<string> {
  return fc.nat().map((n) => {
    const ids = pick();
    return ids.length ? ids[n % ids.length]! : 'none';
  });
}

/** A path parameter: an id that exists in the account, one shaped like an id, or anything. */
function pathParam(ids: KnownIds, path: string, param: string): fc.Arbitrary<string> {
  const pick = () => ids[param] ?? (param === 'id' ? ids[resourceOf(path)] : undefined) ?? Object.values(ids).flat();
  return fc.oneof(
    { weight: 8, arbitrary: known(pick).map(percentEncode) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('content_', 'user_', 'key_', 'wh_', 'whd_', 'evt_', ''), ULID).map(([p, u]) => p + u) },
    { weight: 2, arbitrary: text(30).map(percentEncode) },
    { weight: 1, arbitrary: fc.constantFrom('%zz', '%ED%A0%80', '%C0%AF', '%', 'a%2Fb', '..', '.') },
  );
}

/** One query parameter's value: a good one most of the time. */
function queryValue(name: string, schema: JsonSchema, ids: KnownIds): fc.Arbitrary<string> {
  const good = name === 'sort'
    ? fc.constantFrom('-created_at', 'title', '-published_at,title', 'updated_at,-title')
    : ids[name]?.length
      ? known(() => ids[name]!)
      : schema.enum
    ? fc.constantFrom(...schema.enum.map(String))
    : schema.type === 'integer'
      ? fc.integer({ min: schema.minimum ?? 0, max: 150 }).map(String)
      : fc.oneof(known(() => ids[name] ?? Object.values(ids).flat()), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }));
  return fc.oneof({ weight: 9, arbitrary: good }, { weight: 1, arbitrary: text(20) });
}

/** `arbitrary`'s value once in `n` cases, undefined otherwise (fc.option's `freq` is the other way round: nil once in `freq`). */
function sometimes<T>(arbitrary: fc.Arbitrary<T>, n: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: n - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

function queryOf(query: Record<string, JsonSchema>, ids: KnownIds): fc.Arbitrary<string> {
  const entries = Object.entries(query).map(([name, schema]) =>
    // Each declared parameter in one case of three: lists take many (filters, q, sort, cursor), and a
    // cursor with other filters is refused, so all of them at once would seldom get through.
    sometimes(queryValue(name, schema, ids), 3).map((value) => (value === undefined ? [] : [`${percentEncode(name)}=${percentEncode(value)}`])),
  );
  const unknown = sometimes(fc.tuple(text(10), text(10)).map(([n, v]) => `${percentEncode(n)}=${percentEncode(v)}`), 15);
  return fc.tuple(fc.tuple(...entries), unknown).map(([parts, extra]) => {
    const all = [...parts.flat(), ...(extra === undefined ? [] : [extra])];
    return all.length ? `?${all.join('&')}` : '';
  });
}

/** Requests for `operations`, on behalf of `key`, with ids of the account from `ids`. */
export function requestsFor(operations: Operation[], key: string, ids: KnownIds): fc.Arbitrary<FuzzCase> {
  return fc.constantFrom(...operations).chain((op) => {
    const params = fc.tuple(...op.pathParams.map((name) => pathParam(ids, op.path, name)));
    const authorization = fc.oneof(
      { weight: 17, arbitrary: fc.constant(`Bearer ${key}`) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('Bearer cms_live_0000000000000000000000000000000000000000', 'Basic YTpi', 'Bearer ', `Bearer ${key}x`) },
    );
    const contentType = fc.oneof({ weight: 9, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/jsonx') });
    const ifMatch = fc.option(fc.constantFrom('"1"', '"2"', '*', 'W/"1"', 'garbage', '"1", "3"'), { nil: undefined, freq: 3 });
    const body = op.body ? fc.option(bodyOf(op.body), { nil: undefined, freq: 12 }) : fc.option(fc.constantFrom('{}', '{"x":1}', 'not json'), { nil: undefined, freq: 10 });
    return fc.tuple(params, queryOf(op.query, ids), authorization, contentType, ifMatch, body).map(([values, query, auth, type, match, payload]) => {
      let path = op.path;
      op.pathParams.forEach((name, i) => (path = path.replace(`{${name}}`, values[i]!)));
      const headers: Record<string, string> = {};
      if (auth !== undefined) headers.authorization = auth;
      if (match !== undefined && op.headers.includes('if-match')) headers['if-match'] = match;
      if (payload !== undefined) headers['content-type'] = type;
      return { method: op.method, path: path + query, headers, body: payload };
    });
  });
}
