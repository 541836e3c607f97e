// Webhook behaviour that depends on time (CONTRACT.md §10): the 10 s timeout, one slow endpoint
// never delaying another, an endpoint disabled after 3 days of failures, and the previous secret
// signing for 24 hours after a rotation. Days pass on an injected clock, not by sleeping.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { Receiver, type Responder } from './helpers/receiver.js';
import { oneProcess, startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { addEndpoint, deliveriesOf, waitForDeliveries, type DeliveryRecord } from './helpers/webhooks.js';

const DAY = 24 * 3600 * 1000;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// The stores' suites run side by side: most of their time is spent waiting.
describe('webhook timing', { concurrency: true }, () => {
  for (const store of testStores()) {
    describe(`webhook timeouts and slow endpoints (${store})`, { concurrency: true }, () => {
      let server: TestServer;
      const receivers: Receiver[] = [];
      before(async () => {
        server = await startServer(store, { env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1,1' } });
      });
      after(async () => {
        for (const receiver of receivers) await receiver.close();
        await server.close();
      });
      async function receiver(respond?: Responder): Promise<Receiver> {
        const started = await Receiver.start(respond);
        receivers.push(started);
        return started;
      }

      it('gives up on an attempt after 10 s without a response, and retries it', async () => {
        const hook = await receiver((_r, i) => (i === 0 ? { hold: true } : { status: 200 }));
        const account = await server.account();
        const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
        await server.content(account.key);
        await hook.waitFor((r) => r.length === 1);
        const records = await waitForDeliveries(server.client, account.key, endpoint.id, (r) => r.some((d) => d.status === 'failed'), 15_000);
        const timedOut = records.find((d) => d.status === 'failed')!;
        assert.equal(timedOut.attempt, 1);
        assert.equal(timedOut.response_status, null);
        assert.equal(timedOut.error, 'No response within 10 s.');
        assert.ok(timedOut.duration_ms! >= 10_000 && timedOut.duration_ms! < 11_000, `${timedOut.duration_ms} ms`);
        assert.match(timedOut.next_attempt_at!, ISO_MS);
        const [retried] = await waitForDeliveries(server.client, account.key, endpoint.id, (r) => r[0]?.status === 'succeeded');
        assert.equal(retried!.attempt, 2);
        assert.equal(hook.received[1]!.headers['webhook-id'], hook.received[0]!.headers['webhook-id']);
      });

      it('never lets a slow endpoint delay another; each has at most 8 attempts in flight', async (t) => {
        const slow = await receiver(() => ({ hold: true }));
        const fast = await receiver();
        const account = await server.account();
        const slowEndpoint = await addEndpoint(server, account.key, { url: slow.url() });
        const fastEndpoint = await addEndpoint(server, account.key, { url: fast.url() });
        const started = Date.now();
        for (let i = 0; i < 20; i++) await server.content(account.key, { title: `Item ${i}` });
        // Held requests end only at the 10 s timeout: waiting behind them would take at least that.
        await fast.waitFor((r) => r.length === 20, 8000);
        const fastTook = Date.now() - started;
        assert.ok(fastTook < 8000, `the fast endpoint had all 20 after ${fastTook} ms`);
        // The cap is each process's (each worker's outbox loop): two instances hold up to 8 each.
        const one = oneProcess(t, 'at most 8 attempts in flight per endpoint is per process; two instances may hold 16');
        await slow.waitFor((r) => r.length >= 8);
        await new Promise((resolve) => setTimeout(resolve, 300));
        if (one) assert.equal(slow.received.length, 8, 'at most 8 attempts in flight to one endpoint');
        else assert.ok(slow.received.length <= 16, `at most 8 attempts in flight per instance: ${slow.received.length}`);
        const fastRecords = await waitForDeliveries(server.client, account.key, fastEndpoint.id, (r) => r.length === 20 && r.every((d) => d.status === 'succeeded'));
        assert.equal(fastRecords.length, 20);

        // Once the slow endpoint answers, the rest follow.
        slow.respond = () => ({ status: 200 });
        slow.release(200);
        await slow.waitFor((r) => new Set(r.map((x) => x.headers['webhook-id'])).size === 20, 10_000);
        await waitForDeliveries(server.client, account.key, slowEndpoint.id, (r) => r.length === 20 && r.every((d) => d.status === 'succeeded'));
      });
    });

    // One after the other: both move the same clock.
    describe(`webhook failure streaks and secret rotation over days (${store})`, { concurrency: false }, () => {
      let offset = 0;
      const clock = () => new Date(Date.now() + offset);
      let server: TestServer;
      const receivers: Receiver[] = [];
      before(async () => {
        server = await startServer(store, { clock, env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1,1,1' } });
      });
      afterEach(async () => {
        for (const receiver of receivers.splice(0)) await receiver.close();
      });
      after(() => server.close());
      async function receiver(respond?: Responder): Promise<Receiver> {
        const started = await Receiver.start(respond);
        receivers.push(started);
        return started;
      }
      const endpointState = async (key: string, id: string) => (await server.client.get(`/v1/webhooks/${id}`, { key })).body.data;

      it('signs with the previous secret for 24 hours after a rotation, then only with the new one', async () => {
        const hook = await receiver();
        const account = await server.account();
        const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
        const rotated = (await server.client.post(`/v1/webhooks/${endpoint.id}/rotate-secret`, { key: account.key })).body.data.secret as string;
        await server.content(account.key);
        const [during] = await hook.waitFor((r) => r.length === 1);
        assert.equal(during!.headers['webhook-signature']!.split(' ').length, 2);
        assert.ok(new Webhook(rotated).verify(during!.body, during!.headers));
        assert.ok(new Webhook(endpoint.secret).verify(during!.body, during!.headers));

        offset += DAY + 60_000;
        await server.content(account.key);
        const [, afterwards] = await hook.waitFor((r) => r.length === 2);
        // Signed at the moved clock's time, which the package's own verify() would call "too new";
        // so compare with the package's sign() for that timestamp.
        const h = afterwards!.headers;
        const at = new Date(Number(h['webhook-timestamp']) * 1000);
        assert.ok(Math.abs(at.getTime() - clock().getTime()) < 5000);
        assert.equal(h['webhook-signature'], new Webhook(rotated).sign(h['webhook-id']!, at, afterwards!.body));
        assert.notEqual(h['webhook-signature'], new Webhook(endpoint.secret).sign(h['webhook-id']!, at, afterwards!.body));
      });

      it('disables an endpoint whose attempts have all failed for 3 days, and says so', async () => {
        const hook = await receiver(() => ({ status: 500 }));
        const account = await server.account();
        const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
        const pending = (attempt: number) => (r: DeliveryRecord[]) => r[0]?.status === 'pending' && r[0].attempt === attempt;
        await server.content(account.key);
        await waitForDeliveries(server.client, account.key, endpoint.id, pending(2));
        const failingSince = (await endpointState(account.key, endpoint.id)).failing_since as string;
        assert.match(failingSince, ISO_MS);

        // Two days of failures: still enabled, still counting from the first failure.
        offset += 2 * DAY;
        await waitForDeliveries(server.client, account.key, endpoint.id, pending(3));
        let state = await endpointState(account.key, endpoint.id);
        assert.equal(state.enabled, true);
        assert.equal(state.failing_since, failingSince);

        // The first failure after three days disables it.
        offset += DAY;
        const [last] = await waitForDeliveries(server.client, account.key, endpoint.id, (r) => r[0]?.attempt === 3 && r[0].status === 'failed');
        assert.equal(last!.next_attempt_at, null);
        assert.match(last!.error!, /3 days.*disabled/);
        state = await endpointState(account.key, endpoint.id);
        assert.equal(state.enabled, false);
        assert.equal(state.disabled_reason, 'failing');
        assert.equal(state.failing_since, failingSince);
        assert.ok(Date.parse(state.disabled_at) - Date.parse(failingSince) >= 3 * DAY);

        // Disabled: a new change queues nothing. Enabled again: a fresh start.
        await server.content(account.key);
        assert.equal((await deliveriesOf(server.client, account.key, endpoint.id)).length, 3);
        state = (await server.client.put(`/v1/webhooks/${endpoint.id}`, { key: account.key, json: { enabled: true } })).body.data;
        assert.equal(state.enabled, true);
        assert.equal(state.disabled_reason, null);
        assert.equal(state.failing_since, null);
        assert.equal(hook.received.length, 3);
      });
    });
  }
});
