// Body validation of content create and update: 422 validation_failed listing every failing field with its code.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const FIELD_CODES = ['required', 'invalid_type', 'invalid_value', 'too_short', 'too_long', 'invalid_format', 'read_only', 'unknown_field', 'empty_update'];
const MiB = 1024 * 1024;
const VALID = { title: 'A title', type: 'blog', content: '# Body' };

/** Asserts a 422 validation_failed in the contract's shape; returns its errors as sorted "field:code" strings. */
function validationErrors(res: Response): string[] {
  assert.equal(res.status, 422, res.text);
  assert.equal(res.body.code, 'validation_failed');
  assert.ok(typeof res.body.message === 'string' && res.body.message.length > 0);
  assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
  assert.match(res.body.meta.response_time, /^\d+(\.\d{1,2})?ms$/);
  assert.ok(Array.isArray(res.body.errors) && res.body.errors.length > 0, 'errors must be a non-empty list');
  for (const error of res.body.errors as Record<string, unknown>[]) {
    assert.deepEqual(Object.keys(error).sort(), ['code', 'field', 'message']);
    assert.ok(FIELD_CODES.includes(String(error.code)), `unknown field code ${String(error.code)}`);
    assert.ok(typeof error.message === 'string' && error.message.length > 0);
  }
  return (res.body.errors as { field: string; code: string }[]).map((e) => `${e.field}:${e.code}`).sort();
}

/** The message of the error about `field`. */
function messageFor(res: Response, field: string): string {
  const error = (res.body.errors as { field: string; message: string }[]).find((e) => e.field === field);
  assert.ok(error, `no error for ${field}`);
  return error.message;
}

for (const store of testStores()) {
  describe(`content validation (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
    });
    after(() => server.close());

    const create = (json: unknown) => server.client.post('/v1/content', { key: owner.key, json });
    const update = (id: unknown, json: unknown) => server.client.put(`/v1/content/${String(id)}`, { key: owner.key, json });
    const sendRaw = (method: 'post' | 'put', path: string, raw: string) =>
      server.client[method](path, { key: owner.key, raw, headers: { 'content-type': 'application/json' } });
    const total = async () => (await server.client.get('/v1/content', { key: owner.key })).body.pagination.total as number;

    /** Asserts that a rejected create stored nothing. */
    async function rejectsCreate(json: unknown, expected: string[]) {
      const before = await total();
      assert.deepEqual(validationErrors(await create(json)), [...expected].sort());
      assert.equal(await total(), before, 'a rejected create must store nothing');
    }

    /** Asserts that a rejected update left the item exactly as it was. */
    async function rejectsUpdate(json: unknown, expected: string[]) {
      const item = await server.content(owner.key);
      assert.deepEqual(validationErrors(await update(item.id, json)), [...expected].sort());
      const after = await server.client.get(`/v1/content/${String(item.id)}`, { key: owner.key });
      assert.deepEqual(after.body.data, item, 'a rejected update must change nothing');
    }

    describe('create', () => {
      it('lists every missing required field', () => rejectsCreate({}, ['content:required', 'title:required', 'type:required']));

      it('reports one missing field alone', async () => {
        await rejectsCreate({ type: 'blog', content: 'x' }, ['title:required']);
        await rejectsCreate({ title: 'x', content: 'x' }, ['type:required']);
        await rejectsCreate({ title: 'x', type: 'blog' }, ['content:required']);
      });

      it('rejects wrong JSON types with invalid_type', async () => {
        await rejectsCreate({ title: 5, type: true, content: null, status: 1 }, ['content:invalid_type', 'status:invalid_type', 'title:invalid_type', 'type:invalid_type']);
        await rejectsCreate({ title: ['a'], type: { v: 'blog' }, content: 12.5, status: false }, ['content:invalid_type', 'status:invalid_type', 'title:invalid_type', 'type:invalid_type']);
        await rejectsCreate({ ...VALID, title: null }, ['title:invalid_type']);
      });

      it('rejects values outside the enums with invalid_value', async () => {
        await rejectsCreate({ ...VALID, type: 'video' }, ['type:invalid_value']);
        await rejectsCreate({ ...VALID, type: 'Blog' }, ['type:invalid_value']);
        await rejectsCreate({ ...VALID, status: 'deleted' }, ['status:invalid_value']);
        await rejectsCreate({ ...VALID, type: '', status: '' }, ['status:invalid_value', 'type:invalid_value']);
      });

      it('rejects status archived with a message pointing to archive', async () => {
        const res = await create({ ...VALID, status: 'archived' });
        assert.deepEqual(validationErrors(res), ['status:invalid_value']);
        assert.match(messageFor(res, 'status'), /archive/i);
        await rejectsCreate({ ...VALID, status: 'archived' }, ['status:invalid_value']);
      });

      it('limits title to 200 code points', async () => {
        await rejectsCreate({ ...VALID, title: 'a'.repeat(201) }, ['title:too_long']);
        await rejectsCreate({ ...VALID, title: '😀'.repeat(201) }, ['title:too_long']);
        assert.equal((await create({ ...VALID, title: '😀'.repeat(200) })).status, 201);
        assert.equal((await create({ ...VALID, title: 'é'.repeat(200) })).status, 201);
      });

      it('rejects an empty or all-white-space title with too_short', async () => {
        for (const title of ['', ' ', '   \t\n ', '\u00a0\u2003']) await rejectsCreate({ ...VALID, title }, ['title:too_short']);
      });

      it('rejects empty content with too_short', () => rejectsCreate({ ...VALID, content: '' }, ['content:too_short']));

      it('limits content to 1 MiB of UTF-8, counted in bytes, inside the 2 MiB body limit', async () => {
        // 524,289 two-byte characters: 2 bytes over 1 MiB, yet only half a million characters.
        const content = 'é'.repeat(MiB / 2 + 1);
        const body = JSON.stringify({ ...VALID, content });
        assert.ok(Buffer.byteLength(body) < 2 * MiB);
        await rejectsCreate({ ...VALID, content }, ['content:too_long']);
        await rejectsCreate({ ...VALID, content: 'a'.repeat(MiB + 1) }, ['content:too_long']);
      });

      it('rejects each read-only field with read_only', async () => {
        const readOnly = { id: 'content_01jd2x3m4n5p6q7r8s9t0v1w2x', author: 'user_x', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', published_at: null, version: 7 };
        for (const [field, value] of Object.entries(readOnly)) await rejectsCreate({ ...VALID, [field]: value }, [`${field}:read_only`]);
        await rejectsCreate({ ...VALID, ...readOnly }, Object.keys(readOnly).map((f) => `${f}:read_only`));
      });

      it('rejects unknown fields with unknown_field', async () => {
        await rejectsCreate({ ...VALID, tags: ['a'] }, ['tags:unknown_field']);
        await rejectsCreate({ ...VALID, Title: 'x', tagline: 'x' }, ['Title:unknown_field', 'tagline:unknown_field']);
      });

      it('rejects a body that is not an object with field "" invalid_type', async () => {
        for (const raw of ['[]', '[{"title":"x","type":"blog","content":"x"}]', '"a string"', 'null', '42', 'true']) {
          const res = await sendRaw('post', '/v1/content', raw);
          assert.deepEqual(validationErrors(res), [':invalid_type'], raw);
        }
      });

      it('rejects U+0000 in text with invalid_value (PostgreSQL cannot store it)', async () => {
        await rejectsCreate({ ...VALID, title: 'a\u0000b', content: '\u0000' }, ['content:invalid_value', 'title:invalid_value']);
      });

      it('lists every failure of one request together', async () => {
        await rejectsCreate(
          { title: ' ', type: 'video', content: 5, status: 'archived', version: 2, colour: 'red' },
          ['colour:unknown_field', 'content:invalid_type', 'status:invalid_value', 'title:too_short', 'type:invalid_value', 'version:read_only'],
        );
        await rejectsCreate({ title: 'a'.repeat(201), author: 'me' }, ['author:read_only', 'content:required', 'title:too_long', 'type:required']);
      });
    });

    describe('update', () => {
      it('rejects an empty object with field "" empty_update', () => rejectsUpdate({}, [':empty_update']));

      it('rejects a body that is not an object with field "" invalid_type', async () => {
        const item = await server.content(owner.key);
        for (const raw of ['[]', '"title"', 'null', '1']) {
          assert.deepEqual(validationErrors(await sendRaw('put', `/v1/content/${String(item.id)}`, raw)), [':invalid_type'], raw);
        }
        assert.deepEqual((await server.client.get(`/v1/content/${String(item.id)}`, { key: owner.key })).body.data, item);
      });

      it('validates each field as on create', async () => {
        await rejectsUpdate({ title: 'a'.repeat(201) }, ['title:too_long']);
        await rejectsUpdate({ title: '  ' }, ['title:too_short']);
        await rejectsUpdate({ title: null }, ['title:invalid_type']);
        await rejectsUpdate({ type: 'video' }, ['type:invalid_value']);
        await rejectsUpdate({ content: '' }, ['content:too_short']);
        await rejectsUpdate({ content: 'é'.repeat(MiB / 2 + 1) }, ['content:too_long']);
        await rejectsUpdate({ status: 1 }, ['status:invalid_type']);
      });

      it('rejects status archived with a message pointing to archive', async () => {
        const item = await server.content(owner.key);
        const res = await update(item.id, { status: 'archived' });
        assert.deepEqual(validationErrors(res), ['status:invalid_value']);
        assert.match(messageFor(res, 'status'), /archive/i);
        await rejectsUpdate({ title: 'Fine', status: 'archived' }, ['status:invalid_value']);
      });

      it('rejects read-only and unknown fields, even beside valid ones', async () => {
        for (const field of ['id', 'author', 'created_at', 'updated_at', 'published_at', 'version']) {
          await rejectsUpdate({ title: 'Fine', [field]: field === 'version' ? 9 : 'x' }, [`${field}:read_only`]);
        }
        await rejectsUpdate({ title: 'Fine', body: 'x' }, ['body:unknown_field']);
      });

      it('lists every failure of one request together', () =>
        rejectsUpdate(
          { title: '', type: 3, content: 'é'.repeat(MiB / 2 + 1), status: 'archived', id: 'content_x', extra: true },
          ['content:too_long', 'extra:unknown_field', 'id:read_only', 'status:invalid_value', 'title:too_short', 'type:invalid_type'],
        ));

      it('validates the body before looking the item up (422 before 404)', async () => {
        assert.deepEqual(validationErrors(await update('content_01jd2x3m4n5p6q7r8s9t0v1w2x', { title: '' })), ['title:too_short']);
        const missing = await update('content_01jd2x3m4n5p6q7r8s9t0v1w2x', { title: 'Valid' });
        assert.equal(missing.status, 404);
        assert.equal(missing.body.code, 'not_found');
      });
    });
  });
}
