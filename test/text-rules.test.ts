// The text rules (docs/api.md, "Text"): control characters and lone surrogates in ids, query values
// and body strings get the same answer on both stores — an id 404, a query value 400, a body field
// 422 invalid_value — and never a 500 (PostgreSQL cannot even compare a string holding U+0000).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { parseLogs } from './helpers/logs.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const BAD_IDS = ['%00', 'content_%00', '%01', '%1B', '%7F', '%C2%85', 'x%0Ay'];
const BAD_TEXT = ['\u0000', 'a\u0000b', '\u0007', 'line\nbreak', 'tab\there', '\u001b[31m', '\u007f', '\u0085', '\ud800', 'x\udc00', '\udbff\ud800'];

function assertFieldError(res: Response, status: number, field: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, status === 422 ? 'validation_failed' : 'invalid_parameter');
  const error = res.body.errors.find((e: { field: string }) => e.field === field);
  assert.ok(error, `no error for ${field}: ${res.text}`);
  assert.ok(['invalid_value', 'invalid_format'].includes(error.code), res.text);
}

for (const store of testStores()) {
  describe(`control characters and lone surrogates (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    let templates: [string, string][];
    before(async () => {
      server = await startServer(store);
      owner = await server.account({ plan: 'pro' });
      const doc = (await server.client.get('/v1/openapi.json')).body as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
      templates = Object.entries(doc.paths)
        .filter(([path]) => path.includes('{'))
        .flatMap(([path, operations]) => Object.keys(operations).map((method): [string, string] => [method.toUpperCase(), path]));
    });
    after(() => server.close());

    /** A body that passes validation, so that the id is what is judged. */
    function bodyFor(method: string, path: string): unknown {
      if (method !== 'PUT') return undefined;
      if (path.startsWith('/v1/content-types')) return { fields: [] };
      if (path.startsWith('/v1/content')) return { title: 'Fine' };
      if (path.startsWith('/v1/users')) return { name: 'Fine' };
      if (path.startsWith('/v1/webhooks')) return { description: 'Fine' };
      if (path.startsWith('/v1/oauth/apps')) return { name: 'Fine' };
      return {};
    }

    it('answers every id route 404 for an id with a control character, on every method', async () => {
      assert.ok(templates.length >= 14, `only ${templates.length} id routes in the document`);
      for (const [method, template] of templates) {
        for (const bad of BAD_IDS) {
          const path = template.replace(/\{[^}]+\}/g, bad);
          const json = bodyFor(method, template);
          const res = await server.client.request(method, path, { key: owner.key, ...(json === undefined ? {} : { json }) });
          assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
          assert.equal(res.body.code, 'not_found');
          assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
        }
      }
    });

    it('answers a query value with a control character 400 invalid_parameter naming it', async () => {
      for (const [path, field] of [
        ['/v1/api-keys?user_id=%00', 'user_id'],
        ['/v1/content?type=%00', 'type'],
        ['/v1/content?status=draft%01', 'status'],
        ['/v1/users?role=%1B', 'role'],
        ['/v1/events?after=evt_%00', 'after'],
        ['/v1/content?limit=1%00', 'limit'],
      ] as const) {
        assertFieldError(await server.client.get(path, { key: owner.key }), 400, field);
      }
    });

    it('refuses control characters and lone surrogates in one-line body fields with 422 invalid_value', async () => {
      for (const bad of BAD_TEXT) {
        assertFieldError(await server.client.post('/v1/content', { key: owner.key, json: { title: `A ${bad}`, type: 'blog', content: 'x' } }), 422, 'title');
        assertFieldError(await server.client.post('/v1/users', { key: owner.key, json: { email: `a${bad}b@example.com`, name: 'N', role: 'viewer' } }), 422, 'email');
        assertFieldError(await server.client.post('/v1/users', { key: owner.key, json: { email: `n${Date.now()}@example.com`, name: `N${bad}`, role: 'viewer' } }), 422, 'name');
        assertFieldError(await server.client.post('/v1/api-keys', { key: owner.key, json: { name: `K${bad}` } }), 422, 'name');
        assertFieldError(await server.client.post('/v1/webhooks', { key: owner.key, json: { url: `https://example.com/${bad}`, events: ['*'] } }), 422, 'url');
      }
      // Nothing was written.
      assert.equal((await server.client.get('/v1/content', { key: owner.key })).body.pagination.total, 0);
      assert.equal((await server.client.get('/v1/users', { key: owner.key })).body.pagination.total, 1);
    });

    it('allows tab and line breaks in Markdown bodies and descriptions, and nothing else below U+0020', async () => {
      const content = '# Title\n\n\tcode\r\nline';
      const created = await server.client.post('/v1/content', { key: owner.key, json: { title: 'Emoji 😀 and Ünïcödé', type: 'blog', content } });
      assert.equal(created.status, 201, created.text);
      const read = await server.client.get(`/v1/content/${created.body.data.id}`, { key: owner.key });
      assert.equal(read.body.data.content, content);
      assert.equal(read.body.data.title, 'Emoji 😀 and Ünïcödé');
      for (const bad of ['\u0000', '\u0007', '\u001b', '\u0085', '\ud800', 'x\udfff']) {
        assertFieldError(await server.client.post('/v1/content', { key: owner.key, json: { title: 'T', type: 'blog', content: `a${bad}b` } }), 422, 'content');
        assertFieldError(await server.client.put(`/v1/content/${created.body.data.id}`, { key: owner.key, json: { content: `a${bad}b` } }), 422, 'content');
      }
    });

    it('names every bad field at once, and an unknown field as unknown first', async () => {
      const res = await server.client.post('/v1/content', { key: owner.key, json: { title: '\u0000', type: 'blog', content: '\ud800', 'no\u0000pe': 'x' } });
      assert.equal(res.status, 422, res.text);
      const byField = Object.fromEntries(res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]));
      assert.deepEqual(byField, { title: 'invalid_value', content: 'invalid_value', 'no\u0000pe': 'unknown_field' });
    });

    it('logged no error on the way', () => {
      assert.deepEqual(parseLogs(server.logs).filter((l) => (l.level as number) >= 50), []);
    });
  });
}
