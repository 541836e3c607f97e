// The OpenAPI document tells the whole truth (issue 21): every operation of /v1/openapi.json is
// called — well-formed, hostile (test/helpers/fuzz.ts), without a key, with a key that may not, over
// the rate limit, with bad, deep, huge and mistyped bodies, conditionally, replayed — and every
// answer is held to the document: its status must be listed for the operation that answered (found
// from the request's log line, which names the route), every header it carries must be declared on
// that response (but HTTP's own framing and the security headers every answer has, which the
// document's description names), and every header declared `required` must be there.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import type { Response } from './helpers/client.js';
import { operationsOf, requestsFor, type KnownIds, type Operation } from './helpers/fuzz.js';
import { multipart, png } from './helpers/multipart.js';
import { parseLogs } from './helpers/logs.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const RUNS = Number(process.env.TRUTH_RUNS ?? 600);

/** Sent on every answer and named once in the document's description: HTTP framing and the security headers. */
const GENERIC = new Set([
  'content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding',
  'strict-transport-security', 'x-content-type-options', 'content-security-policy', 'referrer-policy', 'x-frame-options',
  'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster', 'x-dns-prefetch-control',
  'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection',
]);

interface DocResponse {
  headers?: Record<string, { $ref?: string; required?: boolean }>;
}
interface Doc {
  paths: Record<string, Record<string, { responses: Record<string, DocResponse> }>>;
  components: { headers: Record<string, { required?: boolean }> };
}

interface Seen {
  method: string;
  url: string;
  why: string;
  res: Response;
}

for (const store of testStores()) {
  describe(`the OpenAPI document against every answer (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    let doc: Doc;
    let operations: Operation[];
    const seen: Seen[] = [];
    const ids: KnownIds = { content: [], users: [], 'api-keys': [], webhooks: [], delivery_id: [], after: [], cursor: [] };

    before(async () => {
      server = await startServer(store, {
        env: { WEBHOOK_ALLOW_PRIVATE: 'true', IP_RATE_LIMIT: '1000000', LOG_LEVEL: 'info' },
        resolver: async () => [{ address: '127.0.0.1', family: 4 }],
      });
      owner = await server.account({ plan: 'enterprise', rateLimit: 1_000_000, quota: 100_000_000 });
      const res = await server.client.get('/v1/openapi.json');
      assert.equal(res.status, 200);
      doc = res.body;
      operations = operationsOf(doc);
      for (let i = 0; i < 4; i++) {
        ids.content!.push((await server.content(owner.key)).id as string);
        ids.users!.push((await call('POST', '/v1/users', 'setup', { key: owner.key, json: { email: `truth-${i}-${Date.now()}@example.com`, name: 'Truth', role: 'viewer', password: 'a long enough password' } })).body.data.id);
        ids['api-keys']!.push((await call('POST', '/v1/api-keys', 'setup', { key: owner.key, json: { name: 'truth' } })).body.data.id);
        const hook = (await call('POST', '/v1/webhooks', 'setup', { key: owner.key, json: { url: 'http://hook.truth.test:9/x', events: ['*'] } })).body.data.id;
        ids.webhooks!.push(hook);
        ids.delivery_id!.push((await call('POST', `/v1/webhooks/${hook}/test`, 'setup', { key: owner.key })).body.data.id);
      }
      ids.after = [(await call('GET', '/v1/events?limit=1', 'setup', { key: owner.key })).body.data[0].id];
      ids.cursor = [(await call('GET', '/v1/content?limit=1', 'setup', { key: owner.key })).body.pagination.next_cursor];
      ids.oauth = [(await call('POST', '/v1/oauth/apps', 'setup', { key: owner.key, json: { name: 'Truth', redirect_uris: ['https://app.example.com/cb'] } })).body.data.id];
      // One public image, so the media routes (and the public one, outside /v1) are reached with an id that exists.
      const upload = multipart([{ name: 'file', value: await png(40, 30), filename: 'truth.png' }]);
      const image = (await call('POST', '/v1/media', 'setup', { key: owner.key, raw: upload.body, headers: upload.headers })).body.data;
      await call('PUT', `/v1/media/${image.id}`, 'setup', { key: owner.key, json: { public: true } });
      ids.media = [image.id];
      ids.filename = [image.filename];
    });
    after(() => server.close());

    async function call(method: string, url: string, why: string, options: Parameters<TestServer['client']['request']>[2] = {}): Promise<Response> {
      const res = await server.client.request(method, url, options);
      seen.push({ method, url, why, res });
      return res;
    }

    /** The operation's path with an id that exists for every parameter. */
    function filled(op: Operation): string {
      let path = op.path;
      for (const name of op.pathParams) {
        const value =
          name === 'delivery_id' ? ids.delivery_id![0]
          : name === 'version' ? '1'
          : name === 'filename' ? ids.filename![0]
          : path.startsWith('/media/') ? ids.media![0]
          : path.startsWith('/v1/oauth/apps') ? ids.oauth![0]
          : path.startsWith('/v1/oauth/authorizations') ? 'grant_none'
          : ids[path.split('/')[2]!]?.[0] ?? 'none';
        path = path.replace(`{${name}}`, value!);
      }
      return path;
    }

    it('provokes what the pipeline answers on every operation', async () => {
      const viewer = (await call('POST', '/v1/users', 'setup', { key: owner.key, json: { email: `viewer-${Date.now()}@example.com`, name: 'V', role: 'viewer', password: 'a long enough password' } })).body.data;
      const narrow = (await call('POST', '/v1/api-keys', 'setup', { key: owner.key, json: { name: 'narrow', user_id: viewer.id, scopes: ['content:read'] } })).body.data.key;
      const delivery = (await call('POST', '/v1/api-keys', 'setup', { key: owner.key, json: { name: 'site', kind: 'delivery' } })).body.data.key;
      const limited = await server.account({ plan: 'free', rateLimit: 1, quota: 1000 });
      const json = { 'content-type': 'application/json' };
      for (const op of operations) {
        const path = filled(op);
        const bodyMethod = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method);
        await call(op.method, `${path}?zz_unknown=1`, 'unknown query parameter', { key: owner.key });
        await call(op.method, path, 'no key');
        await call(op.method, path, 'unknown key', { key: 'cms_live_0000000000000000000000000000000000000000' });
        await call(op.method, path, 'narrow key', { key: narrow });
        await call(op.method, path, 'delivery key', { key: delivery });
        await call(op.method, path, 'over the rate limit', { key: limited.key });
        if (op.pathParams.length) await call(op.method, op.path.replace(/\{[^}]+\}/g, 'nothing_here'), 'unknown id', { key: owner.key });
        // Bodies go to every method: a GET's is ignored, the others' are read (and refused as they deserve).
        await call(op.method, path, 'malformed JSON', { key: owner.key, headers: json, raw: '{"title":' });
        await call(op.method, path, 'deep JSON', { key: owner.key, headers: json, raw: '['.repeat(5000) + ']'.repeat(5000) });
        await call(op.method, path, 'not JSON', { key: owner.key, headers: { 'content-type': 'text/plain' }, raw: 'hello' });
        if (bodyMethod) await call(op.method, path, 'too large', { key: owner.key, headers: json, raw: `{"title":"${'x'.repeat(2 * 1024 * 1024 + 10)}"}` });
        if (op.body) await call(op.method, path, 'unknown field', { key: owner.key, json: { zz_unknown: 1 } });
        if (op.headers.includes('if-match')) await call(op.method, path, 'stale If-Match', { key: owner.key, headers: { 'if-match': '"999999"' } });
        if (op.method === 'POST') await call(op.method, path, 'bad Idempotency-Key', { key: owner.key, headers: { 'idempotency-key': '' } });
      }
    });

    it('walks the success paths: created, read, conditional, replayed, upgraded, expired', async () => {
      const created = await call('POST', '/v1/content', 'create', { key: owner.key, json: { title: 'Truth', type: 'blog', content: 'Body', status: 'published' } });
      assert.equal(created.status, 201);
      const id = created.body.data.id as string;
      const item = await call('GET', `/v1/content/${id}`, 'read', { key: owner.key });
      await call('GET', `/v1/content/${id}`, 'not modified', { key: owner.key, headers: { 'if-none-match': String(item.headers.etag) } });
      const list = await call('GET', '/v1/content', 'list', { key: owner.key });
      await call('GET', '/v1/content', 'list not modified', { key: owner.key, headers: { 'if-none-match': String(list.headers.etag) } });
      const feed = await call('GET', '/v1/content/feed.atom', 'feed', { key: owner.key });
      await call('GET', '/v1/content/feed.atom', 'feed not modified', { key: owner.key, headers: { 'if-none-match': String(feed.headers.etag) } });
      await call('PUT', `/v1/content/${id}`, 'update', { key: owner.key, headers: { 'if-match': String(item.headers.etag) }, json: { title: 'Truth 2' } });
      await call('POST', `/v1/content/${id}/archive`, 'archive', { key: owner.key });
      await call('GET', `/v1/content/${id}/revisions`, 'revisions', { key: owner.key });
      await call('GET', `/v1/content/${id}/revisions/1`, 'revision', { key: owner.key });
      await call('POST', `/v1/content/${id}/revisions/1/restore`, 'restore', { key: owner.key });
      await call('POST', `/v1/content/${id}/preview`, 'preview', { key: owner.key });
      const keyed = { 'idempotency-key': `truth-${Date.now()}` };
      const first = await call('POST', '/v1/content', 'keyed', { key: owner.key, headers: keyed, json: { title: 'Once', type: 'blog', content: 'x' } });
      const again = await call('POST', '/v1/content', 'replayed', { key: owner.key, headers: keyed, json: { title: 'Once', type: 'blog', content: 'x' } });
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.status, first.status);
      await call('POST', '/v1/content', 'reused key', { key: owner.key, headers: keyed, json: { title: 'Other', type: 'blog', content: 'x' } });
      const delivery = (await call('POST', '/v1/api-keys', 'setup', { key: owner.key, json: { name: 'site 2', kind: 'delivery' } })).body.data.key;
      await call('GET', '/v1/content', 'delivery list', { key: delivery });
      await call('GET', `/v1/content/${ids.content![0]}`, 'delivery read', { key: delivery });
      await call('GET', '/v1/ws', 'plain GET of the socket', { key: owner.key });
      await call('GET', '/v1/events?after=evt_00000000000000000000000000', 'expired cursor', { key: owner.key });
      await call('GET', '/v1/usage', 'usage', { key: owner.key });
      const media = ids.media![0]!;
      const file = await call('GET', `/v1/media/${media}/file`, 'media file', { key: owner.key });
      await call('GET', `/v1/media/${media}/file`, 'media not modified', { key: owner.key, headers: { 'if-none-match': String(file.headers.etag) } });
      await call('GET', `/v1/media/${media}/file`, 'media range', { key: owner.key, headers: { range: 'bytes=0-9' } });
      await call('GET', `/v1/media/${media}/file`, 'media range past the end', { key: owner.key, headers: { range: 'bytes=999999-' } });
      await call('GET', `/v1/media/${media}/file?w=20&format=webp`, 'media variant', { key: owner.key });
      await call('GET', `/media/${media}/${ids.filename![0]}`, 'public media');
      await call('GET', `/media/${media}/${ids.filename![0]}?w=10`, 'public variant');
      await call('DELETE', `/v1/content/${id}`, 'delete', { key: owner.key });
      await call('DELETE', `/v1/content/${id}`, 'deleted twice', { key: owner.key });
    });

    it(`sends ${RUNS} generated requests across every operation`, async () => {
      const cases = fc.sample(requestsFor(operations, owner.key, ids), { numRuns: RUNS, seed: 21 });
      for (const c of cases) await call(c.method, c.path, 'generated', { headers: c.headers, ...(c.body === undefined ? {} : { raw: c.body }) });
    });

    it('finds every status and header it saw declared, and every required header sent', async (t) => {
      // Each answer's operation, from its request line (the route as registered).
      const routes = new Map<string, { route?: string; method: string }>();
      const want = new Set(seen.map((s) => String(s.res.headers['x-request-id'])));
      for (let i = 0; i < 50 && [...want].some((id) => !routes.has(id)); i++) {
        for (const line of parseLogs(server.logs)) {
          if (line.msg === 'request' && typeof line.request_id === 'string') routes.set(line.request_id, { route: line.route as string | undefined, method: line.method as string });
        }
        await sleep(50);
      }
      const problems = new Set<string>();
      const statuses = new Map<string, Set<number>>();
      let checked = 0;
      for (const { method, url, why, res } of seen) {
        const answered = routes.get(String(res.headers['x-request-id']));
        if (!answered?.route) continue; // no route matched (404/405 of the router, a malformed URL): no operation answered
        const path = answered.route.replace(/:([A-Za-z_]+)/g, '{$1}');
        // The API's operations: /v1 and the public media route (the dashboard's and OAuth's pages are not in the document).
        if (path === '/v1/openapi.json' || !(path.startsWith('/v1/') || path.startsWith('/media/'))) continue;
        const operation = doc.paths[path]?.[answered.method.toLowerCase()];
        const where = `${answered.method} ${path} → ${res.status} (${why}: ${method} ${url.slice(0, 80)})`;
        if (!operation) {
          problems.add(`not in the document: ${where}`);
          continue;
        }
        checked++;
        const key = `${answered.method} ${path}`;
        if (!statuses.has(key)) statuses.set(key, new Set());
        statuses.get(key)!.add(res.status);
        const response = operation.responses[String(res.status)];
        if (!response) {
          problems.add(`status not declared: ${where}`);
          continue;
        }
        const declared = new Map(Object.entries(response.headers ?? {}).map(([name, header]) => [name.toLowerCase(), header]));
        for (const name of Object.keys(res.headers)) {
          if (!GENERIC.has(name) && !declared.has(name)) problems.add(`header ${name} not declared: ${where}`);
        }
        for (const [name, header] of declared) {
          const component = header.$ref === undefined ? header : doc.components.headers[header.$ref.split('/').pop()!];
          if (!component) problems.add(`header ${name} refers to nothing: ${where}`);
          else if (component.required && res.headers[name] === undefined) problems.add(`required header ${name} missing: ${where}`);
        }
      }
      t.diagnostic(`${checked} of ${seen.length} answers checked; ${[...statuses].map(([op, s]) => `${op}: ${[...s].sort().join(' ')}`).join('; ')}`);
      assert.deepEqual([...problems].sort().slice(0, 40), [], `${problems.size} problems`);
      // Every operation was reached, and answered more than one way.
      for (const op of operations) {
        const got = statuses.get(`${op.method} ${op.path}`);
        assert.ok(got && got.size >= 3, `${op.method} ${op.path}: ${[...(got ?? [])].join(', ')}`);
      }
      assert.ok(checked >= seen.length * 0.8, `only ${checked} of ${seen.length} answers tied to an operation`);
    });
  });
}

describe('the OpenAPI document with rate limits switched off', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite', { env: { RATE_LIMITS: 'off' } });
  });
  after(() => server.close());

  it('declares no rate-limit header, as no answer carries one', async () => {
    const owner = await server.account();
    const doc = (await server.client.get('/v1/openapi.json')).body as Doc;
    const list = await server.client.get('/v1/content', { key: owner.key });
    assert.equal(list.headers['x-ratelimit-limit'], undefined);
    assert.deepEqual(Object.keys(doc.components.headers).filter((name) => /ratelimit/i.test(name)), []);
    assert.deepEqual(Object.keys(doc.paths['/v1/content']!.get!.responses['200']!.headers!).sort(), ['Cache-Control', 'ETag', 'Vary', 'X-Request-Id']);
  });
});
