// Unknown query parameters are refused on every route (CONTRACT.md §17): every operation of the
// OpenAPI document is called with one, and the probes and the document itself too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function assertUnknown(res: Response, label: string, withMeta = true): void {
  assert.equal(res.status, 400, `${label}: ${res.text}`);
  assert.equal(res.body.code, 'invalid_parameter', label);
  assert.deepEqual(
    res.body.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`),
    ['unknown_param:unknown_field'],
    label,
  );
  if (withMeta) assert.equal(res.body.meta.request_id, res.headers['x-request-id'], label);
}

for (const store of testStores()) {
  describe(`unknown query parameters (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    let operations: { method: string; path: string; hasBody: boolean }[];
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
      const document = (await server.client.get('/v1/openapi.json')).body as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
      operations = Object.entries(document.paths).flatMap(([path, item]) =>
        METHODS.filter((m) => item[m]).map((method) => ({ method: method.toUpperCase(), path, hasBody: item[method]!.requestBody !== undefined })),
      );
    });
    after(() => server.close());

    it('are refused with 400 invalid_parameter / unknown_field on every operation of the OpenAPI document', async () => {
      assert.ok(operations.length >= 25, `only ${operations.length} operations in the document`);
      // A real item, so that routes reached with an existing id refuse the parameter too, not only unknown ids.
      const item = await server.content(owner.key);
      for (const { method, path, hasBody } of operations) {
        for (const id of ['x', String(item.id)]) {
          const url = `${path.replace(/\{[^}]+\}/g, id)}?unknown_param=1`;
          // A body that is invalid for every route: the query is still the error reported (§3: 400 before 422).
          const res = await server.client.request(method, url, { key: owner.key, ...(hasBody ? { json: { unknown_field: true } } : {}) });
          assertUnknown(res, `${method} ${url}`);
        }
      }
      // Nothing was changed by any of these calls.
      const same = await server.client.get(`/v1/content/${item.id}`, { key: owner.key });
      assert.equal(same.body.data.version, 1);
    });

    it('are refused on a single-item read, with the documented parameters still accepted', async () => {
      const item = await server.content(owner.key);
      assertUnknown(await server.client.get(`/v1/content/${item.id}?unknown_param=1`, { key: owner.key }), 'GET one');
      const list = await server.client.get('/v1/content?limit=1&unknown_param=1', { key: owner.key });
      assertUnknown(list, 'list');
      assert.equal((await server.client.get('/v1/content?limit=1', { key: owner.key })).status, 200);
    });

    it('are refused by the probes, /metrics and the OpenAPI document', async () => {
      for (const path of ['/healthz', '/readyz']) assertUnknown(await server.client.get(`${path}?unknown_param=1`), path);
      // Documents of their own: their errors carry no meta (docs/api.md, "Envelope and meta").
      for (const path of ['/metrics', '/v1/openapi.json']) assertUnknown(await server.client.get(`${path}?unknown_param=1`, { key: owner.key }), path, false);
    });
  });
}
