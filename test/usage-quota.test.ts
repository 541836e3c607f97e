// The monthly quota as a client sees it (CONTRACT.md §8): only 2xx answers count, GET /v1/usage,
// 429 quota_exceeded until the renewal, the billing cycle clamped to the month's length (on an
// injected clock), concurrency, and what a crash can lose of the batched counts.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { countersEnv, counterKinds, eventually, manualClock, rateHeaders } from './helpers/limits.js';
import { addKey, addUser } from './helpers/people.js';
import { killChildren, startServerProcess, storeEnv } from './helpers/process.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { openStore } from '../src/storage/db.js';
import { closed, openTls, readResponse, type RawResponse } from './helpers/raw.js';
import { refusedUpgrade, WsClient } from './helpers/ws.js';

const UNKNOWN_ID = 'content_01jd2x3m4n5p6q7r8s9t0v1w2x';

function assertQuotaExceeded(res: Response, retryAfter?: number): void {
  assert.equal(res.status, 429, res.text);
  assert.equal(res.body.code, 'quota_exceeded');
  assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/);
  if (retryAfter !== undefined) assert.equal(Number(res.headers['retry-after']), retryAfter);
  assert.equal(rateHeaders(res).policy.startsWith('"hourly"'), true);
}

/**
 * A real WebSocket handshake (Connection: Upgrade, Upgrade: websocket), which Node hands to the
 * server's upgrade listener rather than its request listener, sent to `path` on a raw TLS socket.
 */
async function handshake(server: TestServer, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const socket = await openTls(server.port, await fs.readFile(join(server.dataDir, 'tls-cert.pem'), 'utf8'));
  try {
    const lines = [
      `GET ${path} HTTP/1.1`,
      'Host: localhost',
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    const response = readResponse(socket);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    return await response;
  } finally {
    socket.destroy();
  }
}

/** Writes `text` on a fresh TLS connection and closes it `afterMs` after the bytes have gone out. */
async function sendAndLeave(server: TestServer, text: string, afterMs: number): Promise<void> {
  const socket = await openTls(server.port, await fs.readFile(join(server.dataDir, 'tls-cert.pem'), 'utf8'));
  const gone = closed(socket);
  socket.write(text, () => (afterMs > 0 ? setTimeout(() => socket.destroy(), afterMs) : socket.destroy()));
  await gone;
}

const seconds = (from: string, to: string) => Math.ceil((Date.parse(to) - Date.parse(from)) / 1000);

for (const store of testStores()) {
  for (const counters of counterKinds()) {
    describe(`monthly quota (${store}, ${counters} counters)`, () => {
      const time = manualClock('2027-03-15T12:00:00.000Z');
      const redis = countersEnv(counters);
      let server: TestServer;
      before(async () => {
        server = await startServer(store, { env: redis.env, clock: time.clock });
      });
      after(async () => {
        await server.close();
        await redis.cleanup();
      });

      it('counts only 2xx answers; GET /v1/usage shows the cycle, used (this request included), quota and each key', async () => {
        time.set('2027-03-15T12:00:00.000Z');
        const owner = await server.account({ plan: 'basic' });
        const c = server.client;
        const key = owner.key;
        const editor = await addUser(server, key, 'editor'); // 201: 1
        const editorKey = (await addKey(server, key, { user_id: editor.id, name: 'editor key' })).key; // 201: 2
        const item = await server.content(key); // 201: 3
        const statuses = [
          (await c.get('/v1/content', { key })).status, // 200: 4
          (await c.get(`/v1/content/${UNKNOWN_ID}`, { key })).status,
          (await c.post('/v1/content', { key, json: { title: '' } })).status,
          (await c.get('/v1/content?limit=0', { key })).status,
          (await c.post('/v1/content', { key, raw: 'x', headers: { 'content-type': 'text/plain' } })).status,
          (await c.get('/v1/nowhere', { key })).status,
          (await c.delete('/v1/content', { key })).status,
          (await c.delete(`/v1/content/${String(item.id)}`, { key })).status, // 204: 5
          (await c.get('/v1/content', { key: editorKey })).status, // 200: 6
          (await c.post('/v1/users', { key: editorKey, json: { email: 'x@example.com', name: 'X', role: 'viewer' } })).status,
        ];
        assert.deepEqual(statuses, [200, 404, 422, 400, 415, 404, 405, 204, 200, 403]);

        const mine = await c.get('/v1/usage', { key: editorKey }); // 200: 7
        assert.equal(mine.status, 200, mine.text);
        assert.equal(mine.body.data.used, 7);
        assert.deepEqual(mine.body.data.keys.map((k: { name: string }) => k.name), ['editor key'], 'an editor sees only their own keys');

        const res = await c.get('/v1/usage', { key }); // 200: 8
        assert.equal(res.status, 200, res.text);
        const h = rateHeaders(res);
        assert.deepEqual(res.body.data, {
          plan: 'basic',
          period_start: '2027-03-15T00:00:00.000Z',
          period_end: '2027-04-15T00:00:00.000Z',
          used: 8,
          quota: 20_000,
          remaining: 19_992,
          rate_limit: { limit: 1000, remaining: h.remaining, reset: h.reset },
          keys: [
            { key_id: res.body.data.keys[0].key_id, name: 'Default key', used: 5 },
            { key_id: res.body.data.keys[1].key_id, name: 'editor key', used: 2 },
          ],
          apps: [],
          days: [{ date: '2027-03-15', used: 7 }],
          deprecated_calls: [],
          // The basic plan's media storage (CONTRACT.md §18), nothing uploaded.
          storage: { used_bytes: 0, quota_bytes: 1024 ** 3 },
        });
        assert.equal(h.remaining, 1000 - 15, 'the hourly limit counted all 15 authenticated requests');
      });

      it('answers 429 quota_exceeded once the quota is used, until the renewal; 4xx answers never use it', async () => {
        time.set('2027-03-15T12:00:00.000Z');
        const { key, accountId } = await server.account({ plan: 'free', quota: 3 });
        const c = server.client;
        assert.equal((await c.get('/v1/content', { key })).status, 200);
        for (let i = 0; i < 5; i++) assert.equal((await c.get(`/v1/content/${UNKNOWN_ID}`, { key })).status, 404);
        assert.equal((await c.get('/v1/content', { key })).status, 200);
        assert.equal((await c.post('/v1/content', { key, json: { title: 'Last', type: 'blog', content: 'x' } })).status, 201);
        const expected = seconds('2027-03-15T12:00:00.000Z', '2027-04-15T00:00:00.000Z');
        assertQuotaExceeded(await c.get('/v1/content', { key }), expected);
        assertQuotaExceeded(await c.get('/v1/usage', { key }), expected);
        const post = await c.post('/v1/content', { key, json: { title: 'Refused', type: 'blog', content: 'x' } });
        assertQuotaExceeded(post, expected);
        const stored = await server.app.store.db.selectFrom('content').select('title').where('account_id', '=', accountId).execute();
        assert.deepEqual(stored.map((r) => r.title), ['Last'], 'a refused request has no other effect');
        // The route is still checked first, and the hourly window still counts everything.
        const unknown = await c.get('/v1/nowhere', { key });
        assert.equal(unknown.status, 404);
        assert.equal(rateHeaders(unknown).remaining, 100 - 12);
      });

      it('says rate_limited before quota_exceeded', async () => {
        time.set('2027-03-15T12:00:00.000Z');
        const { key } = await server.account({ plan: 'enterprise', rateLimit: 4, quota: 2 });
        const codes = [];
        for (let i = 0; i < 6; i++) codes.push((await server.client.get('/v1/content', { key })).body.code ?? 'ok');
        assert.deepEqual(codes, ['ok', 'ok', 'quota_exceeded', 'quota_exceeded', 'rate_limited', 'rate_limited']);
      });

      it('renews on the billing day at 00:00 UTC, clamped to the month: 31 Jan → 28 Feb → 31 Mar, and 29 Feb in a leap year', async () => {
        time.set('2027-01-31T10:00:00.000Z');
        const { key } = await server.account({ plan: 'basic', quota: 2 });
        const usage = async () => {
          const res = await server.client.get('/v1/usage', { key });
          assert.equal(res.status, 200, res.text);
          return res.body.data;
        };
        assert.deepEqual(
          (({ period_start, period_end, used }) => ({ period_start, period_end, used }))(await usage()),
          { period_start: '2027-01-31T00:00:00.000Z', period_end: '2027-02-28T00:00:00.000Z', used: 1 },
        );
        assert.equal((await server.client.get('/v1/content', { key })).status, 200);
        assertQuotaExceeded(await server.client.get('/v1/content', { key }), seconds('2027-01-31T10:00:00.000Z', '2027-02-28T00:00:00.000Z'));

        time.set('2027-02-27T23:59:59.000Z');
        assertQuotaExceeded(await server.client.get('/v1/content', { key }), 1);
        time.set('2027-02-28T00:00:00.000Z');
        const renewed = await usage();
        assert.deepEqual([renewed.period_start, renewed.period_end, renewed.used, renewed.remaining], ['2027-02-28T00:00:00.000Z', '2027-03-31T00:00:00.000Z', 1, 1]);
        assert.deepEqual(renewed.keys, [], 'the new cycle has no answered requests yet');

        time.set('2027-04-30T05:00:00.000Z');
        assert.deepEqual([(await usage()).period_start, (await usage()).period_end], ['2027-04-30T00:00:00.000Z', '2027-05-31T00:00:00.000Z']);
        time.set('2028-02-10T00:00:00.000Z');
        const leap = await usage();
        assert.deepEqual([leap.period_start, leap.period_end], ['2028-01-31T00:00:00.000Z', '2028-02-29T00:00:00.000Z']);
        time.set('2028-02-29T00:00:00.000Z');
        const after = await usage();
        assert.deepEqual([after.period_start, after.period_end, after.used], ['2028-02-29T00:00:00.000Z', '2028-03-31T00:00:00.000Z', 1]);
      });

      it('counts a WebSocket upgrade toward the hourly limit but not the quota, and refuses it once the quota is spent', async () => {
        time.set('2027-03-15T12:00:00.000Z');
        const { key } = await server.account({ plan: 'free', quota: 2 });
        // The key comes as ?token= (browsers cannot set headers on a WebSocket) or as the header.
        for (const via of ['query', 'header', 'query'] as const) await (await WsClient.open(server, key, { via })).close();
        const usage = await server.client.get('/v1/usage', { key });
        assert.equal(usage.body.data.used, 1, 'only this request uses the quota');
        assert.equal(rateHeaders(usage).remaining, 100 - 4);
        assert.equal((await server.client.get('/v1/content', { key })).status, 200);
        const refused = await refusedUpgrade(server, key);
        assertQuotaExceeded({ ...refused, text: JSON.stringify(refused.body) });
        // Without an upgrade, ?token= is not a way to present a key.
        assert.equal(rateHeaders(await server.client.get(`/v1/content?token=${key}`)).policy, '"ip";q=60;w=60');
      });

      it('counts a request that carries Upgrade: websocket without Connection: upgrade like any other, and takes no ?token= from it', async () => {
        time.set('2027-03-15T12:00:00.000Z');
        const { key } = await server.account({ plan: 'free', quota: 3 });
        // Node answers such a request as an ordinary one: it is no handshake, whatever its headers say.
        const headers = { upgrade: 'websocket' };
        assert.equal((await server.client.get('/v1/content', { key, headers })).status, 200);
        const usage = await server.client.get('/v1/usage', { key, headers });
        assert.equal(usage.status, 200, usage.text);
        assert.equal(usage.body.data.used, 2);
        assert.equal((await server.client.get('/v1/content', { key, headers })).status, 200);
        assertQuotaExceeded(await server.client.get('/v1/content', { key, headers }));
        assertQuotaExceeded(await server.client.get('/v1/ws', { key, headers }));
        // ?token= is a credential only on a WebSocket handshake.
        const byQuery = await server.client.get(`/v1/content?token=${key}`, { headers });
        assert.equal(byQuery.status, 401, byQuery.text);
        assert.equal(rateHeaders(byQuery).policy, '"ip";q=60;w=60');
      });

      it('counts a real handshake aimed at a REST route toward the quota, and takes no ?token= there', async () => {
        time.set('2027-03-15T12:00:00.000Z');
        const { key } = await server.account({ plan: 'free', quota: 2 });
        const byHeader = await handshake(server, '/v1/content', { authorization: `Bearer ${key}` });
        assert.equal(byHeader.status, 200, byHeader.body);
        const byQuery = await handshake(server, `/v1/content?token=${key}`);
        assert.equal(byQuery.status, 401, byQuery.body);
        assert.equal(byQuery.headers['ratelimit-policy'], '"ip";q=60;w=60');
        const usage = await server.client.get('/v1/usage', { key });
        assert.equal(usage.body.data.used, 2, 'the handshake to /v1/content used the quota like a GET');
        assertQuotaExceeded(await server.client.get('/v1/content', { key }));
      });

      it('never lets concurrent requests past the quota: each holds a unit until it is answered', async () => {
        time.set('2027-03-15T12:00:00.000Z');
        const { key } = await server.account({ plan: 'pro', quota: 25 });
        const answers = await Promise.all(Array.from({ length: 40 }, () => server.client.get('/v1/content', { key })));
        assert.equal(answers.filter((r) => r.status === 200).length, 25);
        for (const res of answers.filter((r) => r.status !== 200)) assertQuotaExceeded(res);
      });

      it('gives the unit back, once, when the client goes away while its request is admitted or before the answer', async () => {
        time.set('2027-03-15T12:00:00.000Z');
        const { key } = await server.account({ plan: 'pro', quota: 4 });
        assert.equal((await server.client.get('/v1/content', { key })).status, 200);
        // Each of these clients sends the head of a POST and goes away at once, or a moment later:
        // the body never comes, so none of them can be answered 2xx. Quota is reserved when the
        // head has arrived, after the key and the counters have been looked up.
        const head = `POST /v1/content HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title":`;
        await Promise.all(Array.from({ length: 24 }, (_, i) => sendAndLeave(server, head, i % 3 === 2 ? 100 : 0)));
        // The server sees each disconnection a moment later; every unit must come back, once.
        await sleep(300);
        const usage = await server.client.get('/v1/usage', { key });
        assert.equal(usage.status, 200, usage.text);
        assert.equal(usage.body.data.used, 2, 'the first GET and this request');
        assert.deepEqual(usage.body.data.keys.map((k: { used: number }) => k.used), [1], 'nothing else was spent');
        assert.equal((await server.client.get('/v1/content', { key })).status, 200);
        assert.equal((await server.client.get('/v1/content', { key })).status, 200);
        assertQuotaExceeded(await server.client.get('/v1/content', { key }));
      });

      it('charges a write whose client left before its 201, and requests queued behind it, and shuts down without waiting for them', async () => {
        time.set('2027-03-15T12:00:00.000Z');
        // A webhook's host is resolved while its registration runs: a resolver that waits for the
        // test holds the write in its handler, its body read, for as long as the test wants.
        let resolving!: () => void;
        const asked = new Promise<void>((resolve) => (resolving = resolve));
        let answer!: (addresses: { address: string; family: number }[]) => void;
        const answered = new Promise<{ address: string; family: number }[]>((resolve) => (answer = resolve));
        const resolver = async () => {
          resolving();
          return answered;
        };
        // Its own server, with a long grace period: requests whose connection is gone must not hold
        // the shutdown (a pipelined request's response never closes: its connection's close counts).
        const own = await startServer(store, { env: { ...redis.env, SHUTDOWN_GRACE_SECONDS: '20' }, clock: time.clock, resolver });
        let stopped = false;
        try {
          const { key } = await own.account({ plan: 'pro', quota: 4 });
          const body = JSON.stringify({ url: 'https://slow.example/hook', events: ['*'] });
          const post = `POST /v1/webhooks HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
          const get = `GET /v1/content HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n\r\n`;
          const socket = await openTls(own.port, await fs.readFile(join(own.dataDir, 'tls-cert.pem'), 'utf8'));
          const gone = closed(socket);
          socket.write(post + get + get);
          await asked;
          // The write is in its handler and the GETs wait for the connection behind it: leave.
          socket.destroy();
          await gone;
          answer([{ address: '93.184.215.14', family: 4 }]);
          // Looked up in the store: a request would count too.
          await eventually(() => own.app.store.run((db) => db.selectFrom('webhook_endpoints').select('id').executeTakeFirst()), 'the endpoint to be created');
          await sleep(200);
          const usage = await own.client.get('/v1/usage', { key });
          assert.equal(usage.status, 200, usage.text);
          assert.equal(usage.body.data.used, 4, 'the POST, both GETs and this request');
          assertQuotaExceeded(await own.client.get('/v1/content', { key }));
          const started = Date.now();
          await own.close();
          stopped = true;
          assert.ok(Date.now() - started < 10_000, `shutdown took ${Date.now() - started} ms`);
        } finally {
          if (!stopped) await own.close();
        }
      });

      it('gives the unit back when a request that held it ends in an error', async () => {
        time.set('2027-03-15T12:00:00.000Z');
        const { key } = await server.account({ plan: 'pro', quota: 2 });
        for (let i = 0; i < 4; i++) assert.equal((await server.client.get(`/v1/content/${UNKNOWN_ID}`, { key })).status, 404);
        // At once, requests that will fail still hold units while they run: some of these may be
        // refused, but every unit comes back.
        const answers = await Promise.all(Array.from({ length: 6 }, () => server.client.get(`/v1/content/${UNKNOWN_ID}`, { key })));
        for (const res of answers.filter((r) => r.status !== 404)) assertQuotaExceeded(res);
        assert.ok(answers.filter((r) => r.status === 404).length >= 2);
        assert.equal((await server.client.get('/v1/content', { key })).status, 200);
        assert.equal((await server.client.get('/v1/content', { key })).status, 200);
        assertQuotaExceeded(await server.client.get('/v1/content', { key }));
      });
    });
  }
}

for (const store of testStores()) {
  describe(`quota usage across a crash (${store})`, () => {
    after(() => killChildren());

    it('is written within 5 s; a SIGKILL loses at most the last 5 s, a SIGTERM nothing', async () => {
      const { env, cleanup } = await storeEnv(store);
      try {
        let server = await startServerProcess(env);
        const key = (await server.waitForStdout(/API key:\s+(cms_live_\w+)/))[1]!;
        for (let i = 0; i < 10; i++) assert.equal((await server.client.get('/v1/content', { key })).status, 200);
        const answered = Date.now();
        const db = openStore(store === 'postgres' ? { kind: 'postgres', url: env.DATABASE_URL! } : { kind: 'sqlite', file: `${env.DATA_DIR}/cms.sqlite` });
        try {
          for (;;) {
            const row = await db.db.selectFrom('usage_counts').select((eb) => eb.fn.sum<string | number>('used').as('n')).executeTakeFirst();
            if (Number(row?.n ?? 0) === 10) break;
            // Written every 5 s; the rest is slack for timers on a busy machine.
            assert.ok(Date.now() - answered < 7000, `usage not written ${Date.now() - answered} ms after the answers`);
            await sleep(100);
          }
        } finally {
          await db.close();
        }

        for (let i = 0; i < 5; i++) assert.equal((await server.client.get('/v1/content', { key })).status, 200);
        server.kill();
        await server.exited;
        server = await startServerProcess(env);
        const afterCrash = (await server.client.get('/v1/usage', { key })).body.data.used;
        assert.ok(afterCrash >= 11 && afterCrash <= 16, `used after the crash: ${afterCrash}`);

        for (let i = 0; i < 3; i++) assert.equal((await server.client.get('/v1/content', { key })).status, 200);
        assert.equal((await server.stop()).code, 0);
        server = await startServerProcess(env);
        assert.equal((await server.client.get('/v1/usage', { key })).body.data.used, afterCrash + 3 + 1);
        await server.stop();
      } finally {
        killChildren();
        await cleanup();
      }
    });
  });
}
