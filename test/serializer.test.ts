// Responses are serialized from a copy of their schema whose unions of disjoint JSON types are
// written as lists of types (serializer.ts): the JSON must be the very JSON the schema as published
// gives, the published schema must stay as it was, and no union the serializer would have to settle
// by validating the value may be left in an item's schema.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import Type from 'typebox';
import { One } from '../src/domain/schemas/common.js';
import { ContentItem } from '../src/domain/schemas/content.js';
import { BatchResult } from '../src/domain/schemas/content-batch.js';
import { serializable } from '../src/http/serializer.js';

/** The serializer Fastify would compile for `schema` as a response (its default compiler). */
const fastJsonStringify = (schema: unknown) => SerializerSelector()(undefined, {})({ schema, method: 'GET', url: '/', httpStatus: '200' });
const meta = { request_id: 'req_1', response_time: '1.00ms' };
const item = (i: number) => ({
  id: `content_${i}`,
  title: `Article "${i}"`,
  type: 'blog',
  slug: i % 2 ? `article-${i}` : null,
  status: i % 3 ? 'draft' : 'published',
  author: 'user_1',
  created_at: '2026-12-07T10:00:00.000Z',
  updated_at: '2026-12-07T10:00:01.000Z',
  fields: i % 2 ? { pages: i, tags: ['a', 'b'] } : {},
  content: `# Article ${i}\n\nLine "two" \\ and \u2028 more.`,
  published_at: i % 3 ? null : '2026-12-07T10:00:00.000Z',
  publish_at: i % 4 === 1 ? '2027-01-01T00:00:00.000Z' : null,
  unpublish_at: null,
  version: i + 1,
});
const unionsIn = (schema: unknown): number =>
  schema !== null && typeof schema === 'object'
    ? Object.entries(schema).reduce((n, [key, value]) => n + (key === 'anyOf' || key === 'oneOf' ? 1 : 0) + unionsIn(value), 0)
    : 0;

describe('the response serializer', () => {
  it('writes the JSON the published schema gives, for items and batch results', () => {
    const batch = One(Type.Array(BatchResult));
    const body = {
      meta,
      data: Array.from({ length: 12 }, (_, i) =>
        i === 5 ? { status: 204, data: null } : i === 7 ? { status: 422, error: { message: 'm', code: 'validation_failed', errors: [{ field: 'title', code: 'required', message: 'x' }] } } : { status: 201, data: item(i) },
      ),
    };
    assert.equal(fastJsonStringify(serializable(batch) as never)(body), fastJsonStringify(batch as never)(body));
    const one = One(ContentItem);
    for (let i = 0; i < 12; i++) assert.equal(fastJsonStringify(serializable(one) as never)({ meta, data: item(i) }), fastJsonStringify(one as never)({ meta, data: item(i) }));
  });

  it('leaves no union in an item or a batch result, and the published schemas as they were', () => {
    const before = JSON.stringify([ContentItem, BatchResult]);
    assert.ok(unionsIn(ContentItem) > 0 && unionsIn(BatchResult) > 0);
    assert.equal(unionsIn(serializable(ContentItem)), 0);
    assert.equal(unionsIn(serializable(BatchResult)), 0);
    assert.equal(JSON.stringify([ContentItem, BatchResult]), before);
  });

  it('writes the same JSON where a merged union sits inside a union that stays (decided by validation)', () => {
    const same = (schema: unknown, value: unknown) => assert.equal(fastJsonStringify(serializable(schema))(value), fastJsonStringify(schema)(value), JSON.stringify(value));
    // Literals merged into one type keep their values: { kind: 'c' } is still no match for the first branch.
    const kinds = Type.Union([
      Type.Object({ kind: Type.Union([Type.Literal('a'), Type.Literal('b')]), x: Type.Optional(Type.String()) }),
      Type.Object({ kind: Type.Literal('c'), y: Type.Integer() }),
    ]);
    for (const value of [{ kind: 'c', y: 5 }, { kind: 'a', x: 'x' }]) same(kinds, value);
    // A nullable enum still takes null: { r: null, z: 1 } still matches the first branch.
    const reasons = Type.Union([Type.Object({ r: Type.Union([Type.Unsafe({ type: 'string', enum: ['u', 'v'] }), Type.Null()]) }), Type.Object({ r: Type.Null(), z: Type.Integer() })]);
    for (const value of [{ r: null, z: 1 }, { r: 'u' }]) same(reasons, value);
    // A branch's own default is not written for a missing member.
    same(Type.Object({ p: Type.Optional(Type.Union([Type.String({ default: 'x' }), Type.Null()])) }), {});
  });

  it('keeps a union whose branches are not told apart by type', () => {
    const bound = Type.Object({ min: Type.Union([Type.Number(), Type.String()]), pick: Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]) });
    assert.equal(unionsIn(serializable(bound)), 2);
  });
});
