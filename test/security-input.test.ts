// Hostile input (issue 21, F-1): a JSON body nested thousands of levels deep once ran the text
// rule's recursive walk out of stack — a 500 logged at error level, so one request a second could
// fill the error log and burn a core. Now nesting is bounded before anything walks the value.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseLogs } from './helpers/logs.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { WsClient } from './helpers/ws.js';
import { testStores } from './helpers/stores.js';

/** `depth` arrays (or objects) inside one another, with `inner` in the middle. */
function nested(depth: number, kind: 'array' | 'object', inner = '1'): string {
  return kind === 'array' ? '['.repeat(depth) + inner + ']'.repeat(depth) : '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
}

for (const store of testStores()) {
  describe(`hostile JSON bodies (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    let item: string;
    before(async () => {
      server = await startServer(store, { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
      owner = await server.account({ plan: 'enterprise', rateLimit: 1_000_000, quota: 10_000_000 });
      item = (await server.content(owner.key)).id as string;
    });
    after(() => server.close());

    it('answers 10,000-deep nesting on every kind of body route with 400 invalid_json, and logs nothing at error level', async () => {
      const routes: [string, string][] = [
        ['POST', '/v1/content'],
        ['PUT', `/v1/content/${item}`],
        ['POST', '/v1/users'],
        ['POST', '/v1/api-keys'],
        ['POST', '/v1/webhooks'],
        ['POST', '/v1/oauth/apps'],
        ['POST', `/v1/content/${item}/archive`],
      ];
      for (const [method, path] of routes) {
        for (const body of [
          nested(10_000, 'array'),
          nested(10_000, 'object'),
          `{"title":${nested(10_000, 'array', '"x"')},"type":"blog","content":"x"}`,
          `{"title":"t","type":"blog","content":"x","fields":${nested(10_000, 'object')}}`,
        ]) {
          const res = await server.client.request(method, path, { key: owner.key, headers: { 'content-type': 'application/json' }, raw: body });
          const where = `${method} ${path} ${body.slice(0, 30)}`;
          assert.equal(res.status, 400, `${where}: ${res.status} ${res.text.slice(0, 200)}`);
          assert.equal(res.body.code, 'invalid_json', where);
          assert.match(res.body.message, /more than 64 levels/, where);
        }
      }
      const errors = parseLogs(server.logs).filter((l) => (l.level as number) >= 50);
      assert.deepEqual(errors.slice(0, 3), [], `${errors.length} error-level lines`);
    });

    it('refuses one level past the bound, and reads 64 levels as it did before (then validation speaks)', async () => {
      const at = (depth: number) => `{"title":"t","type":"blog","content":"x","extra":${nested(depth - 1, 'array')}}`;
      const deep = await server.client.request('POST', '/v1/content', { key: owner.key, headers: { 'content-type': 'application/json' }, raw: at(65) });
      assert.equal(deep.status, 400);
      assert.equal(deep.body.code, 'invalid_json');
      const bound = await server.client.request('POST', '/v1/content', { key: owner.key, headers: { 'content-type': 'application/json' }, raw: at(64) });
      assert.equal(bound.status, 422, bound.text);
      assert.deepEqual(bound.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]), [['extra', 'unknown_field']]);
    });

    it('finds where each string ends past escaped quotes and backslashes, so nesting after them still counts', async () => {
      // "a\\" ends after an escaped backslash; "b\"[[" holds an escaped quote and brackets.
      const raw = (depth: number) => `{"title":"a\\\\","type":"blog","content":"b\\"[[\\\\","extra":${nested(depth - 1, 'array')}}`;
      const deep = await server.client.request('POST', '/v1/content', { key: owner.key, headers: { 'content-type': 'application/json' }, raw: raw(65) });
      assert.equal(deep.status, 400, deep.text);
      assert.equal(deep.body.code, 'invalid_json');
      const bound = await server.client.request('POST', '/v1/content', { key: owner.key, headers: { 'content-type': 'application/json' }, raw: raw(64) });
      assert.equal(bound.status, 422, bound.text);
      assert.deepEqual(bound.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]), [['extra', 'unknown_field']]);
    });

    it('counts brackets inside strings as text, not nesting', async () => {
      const title = '['.repeat(150);
      const res = await server.client.request('POST', '/v1/content', {
        key: owner.key,
        headers: { 'content-type': 'application/json' },
        raw: JSON.stringify({ title, type: 'blog', content: `{\\"${'{'.repeat(5000)}` }),
      });
      assert.equal(res.status, 201, res.text.slice(0, 200));
      assert.equal(res.body.data.title, title);
    });

    it('answers a 10,000-deep WebSocket message with an error message, and the connection goes on', async () => {
      const client = await WsClient.open(server, owner.key);
      try {
        client.send(nested(10_000, 'array'));
        client.send(`{"type":"subscribe","event":"content.created","since":${nested(10_000, 'object')}}`);
        const errors = [await client.next((m) => m.type === 'error'), await client.next((m) => m.type === 'error')];
        assert.deepEqual(errors.map((m) => m.code), ['invalid_message', 'invalid_message']);
        client.send({ type: 'ping' });
        assert.equal((await client.next((m) => m.type === 'pong')).type, 'pong');
      } finally {
        client.socket.close();
      }
      const errors = parseLogs(server.logs).filter((l) => (l.level as number) >= 50);
      assert.deepEqual(errors.slice(0, 3), []);
    });

    it('keeps the text rules on every string, nested ones included, in document order', async () => {
      const res = await server.client.post('/v1/webhooks', { key: owner.key, json: { url: 'https://hooks.example.com/x', events: ['content.created', 'a\u0000b', 'x\u202e'] } });
      assert.equal(res.status, 422);
      const fields = res.body.errors.map((e: { field: string }) => e.field);
      assert.ok(fields.includes('events[1]'), JSON.stringify(res.body.errors));
    });
  });
}
