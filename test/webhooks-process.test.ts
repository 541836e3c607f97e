// Webhooks across process deaths and restarts, with the real server as a child process: an attempt
// in flight when the process is killed (kill -9) is made again after a restart once its lease
// lapses; a retry scheduled before a kill still happens; and the URL rules are checked again at
// delivery, so an endpoint registered while private targets were allowed gets nothing once they are not.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { killChildren, killHard, withServerProcesses, type Processes } from './helpers/process.js';
import { Receiver, type Responder } from './helpers/receiver.js';
import { testStores } from './helpers/stores.js';
import { deliveriesOf, waitForDeliveries } from './helpers/webhooks.js';

interface Scenario extends Processes {
  receiver: Receiver;
}

const WEBHOOKS = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1,1', WEBHOOK_LEASE_SECONDS: '2' };

// The stores' suites run side by side: most of their time is spent waiting.
describe('webhook processes', { concurrency: true }, () => {
  // Every scenario stops its own processes; this catches any left behind, once both stores are done
  // (killChildren kills every child of this file, so never while the other store's tests run).
  after(() => killChildren());
  for (const store of testStores()) {
    // One scenario at a time per store (each starts real processes; two at once is enough for 2 cores).
    describe(`webhooks across crashes and restarts (${store})`, { concurrency: false }, () => {
      /** A receiver, a fresh store, and a way to start servers on it; all undone when `work` ends. */
      async function scenario(respond: Responder, work: (s: Scenario) => Promise<void>): Promise<void> {
        const receiver = await Receiver.start(respond);
        try {
          await withServerProcesses(store, (processes) => work({ ...processes, receiver }));
        } finally {
          await receiver.close();
        }
      }

      it('makes an attempt again after a kill -9 during it, once its lease lapses, with the same webhook-id', () =>
        scenario((_r, i) => (i === 0 ? { hold: true } : { status: 200 }), async ({ receiver, env, start }) => {
          // A lease clearly longer than a restart takes, so that "after it lapses" is visible.
          const withLease = { ...env, ...WEBHOOKS, WEBHOOK_LEASE_SECONDS: '4' };
          const first = await start(withLease, true);
          const key = first.key;
          const created = await first.server.client.post('/v1/webhooks', { key, json: { url: receiver.url(), events: ['content.created'] } });
          assert.equal(created.status, 201, created.text);
          const endpoint = created.body.data;
          const item = await first.server.client.post('/v1/content', { key, json: { title: 'Survives', type: 'blog', content: 'x' } });
          assert.equal(item.status, 201);

          // The attempt is on the wire and held open by the receiver: now the process dies.
          const [inFlight] = await receiver.waitFor((r) => r.length === 1);
          const [record] = await deliveriesOf(first.server.client, key, endpoint.id);
          assert.equal(record!.status, 'pending');
          await killHard(first.server);

          const second = await start(withLease);
          const [, again] = await receiver.waitFor((r) => r.length === 2, 15_000);
          assert.ok(again!.at - inFlight!.at >= 3900, `made again ${again!.at - inFlight!.at} ms later; the lease is 4 s`);
          assert.equal(again!.headers['webhook-id'], inFlight!.headers['webhook-id']);
          assert.equal(again!.body, inFlight!.body);
          const payload = new Webhook(endpoint.secret).verify(again!.body, again!.headers) as { data: { id: string } };
          assert.equal(payload.data.id, item.body.data.id);

          const [done] = await waitForDeliveries(second.server.client, key, endpoint.id, (r) => r[0]?.status === 'succeeded');
          assert.equal(done!.id, record!.id, 'the same attempt, recorded once');
          assert.equal(done!.attempt, 1);
          assert.equal((await deliveriesOf(second.server.client, key, endpoint.id)).length, 1);
          await sleep(500);
          assert.equal(receiver.received.length, 2);
        }));

      it('keeps a retry scheduled before a kill -9 and makes it after the restart', () =>
        scenario((_r, i) => ({ status: i === 0 ? 500 : 200 }), async ({ receiver, env, start }) => {
          const first = await start({ ...env, ...WEBHOOKS }, true);
          const key = first.key;
          const endpoint = (await first.server.client.post('/v1/webhooks', { key, json: { url: receiver.url(), events: ['*'] } })).body.data;
          await first.server.client.post('/v1/content', { key, json: { title: 'Retried', type: 'blog', content: 'x' } });
          await waitForDeliveries(first.server.client, key, endpoint.id, (r) => r[0]?.status === 'pending' && r[0].attempt === 2);
          await killHard(first.server);

          const second = await start({ ...env, ...WEBHOOKS });
          const [failed, retried] = await receiver.waitFor((r) => r.length === 2, 15_000);
          assert.equal(retried!.headers['webhook-id'], failed!.headers['webhook-id']);
          const records = await waitForDeliveries(second.server.client, key, endpoint.id, (r) => r[0]?.status === 'succeeded');
          assert.deepEqual(records.map((d) => [d.attempt, d.status]), [[2, 'succeeded'], [1, 'failed']]);
        }));

      it('checks the target again at delivery: private targets allowed at registration get nothing once they are not', () =>
        scenario(() => ({ status: 200 }), async ({ receiver, env, start }) => {
          const first = await start({ ...env, ...WEBHOOKS }, true);
          const key = first.key;
          const port = new URL(receiver.url()).port;
          const byAddress = (await first.server.client.post('/v1/webhooks', { key, json: { url: `https://127.0.0.1:${port}/hook`, events: ['*'] } })).body.data;
          const byName = (await first.server.client.post('/v1/webhooks', { key, json: { url: `https://localhost:${port}/hook`, events: ['*'] } })).body.data;
          assert.ok(byAddress?.id && byName?.id);
          await first.server.stop();

          const second = await start({ ...env, WEBHOOK_ALLOW_PRIVATE: 'false', WEBHOOK_RETRY_SCHEDULE: '1,1,1' });
          assert.equal((await second.server.client.post('/v1/content', { key, json: { title: 'Nope', type: 'blog', content: 'x' } })).status, 201);
          const [address] = await waitForDeliveries(second.server.client, key, byAddress.id, (r) => r.some((d) => d.status === 'failed'));
          const [name] = await waitForDeliveries(second.server.client, key, byName.id, (r) => r.some((d) => d.status === 'failed'));
          const failedAddress = (await deliveriesOf(second.server.client, key, byAddress.id)).find((d) => d.status === 'failed')!;
          const failedName = (await deliveriesOf(second.server.client, key, byName.id)).find((d) => d.status === 'failed')!;
          assert.ok(address && name);
          assert.equal(failedAddress.error, 'url points to 127.0.0.1, which is not a public address.');
          assert.equal(failedName.error, 'The host localhost resolves to 127.0.0.1, which is not a public address.');
          assert.equal(failedAddress.response_status, null);
          assert.equal(receiver.connections, 0, 'no connection was even opened');
        }));
    });
  }
});
