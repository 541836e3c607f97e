// One limit across instances (CONTRACT.md §8, §12): with Redis, three instances enforce one hourly
// limit exactly under concurrent load; one instance in memory does the same on its own. When Redis
// goes away the service fails open to per-instance counters (or, RATE_LIMIT_ON_REDIS_DOWN=closed,
// answers 503), counts the time in a metric, and goes back to Redis when it returns.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client, Response } from './helpers/client.js';
import { startSecondInstance, type SecondInstance } from './helpers/instance.js';
import { countersEnv, eventually, manualClock, rateHeaders, redisKeys } from './helpers/limits.js';
import { Relay } from './helpers/relay.js';
import { parseLogs } from './helpers/logs.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const redisUrl = process.env.TEST_REDIS_URL;
const HOUR = 3_600_000;

/** Sends `total` GETs at once, spread over the clients in turn. */
function burst(clients: Client[], key: string, total: number): Promise<Response[]> {
  return Promise.all(Array.from({ length: total }, (_, i) => clients[i % clients.length]!.get('/v1/content?limit=1', { key })));
}

function tally(answers: Response[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const res of answers) out[res.status] = (out[res.status] ?? 0) + 1;
  return out;
}

for (const store of testStores()) {
  describe(`one limit under concurrent load (${store})`, () => {
    it('one instance with counters in memory answers exactly 1,000 of 1,500 concurrent requests', async () => {
      const time = manualClock('2027-03-10T09:00:00.000Z');
      const server = await startServer(store, { clock: time.clock });
      try {
        const { key } = await server.account({ plan: 'basic' });
        assert.deepEqual(tally(await burst([server.client], key, 1500)), { 200: 1000, 429: 500 });
      } finally {
        await server.close();
      }
    });

    if (redisUrl) it('three instances sharing Redis answer exactly 1,000 of 1,500 concurrent requests', async () => {
      const time = manualClock('2027-03-10T09:00:00.000Z');
      const redis = countersEnv('redis');
      const server = await startServer(store, { env: redis.env, clock: time.clock });
      const others: SecondInstance[] = [];
      try {
        for (let i = 0; i < 2; i++) others.push(await startSecondInstance(server, { env: redis.env, clock: time.clock }));
        const { key } = await server.account({ plan: 'basic' });
        const answers = await burst([server.client, ...others.map((o) => o.client)], key, 1500);
        assert.deepEqual(tally(answers), { 200: 1000, 429: 500 });
        for (const res of answers.filter((r) => r.status === 429)) assert.equal(res.body.code, 'rate_limited');
        const remaining = answers.filter((r) => r.status === 200).map((r) => rateHeaders(r).remaining).sort((a, b) => a - b);
        assert.deepEqual(remaining, Array.from({ length: 1000 }, (_, i) => i), 'one count: every admitted request saw a different one');
        // Any instance now shows the spent window and the quota used by exactly those 1,000.
        time.advance(HOUR);
        const usage = await others[1]!.client.get('/v1/usage', { key });
        assert.equal(usage.status, 200, usage.text);
        assert.equal(usage.body.data.used, 1001);
      } finally {
        for (const other of others) await other.close();
        await server.close();
        await redis.cleanup();
      }
    });
  });
}

/** cms_rate_limit_degraded_seconds_total as /metrics shows it. */
async function degradedSeconds(server: TestServer): Promise<number> {
  const metrics = await server.client.get('/metrics');
  const value = /^cms_rate_limit_degraded_seconds_total (\S+)$/m.exec(metrics.text)?.[1];
  assert.ok(value !== undefined, 'the metric is missing');
  return Number(value);
}

// Like PostgreSQL, Redis suites run when the runner names one (TEST_REDIS_URL), as .ci/run does.
if (redisUrl) describe('when Redis goes away', () => {
  const time = manualClock('2027-03-10T09:00:00.000Z');
  const relay = new Relay(new URL(redisUrl));
  let redis: ReturnType<typeof countersEnv>;
  let server: TestServer;
  before(async () => {
    await relay.start();
    redis = countersEnv('redis', relay.url);
    server = await startServer('sqlite', { env: redis.env, clock: time.clock });
  });
  after(async () => {
    await server.close();
    await relay.cut().catch(() => {});
    await redis.cleanup();
  });

  const logged = (message: string) => parseLogs(server.logs).some((l) => String(l.msg).startsWith(message));

  it('fails open to counters in the instance, still limiting, and returns to Redis when it answers', async () => {
    const { key } = await server.account({ plan: 'enterprise', rateLimit: 5 });
    const get = () => server.client.get('/v1/content', { key });
    assert.deepEqual([rateHeaders(await get()).remaining, rateHeaders(await get()).remaining], [4, 3]);
    assert.ok((await redisKeys(redis.prefix)).length >= 2, 'counted in Redis');

    await relay.cut();
    // Every request is still answered, with headers from this instance's own window …
    const during = [];
    for (let i = 0; i < 6; i++) during.push(await get());
    assert.deepEqual(during.map((r) => r.status), [200, 200, 200, 200, 200, 429]);
    assert.deepEqual(during.slice(0, 5).map((r) => rateHeaders(r).remaining), [4, 3, 2, 1, 0]);
    assert.equal(during[5]!.body.code, 'rate_limited');
    await eventually(async () => logged('Redis is unreachable'), 'the outage to be logged');

    // The time without Redis is counted.
    const degraded = await degradedSeconds(server);
    assert.ok(degraded > 0, `degraded ${degraded} s`);

    // … and back on Redis's count (2 so far) once it answers again.
    await relay.mend();
    await eventually(async () => logged('Redis answers again'), 'the recovery to be logged', 10_000);
    const back = await get();
    assert.equal(back.status, 200, back.text);
    assert.equal(rateHeaders(back).remaining, 2);
    // The quota's count missed the outage in Redis; it was dropped and rebuilt from the database
    // plus this instance's unwritten counts: 2 + 5 + 1 answered, and this request.
    const usage = await server.client.get('/v1/usage', { key });
    assert.equal(usage.body.data.used, 9);
  });

  it('treats a Redis that stops answering for 1 s like one that is gone, and returns to it', async () => {
    const count = (message: string) => parseLogs(server.logs).filter((l) => String(l.msg).startsWith(message)).length;
    const outages = count('Redis is unreachable');
    const recoveries = count('Redis answers again');
    const { key } = await server.account({ plan: 'enterprise', rateLimit: 5 });
    const get = () => server.client.get('/v1/content', { key });
    assert.equal(rateHeaders(await get()).remaining, 4);
    relay.stall();
    const started = Date.now();
    const stalled = await get();
    const took = Date.now() - started;
    assert.equal(stalled.status, 200, stalled.text);
    assert.ok(took >= 900 && took < 5000, `answered after ${took} ms`);
    assert.equal(rateHeaders(stalled).remaining, 4, 'a window of this instance, not Redis\'s (which says 3)');
    assert.equal(count('Redis is unreachable'), outages + 1);
    relay.flow();
    await eventually(async () => {
      assert.equal((await get()).status === 500, false);
      return count('Redis answers again') === recoveries + 1;
    }, 'a request to find Redis answering again');
  });

  it('starts while Redis is unreachable, serving with its own counters', async () => {
    const dead = new Relay(new URL(redisUrl));
    await dead.start();
    await dead.cut();
    const lonely = await startServer('sqlite', { env: { REDIS_URL: dead.url, REDIS_KEY_PREFIX: redis.prefix }, clock: time.clock });
    try {
      const { key } = await lonely.account({ plan: 'free' });
      const res = await lonely.client.get('/v1/content', { key });
      assert.equal(res.status, 200, res.text);
      assert.equal(rateHeaders(res).remaining, 99);
    } finally {
      await lonely.close();
    }
  });
});

if (redisUrl) describe('when Redis goes away, failing closed (RATE_LIMIT_ON_REDIS_DOWN=closed)', () => {
  const relay = new Relay(new URL(redisUrl));
  let redis: ReturnType<typeof countersEnv>;
  let server: TestServer;
  before(async () => {
    await relay.start();
    redis = countersEnv('redis', relay.url);
    server = await startServer('sqlite', { env: { ...redis.env, RATE_LIMIT_ON_REDIS_DOWN: 'closed' } });
  });
  after(async () => {
    await server.close();
    await relay.cut().catch(() => {});
    await redis.cleanup();
  });

  it('answers 503 unavailable while Redis is unreachable, keyed or not, and serves on Redis\'s count once it answers', async () => {
    const { key } = await server.account({ plan: 'enterprise', rateLimit: 5 });
    const get = (withKey = true) => server.client.get('/v1/content', withKey ? { key } : {});
    assert.equal(rateHeaders(await get()).remaining, 4);
    assert.equal(await degradedSeconds(server), 0);

    await relay.cut();
    for (const res of [await get(), await get(), await get(false)]) {
      assert.equal(res.status, 503, res.text);
      assert.equal(res.body.code, 'unavailable');
      assert.match(String(res.headers['retry-after']), /^\d+$/);
      assert.equal(res.headers['x-ratelimit-limit'], undefined, 'no count to show');
    }
    // Not counted anywhere, and the probes still answer.
    assert.equal((await server.client.get('/healthz')).status, 200);
    assert.ok(parseLogs(server.logs).some((l) => String(l.msg) === 'Redis is unreachable: requests are answered 503 until it answers'));
    assert.ok((await degradedSeconds(server)) > 0);
    assert.deepEqual(parseLogs(server.logs).filter((l) => (l.level as number) >= 50), [], 'no error-level line');

    await relay.mend();
    const back = await eventually(async () => {
      const res = await get();
      return res.status === 200 ? res : undefined;
    }, 'Redis to be used again', 10_000);
    assert.equal(rateHeaders(back).remaining, 3, 'the refused requests were not counted');
  });
});
