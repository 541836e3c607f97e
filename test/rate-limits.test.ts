// The hourly rate limit and the per-address limit as a client sees them (CONTRACT.md §3, §8): the
// headers on every status, exact enforcement under concurrency, 429 with Retry-After and no other
// effect, window rollover on an injected clock, the route checked before the key, plan changes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, type Response } from './helpers/client.js';
import { assertNoRateHeaders, countersEnv, counterKinds, manualClock, rateHeaders, secondsToReset } from './helpers/limits.js';
import { runCli } from './helpers/process.js';
import { oneProcess, startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { ConfigError, loadConfig } from '../src/config.js';

const HOUR = 3_600_000;
const MiB = 1024 * 1024;
const ITEM = { title: 'Counted', type: 'blog', content: 'x' };

function assertError(res: Response, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code);
}

/** A 429 with an integer Retry-After ≥ 1 that agrees with the RateLimit header. */
function assertRefused(res: Response, code: 'rate_limited' | 'quota_exceeded'): number {
  assertError(res, 429, code);
  const retry = String(res.headers['retry-after']);
  assert.match(retry, /^[1-9]\d*$/);
  if (code === 'rate_limited') assert.equal(Number(retry), secondsToReset(res));
  return Number(retry);
}

/** Environment for the `cms` command on the server's store. */
function cliEnv(server: TestServer): Record<string, string> {
  const store = server.app.config.store;
  return { DATA_DIR: server.dataDir, ...(store.kind === 'postgres' ? { DATABASE_URL: store.url } : {}) };
}

async function contentCount(server: TestServer, accountId: string): Promise<number> {
  const row = await server.app.store.db
    .selectFrom('content')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

for (const store of testStores()) {
  for (const counters of counterKinds()) {
    describe(`rate limits (${store}, ${counters} counters)`, () => {
      const time = manualClock('2027-03-10T09:00:00.000Z');
      const redis = countersEnv(counters);
      let server: TestServer;
      before(async () => {
        server = await startServer(store, { env: redis.env, clock: time.clock });
      });
      after(async () => {
        await server.close();
        await redis.cleanup();
      });

      it('opens a window with the first request: on the free plan the first answer says 99 of 100', async () => {
        const { key } = await server.account({ plan: 'free' });
        const res = await server.client.get('/v1/content', { key });
        assert.equal(res.status, 200);
        const h = rateHeaders(res);
        assert.deepEqual(h, {
          limit: 100,
          remaining: 99,
          reset: Math.ceil((time.now() + HOUR) / 1000),
          policy: '"hourly";q=100;w=3600',
          rateLimit: '"hourly";r=99;t=3600',
        });
        time.advance(1500);
        const next = rateHeaders(await server.client.get('/v1/content', { key }));
        assert.equal(next.remaining, 98);
        assert.equal(next.reset, h.reset, 'a fixed window: the reset does not move');
        assert.equal(next.rateLimit, '"hourly";r=98;t=3599');
      });

      it('counts every request of the account whatever its status, and shows it on every status', async () => {
        const owner = await server.account({ plan: 'basic' });
        const key = owner.key;
        const reader = (await server.app.accounts.createKeyForUser(owner.userId, 'reader', ['content:read'])).api_key;
        const c = server.client;
        let id = '';
        const email = `dup-${Date.now()}@example.com`;
        const steps: [number, string, () => Promise<Response>][] = [
          [200, 'list', () => c.get('/v1/content', { key })],
          [201, 'create', async () => {
            const res = await c.post('/v1/content', { key, json: ITEM });
            id = res.body.data.id;
            return res;
          }],
          [200, 'get', () => c.get(`/v1/content/${id}`, { key })],
          [412, 'stale If-Match', () => c.put(`/v1/content/${id}`, { key, json: { title: 'x' }, headers: { 'if-match': '"99"' } })],
          [204, 'delete', () => c.delete(`/v1/content/${id}`, { key })],
          [404, 'deleted id', () => c.get(`/v1/content/${id}`, { key })],
          [400, 'bad query', () => c.get('/v1/content?limit=0', { key })],
          [400, 'bad JSON', () => c.post('/v1/content', { key, raw: '{', headers: { 'content-type': 'application/json' } })],
          [422, 'invalid body', () => c.post('/v1/content', { key, json: { title: '' } })],
          [415, 'not JSON', () => c.post('/v1/content', { key, raw: 'x', headers: { 'content-type': 'text/plain' } })],
          [413, 'too large', () => c.post('/v1/content', { key, raw: Buffer.alloc(2 * MiB + 1, 'a'), headers: { 'content-type': 'application/json' } })],
          [403, 'another key of the account, without the scope', () => c.post('/v1/content', { key: reader, json: ITEM })],
          [201, 'user', () => c.post('/v1/users', { key, json: { email, name: 'Dup', role: 'viewer' } })],
          [409, 'duplicate user', () => c.post('/v1/users', { key, json: { email, name: 'Dup', role: 'viewer' } })],
          [404, 'unknown path', () => c.get('/v1/nowhere', { key })],
          [404, 'another version', () => c.get('/v2/content', { key })],
          [405, 'wrong method', () => c.delete('/v1/content', { key })],
          [200, 'usage', () => c.get('/v1/usage', { key })],
        ];
        let previous: ReturnType<typeof rateHeaders> | undefined;
        for (const [status, name, send] of steps) {
          const res = await send();
          assert.equal(res.status, status, `${name}: ${res.text}`);
          const h = rateHeaders(res);
          assert.equal(h.policy, '"hourly";q=1000;w=3600', name);
          if (previous) {
            assert.equal(h.remaining, previous.remaining - 1, `${name}: remaining falls by exactly one`);
            assert.equal(h.reset, previous.reset, name);
          }
          previous = h;
        }
      });

      it('shows the address policy on answers to requests without a valid key', async () => {
        for (const res of [
          await server.client.get('/v1/content'),
          await server.client.get('/v1/content', { key: 'cms_live_not-a-key' }),
          await server.client.get('/v1/nowhere'),
          await server.client.get('/v1/openapi.json'),
        ]) {
          assert.ok([200, 401, 404].includes(res.status), res.text);
          assert.match(rateHeaders(res).policy, /^"ip";q=60;w=60$/);
        }
      });

      it('counts unknown paths and wrong methods against the account but answers them 404/405 even over the limit', async () => {
        const { key } = await server.account({ plan: 'enterprise', rateLimit: 2 });
        assert.equal(rateHeaders(await server.client.get('/v1/nowhere', { key })).remaining, 1);
        assert.equal(rateHeaders(await server.client.delete('/v1/content', { key })).remaining, 0);
        assertRefused(await server.client.get('/v1/content', { key }), 'rate_limited');
        const unknown = await server.client.get('/v1/nowhere', { key });
        assertError(unknown, 404, 'not_found');
        assert.equal(rateHeaders(unknown).remaining, 0);
        const wrong = await server.client.delete('/v1/content', { key });
        assertError(wrong, 405, 'method_not_allowed');
        assert.equal(rateHeaders(wrong).policy, '"hourly";q=2;w=3600');
      });

      it('answers exactly the limit under concurrency; the rest get 429 with Retry-After and change nothing', async () => {
        const account = await server.account({ plan: 'enterprise', rateLimit: 40, quota: 1000 });
        const answers = await Promise.all(Array.from({ length: 70 }, () => server.client.post('/v1/content', { key: account.key, json: ITEM })));
        const created = answers.filter((r) => r.status === 201);
        const refused = answers.filter((r) => r.status === 429);
        assert.equal(created.length, 40);
        assert.equal(refused.length, 30);
        for (const res of refused) {
          const retry = assertRefused(res, 'rate_limited');
          assert.equal(retry, 3600);
          assert.equal(rateHeaders(res).remaining, 0);
          assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
        }
        assert.deepEqual(
          created.map((r) => rateHeaders(r).remaining).sort((a, b) => a - b),
          Array.from({ length: 40 }, (_, i) => i),
          'each admitted request saw its own count',
        );
        assert.equal(await contentCount(server, account.accountId), 40, 'a refused create stores nothing');
      });

      it('opens a new window when the old one closes, and not a moment before', async () => {
        const { key } = await server.account({ plan: 'enterprise', rateLimit: 3 });
        const opened = time.now();
        const first = rateHeaders(await server.client.get('/v1/content', { key }));
        time.advance(10 * 60_000);
        await server.client.get('/v1/content', { key });
        await server.client.get('/v1/content', { key });
        const refused = await server.client.get('/v1/content', { key });
        assert.equal(assertRefused(refused, 'rate_limited'), 50 * 60);
        time.set(new Date(opened + HOUR - 1).toISOString());
        assertRefused(await server.client.get('/v1/content', { key }), 'rate_limited');
        time.advance(1);
        const reopened = await server.client.get('/v1/content', { key });
        assert.equal(reopened.status, 200, reopened.text);
        const h = rateHeaders(reopened);
        assert.equal(h.remaining, 2);
        assert.equal(h.reset, Math.ceil((opened + 2 * HOUR) / 1000));
        assert.equal(first.reset, Math.ceil((opened + HOUR) / 1000));
      });

      it('limits requests without a valid key to 60 a minute per address, so keys cannot be guessed at speed', async () => {
        time.advance(61_000); // a fresh address window, whatever earlier tests sent
        for (let i = 0; i < 60; i++) {
          const res = await server.client.get('/v1/content', { key: i % 2 ? `cms_live_${'x'.repeat(40)}` : undefined });
          assertError(res, 401, 'unauthorized');
          const h = rateHeaders(res);
          assert.equal(h.policy, '"ip";q=60;w=60');
          assert.equal(h.remaining, 59 - i);
        }
        const refused = await server.client.get('/v1/content', { key: `cms_live_${'y'.repeat(40)}` });
        assert.equal(assertRefused(refused, 'rate_limited'), 60);
        assert.equal(refused.headers['www-authenticate'], undefined, 'refused before the key is judged');
        // The route is still checked first.
        assertError(await server.client.get('/v1/nowhere'), 404, 'not_found');
        // A valid key is its account's business, not the address's.
        const { key } = await server.account();
        const ok = await server.client.get('/v1/content', { key });
        assert.equal(ok.status, 200);
        assert.equal(rateHeaders(ok).policy, '"hourly";q=10000;w=3600');
        time.advance(60_000);
        const again = await server.client.get('/v1/content');
        assertError(again, 401, 'unauthorized');
        assert.equal(rateHeaders(again).remaining, 59);
      });

      it('applies a plan change made with the CLI within the key cache\'s second, in the same window', async (t) => {
        const account = await server.account({ plan: 'free' });
        const get = () => server.client.get('/v1/content', { key: account.key });
        assert.equal(rateHeaders(await get()).limit, 100);
        const changed = await runCli(['accounts', 'plan', '--account', account.accountId, '--plan', 'basic'], cliEnv(server));
        assert.equal(changed.code, 0, changed.stderr);
        const cached = rateHeaders(await get()).limit;
        // The cache is one process's: the request may reach the other instance, which has not cached the key.
        if (oneProcess(t, 'the key cache is per process; this request may reach the other instance')) assert.equal(cached, 100, 'still the cached key within its second');
        time.advance(1000);
        assert.deepEqual([rateHeaders(await get())].map((h) => [h.limit, h.remaining]), [[1000, 997]]);
        const capped = await runCli(['accounts', 'plan', '--account', account.accountId, '--plan', 'free', '--rate-limit', '4'], cliEnv(server));
        assert.equal(capped.code, 0, capped.stderr);
        time.advance(1000);
        assert.equal(rateHeaders(await get()).remaining, 0);
        const refused = await get();
        assertRefused(refused, 'rate_limited');
        assert.equal(rateHeaders(refused).policy, '"hourly";q=4;w=3600');
      });
    });
  }
}

for (const store of testStores()) {
  describe(`rate-limit headers on a 500 (${store})`, () => {
    it('still shows the account\'s window when the store breaks after the key was checked', async () => {
      const time = manualClock('2027-03-10T09:00:00.000Z');
      const server = await startServer(store, { clock: time.clock });
      try {
        const { key } = await server.account({ plan: 'free' });
        assert.equal(rateHeaders(await server.client.get('/v1/content', { key })).remaining, 99);
        await server.app.store.close();
        const broken = await server.client.get('/v1/content', { key });
        assert.ok(broken.status === 500 || broken.status === 503, broken.text);
        const h = rateHeaders(broken);
        assert.equal(h.policy, '"hourly";q=100;w=3600');
        assert.equal(h.remaining, 98);
      } finally {
        await server.close();
      }
    });
  });

  describe(`rate-limit headers when the quota cannot be read (${store})`, () => {
    it('shows the account\'s window on the error when the store breaks before the quota was first read', async () => {
      const time = manualClock('2027-03-10T09:00:00.000Z');
      const server = await startServer(store, { clock: time.clock });
      try {
        const { key } = await server.account({ plan: 'free' });
        // An unknown path checks the key (cached now) but never reads the quota.
        assert.equal(rateHeaders(await server.client.get('/v1/nowhere', { key })).remaining, 99);
        await server.app.store.close();
        const broken = await server.client.get('/v1/content', { key });
        assert.ok(broken.status === 500 || broken.status === 503, broken.text);
        assert.deepEqual([rateHeaders(broken).policy, rateHeaders(broken).remaining], ['"hourly";q=100;w=3600', 98]);
      } finally {
        await server.close();
      }
    });
  });

  describe(`RATE_LIMITS=off (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store, { env: { RATE_LIMITS: 'off' } });
    });
    after(() => server.close());

    it('neither limits nor counts nor labels anything', async () => {
      const { key } = await server.account({ plan: 'enterprise', rateLimit: 2, quota: 2 });
      for (let i = 0; i < 5; i++) {
        const res = await server.client.get('/v1/content', { key });
        assert.equal(res.status, 200, res.text);
        assertNoRateHeaders(res);
      }
      assertNoRateHeaders(await server.client.get('/v1/content'));
      const usage = await server.client.get('/v1/usage', { key });
      assert.equal(usage.status, 200, usage.text);
      assert.equal(usage.body.data.used, 0);
      assert.equal(usage.body.data.rate_limit, null);
    });
  });
}

describe('the OpenAPI document', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite');
  });
  after(() => server.close());

  it('describes GET /v1/usage and the rate-limit headers of every response', async () => {
    const res = await server.client.get('/v1/openapi.json');
    assert.equal(res.status, 200);
    const doc = res.body;
    const usage = doc.paths['/v1/usage'].get;
    assert.equal(usage.operationId, 'getUsage');
    assert.deepEqual(Object.keys(usage.responses['200'].content['application/json'].schema.properties.data.properties).sort(), [
      'apps', 'days', 'deprecated_calls', 'keys', 'period_end', 'period_start', 'plan', 'quota', 'rate_limit', 'remaining', 'storage', 'used',
    ]);
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const names = Object.keys(response.headers ?? {});
          for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit']) {
            assert.ok(names.includes(name), `${method} ${path} ${status} lacks ${name}`);
          }
          // A 503 (shutting down, the store unreachable) says when to come back too.
          assert.equal(names.includes('Retry-After'), status === '429' || status === '503', `${method} ${path} ${status}`);
        }
      }
    }
    assert.equal(doc.components.headers['Retry-After'].schema.minimum, 1);
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit', 'Retry-After']) {
      assert.equal(doc.components.headers[name].required, true, `${name} is required wherever it is named`);
    }
  });
});

describe('the probes, the documentation pages and the plain-HTTP refusal', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite');
  });
  after(() => server.close());

  it('carry no rate-limit headers and count toward nothing', async () => {
    const before = rateHeaders(await server.client.get('/v1/content')).remaining;
    for (const path of ['/healthz', '/readyz', '/docs', '/docs/json', '/docs/static/index.html']) {
      const res = await server.client.get(path, { key: `cms_live_${'z'.repeat(40)}` });
      assert.ok(res.status === 200 || res.status === 302, `${path}: ${res.status} ${res.text.slice(0, 200)}`);
      assertNoRateHeaders(res);
    }
    const plain = new Client(`http://127.0.0.1:${server.port}`);
    try {
      const refused = await plain.get('/v1/content');
      assertError(refused, 400, 'https_required');
      assertNoRateHeaders(refused);
    } finally {
      plain.close();
    }
    assert.equal(rateHeaders(await server.client.get('/v1/content')).remaining, before - 1);
  });
});

describe('rate-limit configuration', () => {
  it('has the contract\'s defaults, takes figures per plan, and names the variable of a bad value', () => {
    const defaults = loadConfig({ DATA_DIR: '/tmp/unused' }).limits;
    assert.deepEqual(defaults, {
      enabled: true,
      hourly: { free: 100, basic: 1000, pro: 10_000, enterprise: 100_000 },
      monthly: { free: 2000, basic: 20_000, pro: 200_000, enterprise: 2_000_000 },
      perAddress: 60,
      redisKeyPrefix: 'cms:',
      onRedisDown: 'open',
    });
    const set = loadConfig({ DATA_DIR: '/tmp/unused', RATE_LIMITS: 'off', PLAN_RATE_LIMITS: 'free=50, enterprise=500000', PLAN_QUOTAS: 'basic=30000', IP_RATE_LIMIT: '20', REDIS_KEY_PREFIX: 'tenant-a:' }).limits;
    assert.deepEqual(set, {
      enabled: false,
      hourly: { free: 50, basic: 1000, pro: 10_000, enterprise: 500_000 },
      monthly: { free: 2000, basic: 30_000, pro: 200_000, enterprise: 2_000_000 },
      perAddress: 20,
      redisKeyPrefix: 'tenant-a:',
      onRedisDown: 'open',
    });
    const bad: [Record<string, string>, string][] = [
      [{ RATE_LIMITS: 'maybe' }, 'RATE_LIMITS'],
      [{ PLAN_RATE_LIMITS: 'gold=5' }, 'PLAN_RATE_LIMITS'],
      [{ PLAN_RATE_LIMITS: 'free=0' }, 'PLAN_RATE_LIMITS'],
      [{ PLAN_QUOTAS: 'pro' }, 'PLAN_QUOTAS'],
      [{ PLAN_QUOTAS: 'pro=1.5' }, 'PLAN_QUOTAS'],
      [{ IP_RATE_LIMIT: '0' }, 'IP_RATE_LIMIT'],
    ];
    for (const [env, variable] of bad) {
      assert.throws(
        () => loadConfig({ DATA_DIR: '/tmp/unused', ...env }),
        (error: unknown) => error instanceof ConfigError && error.variable === variable,
        JSON.stringify(env),
      );
    }
  });
});
