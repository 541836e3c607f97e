// Two instances sharing one store, as behind a load balancer: both run a delivery worker, and
// every attempt is taken by exactly one of them (CONTRACT.md §10, §12). Changes are made through
// both instances at once and each event fails once before it succeeds, so first attempts and
// retries are all contended; the receiver must see each (event, attempt) exactly once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSecondInstance, type SecondInstance } from './helpers/instance.js';
import { Receiver } from './helpers/receiver.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { addEndpoint, deliveriesOf, waitForDeliveries } from './helpers/webhooks.js';

const ENV = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1' };
const ITEMS = 40;

for (const store of testStores()) {
  describe(`webhooks with two instances on one store (${store})`, () => {
    let server: TestServer;
    let second: SecondInstance;
    let receiver: Receiver;
    before(async () => {
      server = await startServer(store, { env: ENV });
      second = await startSecondInstance(server, { env: ENV });
      // The first attempt of every event at every endpoint fails; the retry succeeds.
      const seen = new Set<string>();
      receiver = await Receiver.start((request) => {
        const key = `${request.path} ${request.headers['webhook-id']}`;
        if (seen.has(key)) return { status: 200 };
        seen.add(key);
        return { status: 500 };
      });
    });
    after(async () => {
      await second.close();
      await server.close();
      await receiver.close();
    });

    it('delivers each attempt of each event exactly once between them', async () => {
      const account = await server.account();
      const paths = ['/a', '/b', '/c'];
      const endpoints = [];
      for (const path of paths) endpoints.push(await addEndpoint(server, account.key, { url: receiver.url(path), events: ['content.created'] }));

      // Half the changes through each instance, a few at a time, spread over about two seconds.
      const clients = [server.client, second.client];
      for (let i = 0; i < ITEMS; i += 4) {
        await Promise.all(
          [0, 1, 2, 3].map((j) =>
            clients[(i + j) % 2]!.post('/v1/content', { key: account.key, json: { title: `Item ${i + j}`, type: 'blog', content: 'x' } }),
          ),
        );
        await sleep(50);
      }

      await receiver.waitFor((r) => r.length >= paths.length * ITEMS * 2, 20_000);
      await sleep(1500); // a duplicate would arrive by now
      const counts = new Map<string, number>();
      for (const r of receiver.received) {
        const key = `${r.path} ${r.headers['webhook-id']}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      assert.equal(counts.size, paths.length * ITEMS, 'every event reached every endpoint');
      const wrong = [...counts].filter(([, n]) => n !== 2);
      assert.deepEqual(wrong, [], 'each event arrived exactly twice: the failed first attempt and its retry');

      for (const endpoint of endpoints) {
        const records = await waitForDeliveries(server.client, account.key, endpoint.id, (r) => r.length === ITEMS * 2 && r.every((d) => d.status !== 'pending'));
        const byEvent = new Map<string, string[]>();
        for (const d of records) byEvent.set(d.event_id, [...(byEvent.get(d.event_id) ?? []), `${d.attempt}:${d.status}`]);
        assert.equal(byEvent.size, ITEMS);
        for (const attempts of byEvent.values()) assert.deepEqual(attempts.sort(), ['1:failed', '2:succeeded']);
        // Both instances show the same records.
        assert.deepEqual(await deliveriesOf(second.client, account.key, endpoint.id), await deliveriesOf(server.client, account.key, endpoint.id));
      }
    });
  });
}
