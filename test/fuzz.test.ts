// Property-based fuzzing of the whole API, built from its own OpenAPI document (fast-check): for
// every operation, requests mostly well-formed and partly hostile (test/helpers/fuzz.ts). Whatever
// comes in: never a 5xx, always the contract's envelope with the request's id, never a stack or
// SQL text, and no error-level log line. FUZZ_RUNS sets the cases per store (CI runs the default);
// FUZZ_SEED replays a run that failed (fast-check prints its seed).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { parseLogs } from './helpers/logs.js';
import { operationsOf, requestsFor, resourceOf, type FuzzCase, type KnownIds } from './helpers/fuzz.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1200);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const REQUEST_ID = /^req_[0-9a-hjkmnp-tv-z]{26}$/;
/** The field codes of CONTRACT.md §2, all of them (a generated date may lie past a limit: `out_of_range`). */
const FIELD_CODES = new Set(['required', 'invalid_type', 'invalid_value', 'too_short', 'too_long', 'invalid_format', 'read_only', 'unknown_field', 'empty_update', 'out_of_range', 'invalid_reference', 'unsupported_type', 'precondition_failed']);
/** What must never reach a client: stack frames, source paths, driver and SQL text. */
const LEAK = /\n\s+at |node_modules|\/work\/|\.[jt]s:\d+|SQLITE_|sqlite3?\b|postgres|pg_|syntax error|select\s.+\sfrom|insert into|update\s+\S+\s+set|TypeError|ReferenceError|RangeError|Cannot read prop/i;

for (const store of testStores()) {
  describe(`fuzzing every operation of the OpenAPI document (${store})`, () => {
    let server: TestServer;
    let key: string;
    let ids: KnownIds;
    before(async () => {
      // Webhook hosts all resolve to loopback, where nothing answers: no DNS, no network.
      server = await startServer(store, {
        env: { WEBHOOK_ALLOW_PRIVATE: 'true', IP_RATE_LIMIT: '1000000', LOG_LEVEL: 'info' },
        resolver: async () => [{ address: '127.0.0.1', family: 4 }],
      });
      const owner = await server.account({ plan: 'enterprise', rateLimit: 1_000_000, quota: 100_000_000 });
      key = owner.key;
      // Ids that exist in the account, so that requests get past "not found" (never the owner's own
      // user or key, whose deletion would end the run's access).
      ids = { content: [], users: [], 'api-keys': [], webhooks: [], delivery_id: [], after: [], cursor: [] };
      for (const resource of Object.keys(CREATE)) for (let i = 0; i < 2; i++) await replenish(resource);
      ids.after = [(await server.client.get('/v1/events?limit=1', { key })).body.data[0].id];
      ids.cursor = [(await server.client.get('/v1/content?limit=1', { key })).body.pagination.next_cursor];
    });
    after(() => server.close());

    /** How to make one more of each resource, so that generated DELETEs never leave none to find. */
    const CREATE: Record<string, () => Promise<string>> = {
      content: async () => (await server.content(key)).id as string,
      users: async () => (await server.client.post('/v1/users', { key, json: { email: `fuzz-${Date.now()}-${Math.random()}@example.com`, name: 'Fuzz', role: 'viewer' } })).body.data.id,
      'api-keys': async () => (await server.client.post('/v1/api-keys', { key, json: { name: 'fuzzed' } })).body.data.id,
      webhooks: async () => {
        const hook = (await server.client.post('/v1/webhooks', { key, json: { url: 'http://hook.fuzz.test:9/x', events: ['*'] } })).body.data.id;
        ids.delivery_id!.push((await server.client.post(`/v1/webhooks/${hook}/test`, { key })).body.data.id);
        return hook;
      },
    };

    async function replenish(resource: string): Promise<void> {
      ids[resource]!.push(await CREATE[resource]!());
    }

    /** Answers by status and code, to show (and check) that the cases reach past validation. */
    const seen = new Map<string, number>();

    async function check(request: FuzzCase): Promise<void> {
      const res = await server.client.request(request.method, request.path, { headers: request.headers, ...(request.body === undefined ? {} : { raw: request.body }) });
      const kind = `${res.status}${res.status >= 400 ? ` ${res.body?.code}` : ''}`;
      seen.set(kind, (seen.get(kind) ?? 0) + 1);
      const where = `${request.method} ${request.path} → ${res.status} ${res.text.slice(0, 300)}`;
      assert.ok(res.status < 500, where);
      if (res.status === 204) {
        assert.equal(res.text, '', where);
        const resource = resourceOf(request.path);
        const gone = decodeURIComponent(request.path.split('?')[0]!.split('/')[3] ?? '');
        if (request.method === 'DELETE' && ids[resource]?.includes(gone)) {
          ids[resource] = ids[resource]!.filter((id) => id !== gone);
          await replenish(resource);
        }
        return;
      }
      // The one answer that is a document of its own, as the OpenAPI document says: the Atom feed (CONTRACT.md §19).
      if (res.status === 200 && String(res.headers['content-type']).startsWith('application/atom+xml')) {
        assert.match(res.text, /^<\?xml [^>]*\?>\s*<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom">/, where);
        assert.match(String(res.headers['x-request-id']), REQUEST_ID, where);
        return;
      }
      assert.ok(res.body !== undefined, `not JSON: ${where}`);
      assert.match(String(res.headers['x-request-id']), REQUEST_ID, where);
      assert.equal(res.body.meta?.request_id, res.headers['x-request-id'], where);
      if (res.status >= 400) {
        assert.equal(typeof res.body.message, 'string', where);
        assert.equal(typeof res.body.code, 'string', where);
        for (const name of Object.keys(res.body)) assert.ok(['message', 'code', 'errors', 'meta'].includes(name), where);
        for (const error of res.body.errors ?? []) assert.ok(FIELD_CODES.has(error.code) && typeof error.field === 'string', where);
        assert.doesNotMatch(res.text, LEAK, where);
      }
    }

    it(`answers ${RUNS} generated requests within the contract`, async (t) => {
      const document = server.app.http.swagger();
      const operations = operationsOf(document);
      assert.ok(operations.length >= 25, `${operations.length} operations`);
      await fc.assert(fc.asyncProperty(requestsFor(operations, key, ids), check), { numRuns: RUNS, seed: SEED, endOnFailure: true });
      const answers = [...seen].sort((a, b) => b[1] - a[1]);
      t.diagnostic(`answers: ${answers.map(([kind, n]) => `${kind} × ${n}`).join(', ')}`);
      // A fuzzer that only ever meets validation tests little: a good share must get through.
      const succeeded = answers.filter(([kind]) => kind.startsWith('2')).reduce((sum, [, n]) => sum + n, 0);
      assert.ok(succeeded >= RUNS * 0.15, `only ${succeeded} of ${RUNS} requests succeeded`);
    });

    it('logged nothing at error level', () => {
      const errors = parseLogs(server.logs).filter((l) => (l.level as number) >= 50);
      assert.deepEqual(errors.slice(0, 3), [], `${errors.length} error-level lines`);
    });
  });
}
