// The store going away and coming back: a connection cut mid-load (a TCP relay in front of
// PostgreSQL), a database refusing connections or missing, SQLite locked by another process. Every
// request meanwhile is answered 503 unavailable with Retry-After (never 500, never a dropped
// connection), the outage is logged once, nothing acknowledged is lost, and the service serves
// again within 2 s of the database's return, its LISTEN connection included.
import assert from 'node:assert/strict';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { translatePostgresError } from '../src/storage/dialect/postgres.js';
import { translateSqliteError } from '../src/storage/dialect/sqlite.js';
import { StoreUnavailable, UniqueViolation } from '../src/storage/errors.js';
import type { Response } from './helpers/client.js';
import { parseLogs } from './helpers/logs.js';
import { startSecondInstance } from './helpers/instance.js';
import { Relay } from './helpers/relay.js';
import { oneProcess, startServer, TEST_WORKERS, type TestServer } from './helpers/server.js';
import { WsClient } from './helpers/ws.js';

const DOWN = 'The store is unavailable';
const UP = 'The store answers again';

function assertUnavailable(res: Response): void {
  assert.equal(res.status, 503, res.text);
  assert.equal(res.body.code, 'unavailable');
  assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/);
  assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
  assert.doesNotMatch(res.text, /stack|\n\s+at |select|insert|postgres|sqlite|ECONN|terminated/i);
}

function logLines(server: TestServer, message: string) {
  return parseLogs(server.logs).filter((l) => String(l.msg).startsWith(message));
}

/** The store's state lines (warn, once per outage; info at recovery) alternate and end with the recovery. */
function assertLastStateUp(t: { diagnostic(message: string): void }, server: TestServer): void {
  if (!oneProcess(t, "each instance logs its own outage and recovery: two instances' state lines interleave")) return;
  const states = parseLogs(server.logs)
    .filter((l) => String(l.msg).startsWith(DOWN) || String(l.msg).startsWith(UP))
    .map((l) => (String(l.msg).startsWith(DOWN) ? 'down' : 'up'));
  assert.ok(states.length >= 2, `state lines: ${states.join(', ')}`);
  states.forEach((state, i) => assert.equal(state, i % 2 === 0 ? 'down' : 'up', `state lines: ${states.join(', ')}`));
}

function assertNoErrorLines(server: TestServer): void {
  const errors = parseLogs(server.logs).filter((l) => (l.level as number) >= 50);
  assert.deepEqual(errors, [], 'no error-level log line');
}

describe('driver errors that mean "cannot serve now"', () => {
  it('PostgreSQL: connection classes, too many connections, refusing or missing database, shutdown', () => {
    for (const code of ['08000', '08003', '08006', '08001', '08004', '53300', '53100', '28P01', '55000', '57P01', '57P02', '57P03', '3D000', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT']) {
      assert.ok(translatePostgresError(Object.assign(new Error('x'), { code })) instanceof StoreUnavailable, code);
    }
    for (const message of ['Connection terminated unexpectedly', 'timeout exceeded when trying to connect', 'Client has encountered a connection error and is not queryable']) {
      assert.ok(translatePostgresError(new Error(message)) instanceof StoreUnavailable, message);
    }
    assert.ok(translatePostgresError(Object.assign(new Error('dup'), { code: '23505' })) instanceof UniqueViolation);
    for (const code of ['42601', '22021', '40P01', '55P03', '23503']) {
      const error = Object.assign(new Error('x'), { code });
      assert.equal(translatePostgresError(error), error, code);
    }
  });

  it('SQLite: busy, locked, I/O errors, a full disk', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_IOERR_FSYNC', 'SQLITE_FULL', 'SQLITE_CANTOPEN']) {
      assert.ok(translateSqliteError(Object.assign(new Error('x'), { code })) instanceof StoreUnavailable, code);
    }
    for (const code of ['SQLITE_ERROR', 'SQLITE_CONSTRAINT_CHECK', 'SQLITE_BUSYNESS']) {
      const error = Object.assign(new Error('x'), { code });
      assert.equal(translateSqliteError(error), error, code);
    }
  });
});

describe('SQLite locked by another process (sqlite)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite');
  });
  after(() => server.close());

  it('answers writes 503 while the lock is held past busy_timeout, reads still 200, and writes again once it is released', async (t) => {
    const { key } = await server.account();
    const other = new SQLite(path.join(server.dataDir, 'cms.sqlite'));
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      const write = await server.client.post('/v1/content', { key, json: { title: 'Locked out', type: 'blog', content: 'x' } });
      assertUnavailable(write);
      assert.equal((await server.client.get('/v1/content', { key })).status, 200, 'WAL readers are not blocked');
      other.prepare('ROLLBACK').run();
    } finally {
      other.close();
    }
    const again = await server.client.post('/v1/content', { key, json: { title: 'Written', type: 'blog', content: 'x' } });
    assert.equal(again.status, 201, again.text);
    const titles = (await server.client.get('/v1/content', { key })).body.data.map((i: { title: string }) => i.title);
    assert.deepEqual(titles, ['Written']);
    // Logged when it started (the background usage flush may meet the lock too, between two
    // requests that succeed) and when it ended, never per request.
    assertLastStateUp(t, server);
    assertNoErrorLines(server);
  });
});

if (process.env.TEST_DATABASE_URL) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  async function admin(sql: string, params: unknown[] = []): Promise<void> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql, params);
    } finally {
      await client.end();
    }
  }
  const nameOf = (url: string) => new URL(url).pathname.slice(1);
  const terminate = (database: string) =>
    admin('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);

  describe('the connection to PostgreSQL cut mid-load and restored (postgres)', () => {
    const relay = new Relay(new URL(adminUrl));
    let server: TestServer;
    before(async () => {
      await relay.start();
      // A long poll: events must come by the LISTEN connection, which has to be re-established.
      server = await startServer('postgres', { databaseUrl: (created) => relay.urlFor(created), eventPollMs: 600_000 });
    });
    after(async () => {
      await server.close();
      await relay.cut();
    });

    it('answers 503 while cut, loses nothing acknowledged, and serves again within 2 s of the return', async (t) => {
      const { key } = await server.account();
      const acknowledged: string[] = [];
      const seen: Response[] = [];
      let running = true;
      let written = 0;
      // About 90 requests a second of reads and writes, from six clients.
      const clients = Array.from({ length: 6 }, async (_, c) => {
        while (running) {
          const res =
            c % 2 === 0
              ? await server.client.post('/v1/content', { key, json: { title: `Item ${c}-${written++}`, type: 'blog', content: 'x' } })
              : await server.client.get('/v1/content?limit=5', { key });
          seen.push(res);
          if (res.status === 201) acknowledged.push(res.body.data.id);
          await sleep(60);
        }
      });

      await sleep(800);
      // A client certainly checked out of the pool when its connection dies: a long statement in flight.
      const inFlight = server.app.store.run((db) => sql`select pg_sleep(5)`.execute(db));
      await sleep(100);
      await relay.cut();
      await assert.rejects(inFlight, StoreUnavailable);
      const cutAt = seen.length;
      await sleep(1500);
      const during = seen.slice(cutAt);
      assert.ok(during.length >= 20, `only ${during.length} requests during the cut`);
      await relay.mend();
      const mendedAt = Date.now();
      const mendedIndex = seen.length;
      let recoveredAt: number | undefined;
      while (recoveredAt === undefined && Date.now() - mendedAt < 10_000) {
        if (seen.slice(mendedIndex).some((r) => r.status === 200 || r.status === 201)) recoveredAt = Date.now();
        else await sleep(20);
      }
      await sleep(500);
      running = false;
      await Promise.all(clients);

      assert.ok(recoveredAt !== undefined, 'never recovered');
      t.diagnostic(
        `${seen.length} requests, ${seen.filter((r) => r.status === 503).length} answered 503 during the cut, ` +
          `${acknowledged.length} writes acknowledged; served again ${recoveredAt - mendedAt} ms after the database came back`,
      );
      assert.ok(recoveredAt - mendedAt < 2000, `recovered ${recoveredAt - mendedAt} ms after the database came back`);
      for (const res of seen) {
        if (res.status === 200 || res.status === 201) continue;
        assertUnavailable(res);
      }
      assert.ok(seen.some((r) => r.status === 503), 'the cut was seen');
      // Every acknowledged write is there.
      for (const id of acknowledged) assert.equal((await server.client.get(`/v1/content/${id}`, { key })).status, 200, id);
      // Logged once (twice at most, should an answer read just before the cut land after the first
      // failure), not once per refused request; by each instance when the server is made of several.
      assert.ok(logLines(server, DOWN).length <= 2 * TEST_WORKERS, `${logLines(server, DOWN).length} outage lines`);
      assertLastStateUp(t, server);
      assertNoErrorLines(server);

      // The LISTEN connection is back: a change made by another instance reaches a subscriber here
      // by its signal (this instance's safety poll is 10 minutes).
      const ws = await WsClient.open(server, key);
      assert.equal((await ws.subscribe('content.created')).type, 'subscribed');
      const direct = await startSecondInstance(server, { env: { DATABASE_URL: server.databaseUrl! } });
      try {
        const created = await direct.client.post('/v1/content', { key, json: { title: 'From elsewhere', type: 'blog', content: 'x' } });
        assert.equal(created.status, 201);
        const event = await ws.next((m) => m.type === 'content.created', 5000);
        assert.equal(event.data.id, created.body.data.id);
      } finally {
        await ws.close();
        await direct.close();
      }
    });
  });

  describe('PostgreSQL refusing connections, then missing (postgres)', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer('postgres');
    });
    after(async () => {
      await admin(`ALTER DATABASE ${nameOf(server.databaseUrl!)} ALLOW_CONNECTIONS true`).catch(() => {});
      await server.close();
    });

    async function untilServed(key: string): Promise<void> {
      const deadline = Date.now() + 5000;
      for (;;) {
        const res = await server.client.get('/v1/content', { key });
        if (res.status === 200) return;
        assertUnavailable(res);
        assert.ok(Date.now() < deadline, 'not served again within 5 s');
        await sleep(50);
      }
    }

    it('answers 503 with Retry-After (and /readyz 503) while the database refuses connections or is gone', async (t) => {
      const { key } = await server.account();
      const database = nameOf(server.databaseUrl!);
      // 55000: the database does not allow connections; its sessions are ended.
      await admin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
      await terminate(database);
      for (let i = 0; i < 20; i++) assertUnavailable(await server.client.get('/v1/content', { key }));
      assertUnavailable(await server.client.post('/v1/content', { key, json: { title: 'Refused', type: 'blog', content: 'x' } }));
      assertUnavailable(await server.client.get('/readyz'));
      await admin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
      await untilServed(key);

      // 3D000: the database does not exist (renamed away), then comes back.
      await admin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
      await terminate(database);
      await admin(`ALTER DATABASE ${database} RENAME TO ${database}_away`);
      try {
        for (let i = 0; i < 20; i++) assertUnavailable(await server.client.get('/v1/content', { key }));
      } finally {
        await admin(`ALTER DATABASE ${database}_away RENAME TO ${database}`);
        await admin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
      }
      await untilServed(key);
      assert.equal((await server.client.post('/v1/content', { key, json: { title: 'Back', type: 'blog', content: 'x' } })).status, 201);
      if (oneProcess(t, 'each instance logs the outage once: two instances log it twice')) assert.equal(logLines(server, DOWN).length, 2, 'each outage logged once');
      assertLastStateUp(t, server);
      assertNoErrorLines(server);
    });
  });
}

if (process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL) {
  describe('the Redis signal connection cut and restored (postgres, redis)', () => {
    const relay = new Relay(new URL(process.env.TEST_REDIS_URL!));
    let server: TestServer;
    before(async () => {
      await relay.start();
      // Events reach this instance by Redis pub/sub alone: its safety poll is 10 minutes.
      server = await startServer('postgres', { env: { REDIS_URL: relay.url, REDIS_KEY_PREFIX: `cms-outage-${Date.now()}:` }, eventPollMs: 600_000 });
    });
    after(async () => {
      await server.close();
      await relay.cut().catch(() => {});
    });

    it('resubscribes by itself: a change made elsewhere after the return reaches a subscriber here', async () => {
      const { key } = await server.account();
      const ws = await WsClient.open(server, key);
      assert.equal((await ws.subscribe('content.created')).type, 'subscribed');
      const direct = await startSecondInstance(server, { env: { DATABASE_URL: server.databaseUrl!, REDIS_URL: process.env.TEST_REDIS_URL!, REDIS_KEY_PREFIX: server.app.config.limits.redisKeyPrefix } });
      try {
        await relay.cut();
        // Served meanwhile (the limiter counts alone), and the loss logged once however long it lasts.
        assert.equal((await server.client.get('/v1/content', { key })).status, 200);
        await sleep(1500);
        await relay.mend();
        const deadline = Date.now() + 10_000;
        let delivered = false;
        // The subscription comes back with the connection; until then a signal may be lost (the poll would catch it).
        while (!delivered && Date.now() < deadline) {
          const created = await direct.client.post('/v1/content', { key, json: { title: 'After the cut', type: 'blog', content: 'x' } });
          assert.equal(created.status, 201);
          delivered = await ws.next((m) => m.type === 'content.created' && m.data.id === created.body.data.id, 1000).then(
            () => true,
            () => false,
          );
        }
        assert.ok(delivered, 'no event arrived by the Redis signal after the return');
        assert.ok(parseLogs(server.logs).filter((l) => l.msg === 'event signal failed').length <= 2 * TEST_WORKERS, 'the loss is logged once per connection (per instance)');
        assertNoErrorLines(server);
      } finally {
        await ws.close();
        await direct.close();
      }
    });
  });
}
