// Events across instances (CONTRACT.md §9): two servers on one store each deliver every event to
// their own sockets, whichever instance wrote it — through PostgreSQL LISTEN/NOTIFY, through Redis
// pub/sub when REDIS_URL is set, and on SQLite (one file, two processes' worth of apps) by polling.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addKey } from './helpers/people.js';
import { startSecondInstance, type SecondInstance } from './helpers/instance.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { WsClient } from './helpers/ws.js';

interface Setup {
  name: string;
  store: 'sqlite' | 'postgres';
  env: Record<string, string>;
  /** How soon an event written on the other instance must arrive. */
  withinMs: number;
  /** The safety poll; a minute where the signal alone must deliver in time. */
  pollMs?: number;
}

const setups: Setup[] = testStores().flatMap((store): Setup[] =>
  store === 'sqlite'
    ? [{ name: 'sqlite, in process + poll', store, env: {}, withinMs: 4000 }]
    : [
        { name: 'postgres, LISTEN/NOTIFY', store, env: {}, withinMs: 1000, pollMs: 60_000 },
        ...(process.env.TEST_REDIS_URL
          ? [{ name: 'postgres, Redis pub/sub', store, env: { REDIS_URL: process.env.TEST_REDIS_URL }, withinMs: 1000, pollMs: 60_000 }]
          : []),
      ],
);

for (const setup of setups) {
  describe(`events across instances (${setup.name})`, () => {
    let a: TestServer;
    let b: SecondInstance;
    let owner: TestAccount;
    before(async () => {
      a = await startServer(setup.store, { env: setup.env, eventPollMs: setup.pollMs });
      b = await startSecondInstance(a, { env: setup.env, eventPollMs: setup.pollMs });
      owner = await a.account();
    });
    after(async () => {
      await b.close();
      await a.close();
    });

    it('delivers every event to the sockets of both instances, in order, once', async () => {
      const onA = await WsClient.open(a, owner.key);
      const onB = await WsClient.open(b, owner.key);
      await onA.subscribe('content.*');
      await onB.subscribe('content.*');

      const started = Date.now();
      const written: unknown[] = [];
      for (let i = 0; i < 6; i++) {
        const via = i % 2 === 0 ? a.client : b.client;
        const res = await via.post('/v1/content', { key: owner.key, json: { title: `From ${i % 2 === 0 ? 'A' : 'B'} ${i}`, type: 'blog', content: 'x' } });
        assert.equal(res.status, 201);
        written.push(res.body.data.id);
      }
      const [fromA, fromB] = await Promise.all([onA.eventCount(6, setup.withinMs), onB.eventCount(6, setup.withinMs)]);
      assert.ok(Date.now() - started < setup.withinMs + 1000);
      assert.deepEqual(fromA.map((e) => e.data.id), written);
      assert.deepEqual(fromB.map((e) => e.id), fromA.map((e) => e.id), 'the same events, the same order');
      await Promise.all([onA.close(), onB.close()]);
    });

    it('closes a socket on one instance when its key is revoked on the other', async () => {
      const key = await addKey(a, owner.key, {});
      const onB = await WsClient.open(b, key.key);
      await onB.subscribe('*');
      assert.equal((await a.client.delete(`/v1/api-keys/${key.id}`, { key: owner.key })).status, 204);
      const started = Date.now();
      assert.equal((await onB.closed).code, 1008);
      assert.ok(Date.now() - started < 5000);
    });
  });
}

for (const store of testStores()) {
  describe(`resuming on an instance that has not caught up (${store})`, () => {
    // On SQLite signals stay in their process and the safety poll is set to an hour here, so the
    // second instance's stream stands behind the store until its own write wakes it. On PostgreSQL
    // (LISTEN/NOTIFY) it keeps up; the guarantee is the same either way.
    let a: TestServer;
    let b: SecondInstance;
    before(async () => {
      a = await startServer(store, { eventPollMs: 3_600_000 });
      b = await startSecondInstance(a, { eventPollMs: 3_600_000 });
    });
    after(async () => {
      await b.close();
      await a.close();
    });

    it('never repeats events up to `since`, even when the instance is behind it', async () => {
      const account = await a.account();
      // B follows the account (so its stream has a cursor), then A writes behind its back.
      const watcher = await WsClient.open(b, account.key);
      await watcher.subscribe('content.created');
      for (let i = 0; i < 3; i++) await a.content(account.key, { title: `Written on A ${i}` });
      const log = (await a.client.get('/v1/events', { key: account.key })).body.data as { id: string }[];
      const latest = log.at(-1)!.id;

      const resumed = await WsClient.open(b, account.key);
      await resumed.subscribe('content.created', latest);
      const next = await b.client.post('/v1/content', { key: account.key, json: { title: 'Written on B', type: 'blog', content: 'x' } });
      const event = await resumed.next((m) => m.id !== undefined, 5000);
      assert.equal(event.data.id, next.body.data.id, 'the first event sent is the one after since');
      resumed.send({ type: 'ping' });
      await resumed.next((m) => m.type === 'pong');
      assert.equal(resumed.events().length, 1);
      await Promise.all([watcher.close(), resumed.close()]);
    });
  });
}
