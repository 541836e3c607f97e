// Transport-level body errors on content routes (400 invalid_json, 415, 413) and the error envelope they share.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const MiB = 1024 * 1024;
const JSON_TYPE = { 'content-type': 'application/json' };

/** Asserts an error response in the contract's shape: status, code, message and meta matching X-Request-Id. */
function assertError(res: Response, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/);
  assert.equal(res.body.code, code);
  assert.ok(typeof res.body.message === 'string' && res.body.message.length > 0);
  assert.match(String(res.headers['x-request-id']), /^req_[0-9a-z]{26}$/);
  assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
  assert.match(res.body.meta.response_time, /^\d+(\.\d{1,2})?ms$/);
}

/** A JSON create body of exactly `bytes` bytes, padded inside `content`. */
function createBodyOfSize(bytes: number): string {
  const frame = JSON.stringify({ title: 'Padded', type: 'blog', content: '' });
  const body = frame.replace('"content":""', `"content":"${'a'.repeat(bytes - Buffer.byteLength(frame))}"`);
  assert.equal(Buffer.byteLength(body), bytes);
  return body;
}

for (const store of testStores()) {
  describe(`content transport errors (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    let item: Record<string, unknown>;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
      item = await server.content(owner.key, { title: 'Untouched' });
    });
    after(() => server.close());

    const itemPath = () => `/v1/content/${String(item.id)}`;
    const send = (method: 'post' | 'put', path: string, raw: string | Buffer, headers: Record<string, string> = JSON_TYPE) =>
      server.client[method](path, { key: owner.key, raw, headers });

    /** Nothing was created and the existing item is unchanged. */
    async function assertNothingChanged() {
      const list = await server.client.get('/v1/content', { key: owner.key });
      assert.equal(list.body.pagination.total, 1);
      assert.deepEqual((await server.client.get(itemPath(), { key: owner.key })).body.data, item);
    }

    it('answers 400 invalid_json to a body that is not JSON, on create and update', async () => {
      for (const raw of ['{"title":', '{title: "x"}', "{'title':'x'}", '{"title":"x",}', 'undefined', '{"a":1}{"b":2}']) {
        assertError(await send('post', '/v1/content', raw), 400, 'invalid_json');
        assertError(await send('put', itemPath(), raw), 400, 'invalid_json');
      }
      await assertNothingChanged();
    });

    it('answers 415 unsupported_media_type to a body that is not application/json', async () => {
      const body = JSON.stringify({ title: 'x', type: 'blog', content: 'x' });
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
        assertError(await send('post', '/v1/content', body, { 'content-type': type }), 415, 'unsupported_media_type');
        assertError(await send('put', itemPath(), body, { 'content-type': type }), 415, 'unsupported_media_type');
      }
      assertError(await send('post', '/v1/content', body, {}), 415, 'unsupported_media_type');
      await assertNothingChanged();
    });

    it('checks the media type before parsing (415 before 400)', async () => {
      assertError(await send('post', '/v1/content', '{"title":', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    });

    it('answers 413 payload_too_large to a body over 2 MiB, and accepts one of exactly 2 MiB', async () => {
      assertError(await send('post', '/v1/content', createBodyOfSize(2 * MiB + 1)), 413, 'payload_too_large');
      assertError(await send('put', itemPath(), createBodyOfSize(2 * MiB + 1)), 413, 'payload_too_large');
      // Exactly 2 MiB passes the transport limit and reaches validation (content is over 1 MiB).
      const atLimit = await send('post', '/v1/content', createBodyOfSize(2 * MiB));
      assertError(atLimit, 422, 'validation_failed');
      assert.deepEqual(atLimit.body.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`), ['content:too_long']);
      await assertNothingChanged();
    });

    it('checks the size before parsing (413 before 400)', async () => {
      assertError(await send('post', '/v1/content', `{${'x'.repeat(2 * MiB)}`), 413, 'payload_too_large');
    });

    it('checks the key before the body (401 before 415, 413 and 400)', async () => {
      const anonymous = (raw: string, headers: Record<string, string>) => server.client.post('/v1/content', { raw, headers });
      for (const res of [
        await anonymous('{"title":', JSON_TYPE),
        await anonymous('x', { 'content-type': 'text/plain' }),
        await anonymous(createBodyOfSize(2 * MiB + 1), JSON_TYPE),
      ]) {
        assertError(res, 401, 'unauthorized');
        assert.equal(res.headers['www-authenticate'], 'Bearer');
      }
    });

    it('puts meta on 404 and 422 error bodies too', async () => {
      assertError(await server.client.get('/v1/content/content_01jd2x3m4n5p6q7r8s9t0v1w2x', { key: owner.key }), 404, 'not_found');
      assertError(await server.client.post('/v1/content', { key: owner.key, json: {} }), 422, 'validation_failed');
    });

    it('makes a fresh request id for every response and ignores a client X-Request-Id', async () => {
      const first = await send('post', '/v1/content', '{', { ...JSON_TYPE, 'x-request-id': 'client-chosen' });
      const second = await send('post', '/v1/content', '{');
      assertError(first, 400, 'invalid_json');
      assertError(second, 400, 'invalid_json');
      assert.notEqual(first.headers['x-request-id'], 'client-chosen');
      assert.notEqual(first.body.meta.request_id, second.body.meta.request_id);
    });
  });
}
