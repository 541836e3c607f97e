// Failed webhook deliveries as a receiver and a client see them (CONTRACT.md §10), against a real
// local receiver: the retry schedule, Retry-After, redirects, 410, manual retries, disabling, and
// what happens when the account drops below Pro.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Receiver, type Responder } from './helpers/receiver.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { addEndpoint, deliveriesOf, waitForDeliveries, type DeliveryRecord, verify } from './helpers/webhooks.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

for (const store of testStores()) {
  // Each test has its own account, endpoint and receiver, so they run side by side.
  describe(`webhook retries (${store})`, { concurrency: true }, () => {
    let server: TestServer;
    const receivers: Receiver[] = [];
    before(async () => {
      server = await startServer(store, { env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1,1' } });
    });
    after(async () => {
      await server.close();
      for (const receiver of receivers) await receiver.close();
    });

    async function receiver(respond?: Responder): Promise<Receiver> {
      const started = await Receiver.start(respond);
      receivers.push(started);
      return started;
    }
    const records = (key: string, endpointId: string) => deliveriesOf(server.client, key, endpointId);
    const waitRecords = (key: string, endpointId: string, predicate: (r: DeliveryRecord[]) => boolean, timeoutMs?: number) =>
      waitForDeliveries(server.client, key, endpointId, predicate, timeoutMs);

    it('retries a failed attempt on the schedule, with the same webhook-id, one record per attempt', async () => {
      const hook = await receiver((_r, i) => ({ status: i < 2 ? 500 : 204 }));
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
      await server.content(account.key);
      // After the first failure the endpoint says since when it has been failing.
      const firstFailed = (await waitRecords(account.key, endpoint.id, (r) => r.some((d) => d.status === 'failed'))).find((d) => d.status === 'failed');
      const failing = (await server.client.get(`/v1/webhooks/${endpoint.id}`, { key: account.key })).body.data;
      assert.match(failing.failing_since, ISO_MS);

      const requests = await hook.waitFor((r) => r.length === 3, 15_000);
      const ids = new Set(requests.map((r) => r.headers['webhook-id']));
      assert.equal(ids.size, 1, 'the same webhook-id on every attempt');
      for (const request of requests) verify(endpoint.secret, request);
      // WEBHOOK_RETRY_SCHEDULE=1,1,1: at least a second between attempts.
      assert.ok(requests[1]!.at - requests[0]!.at >= 950, `${requests[1]!.at - requests[0]!.at} ms`);
      assert.ok(requests[2]!.at - requests[1]!.at >= 950, `${requests[2]!.at - requests[1]!.at} ms`);

      const list = await waitRecords(account.key, endpoint.id, (r) => r[0]?.status === 'succeeded');
      assert.deepEqual(list.map((d) => [d.attempt, d.status, d.response_status]), [[3, 'succeeded', 204], [2, 'failed', 500], [1, 'failed', 500]]);
      assert.ok(list.every((d) => d.event_id === [...ids][0]));
      assert.equal(list[2]!.id, firstFailed!.id);
      assert.equal(list[1]!.error, 'The endpoint answered 500.');
      // A failed attempt names when the next one is due; that one was made no sooner.
      assert.ok(list[2]!.next_attempt_at! <= list[1]!.attempted_at!);
      // Due 1 s (plus up to 20 % jitter) after the failure was recorded, which is the end of the
      // attempt plus however long recording took on a busy machine.
      const failedAt = Date.parse(list[2]!.attempted_at!) + list[2]!.duration_ms!;
      const gap = Date.parse(list[2]!.next_attempt_at!) - failedAt;
      assert.ok(gap >= 995 && gap <= 1200 + 500, `next attempt due ${gap} ms after the failure (1 s + up to 20 % jitter)`);
      // A success ends the run of failures.
      assert.equal((await server.client.get(`/v1/webhooks/${endpoint.id}`, { key: account.key })).body.data.failing_since, null);
    });

    it('gives up after the last attempt of the schedule', async () => {
      const hook = await receiver(() => ({ status: 500 }));
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
      await server.content(account.key);
      const list = await waitRecords(account.key, endpoint.id, (r) => r.length === 4 && r[0]!.status === 'failed', 15_000);
      assert.deepEqual(list.map((d) => d.attempt), [4, 3, 2, 1]);
      assert.equal(list[0]!.next_attempt_at, null);
      assert.ok(list.slice(1).every((d) => d.next_attempt_at !== null));
      await sleep(1500); // longer than the last step with its jitter
      assert.equal(hook.received.length, 4);
      assert.equal((await records(account.key, endpoint.id)).length, 4);
      // Three failures within seconds do not disable it (that takes 3 days, or a 410).
      assert.equal((await server.client.get(`/v1/webhooks/${endpoint.id}`, { key: account.key })).body.data.enabled, true);
    });

    it('honours Retry-After when it asks for more time than the schedule', async () => {
      const hook = await receiver((_r, i) => (i === 0 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 }));
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
      await server.content(account.key);
      const requests = await hook.waitFor((r) => r.length === 2, 10_000);
      assert.ok(requests[1]!.at - requests[0]!.at >= 1950, `${requests[1]!.at - requests[0]!.at} ms`);
      const list = await waitRecords(account.key, endpoint.id, (r) => r[0]?.status === 'succeeded');
      const failed = list[1]!;
      assert.equal(failed.response_status, 503);
      assert.ok(Date.parse(failed.next_attempt_at!) - Date.parse(failed.attempted_at!) >= 2000);
    });

    it('counts a redirect as a failure and does not follow it', async () => {
      const hook = await receiver((r) => (r.path === '/hook' ? { status: 302, headers: { location: '/elsewhere' } } : { status: 200 }));
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
      await server.content(account.key);
      const [record] = await waitRecords(account.key, endpoint.id, (r) => r.some((d) => d.status === 'failed'));
      const failed = (await records(account.key, endpoint.id)).find((d) => d.status === 'failed')!;
      assert.ok(record);
      assert.equal(failed.response_status, 302);
      assert.match(failed.error!, /redirect/);
      assert.notEqual(failed.next_attempt_at, null);
      await sleep(200);
      assert.equal(hook.on('/elsewhere').length, 0);
    });

    it('disables an endpoint that answers 410, says so, and queues nothing more for it', async () => {
      const hook = await receiver(() => ({ status: 410 }));
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
      await server.content(account.key);
      const [record] = await waitRecords(account.key, endpoint.id, (r) => r[0]?.status === 'failed');
      assert.equal(record!.response_status, 410);
      assert.equal(record!.next_attempt_at, null);
      assert.match(record!.error!, /410.*disabled/);
      const state = (await server.client.get(`/v1/webhooks/${endpoint.id}`, { key: account.key })).body.data;
      assert.equal(state.enabled, false);
      assert.equal(state.disabled_reason, 'gone');
      assert.match(state.disabled_at, ISO_MS);
      // Queueing happens in the change's own transaction: once it has answered, nothing was queued.
      await server.content(account.key);
      assert.equal((await records(account.key, endpoint.id)).length, 1);
      await sleep(300);
      assert.equal(hook.received.length, 1);
      // Pings and retries wait until it is enabled again.
      assert.equal((await server.client.post(`/v1/webhooks/${endpoint.id}/test`, { key: account.key })).status, 409);
      assert.equal((await server.client.post(`/v1/webhooks/${endpoint.id}/deliveries/${record!.id}/retry`, { key: account.key })).status, 409);
    });

    it('retries a delivery on request: a new attempt of the same event, 409 while one is pending', async () => {
      let healthy = false;
      const hook = await receiver(() => ({ status: healthy ? 200 : 500 }));
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
      await server.content(account.key);
      const first = (await waitRecords(account.key, endpoint.id, (r) => r.some((d) => d.status === 'failed'))).at(-1)!;
      // Attempt 2 is pending now: a manual retry would only duplicate it.
      const busy = await server.client.post(`/v1/webhooks/${endpoint.id}/deliveries/${first.id}/retry`, { key: account.key });
      assert.equal(busy.status, 409, busy.text);
      assert.equal(busy.body.code, 'conflict');
      const exhausted = await waitRecords(account.key, endpoint.id, (r) => r.length === 4 && r[0]!.status === 'failed', 15_000);

      healthy = true;
      const res = await server.client.post(`/v1/webhooks/${endpoint.id}/deliveries/${first.id}/retry`, { key: account.key });
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.data.attempt, 5);
      assert.equal(res.body.data.status, 'pending');
      assert.equal(res.body.data.event_id, first.event_id);
      await hook.waitFor((r) => r.length === 5);
      assert.equal(hook.received[4]!.headers['webhook-id'], first.event_id);
      assert.equal(hook.received[4]!.body, hook.received[0]!.body, 'the same payload');
      const list = await waitRecords(account.key, endpoint.id, (r) => r[0]?.status === 'succeeded');
      assert.equal(list.length, 5);
      assert.equal(list[0]!.id, res.body.data.id);
      assert.deepEqual(list.slice(1), exhausted);
      // A successful delivery may be sent again too.
      assert.equal((await server.client.post(`/v1/webhooks/${endpoint.id}/deliveries/${list[0]!.id}/retry`, { key: account.key })).status, 202);
      await hook.waitFor((r) => r.length === 6);
    });

    it('gives up on an event that has left the event log (retention), and will not retry it by hand', async () => {
      const hook = await receiver(() => ({ status: 500 }));
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
      await server.content(account.key);
      const [pending, first] = await waitRecords(account.key, endpoint.id, (r) => r[0]?.status === 'pending' && r[0].attempt === 2);
      // What the 7-day retention does to old events, done to this one now.
      await server.app.store.db.deleteFrom('events').where('id', '=', first!.event_id).execute();
      const [cancelled] = await waitRecords(account.key, endpoint.id, (r) => r[0]?.status === 'failed' && r[0].attempt === 2);
      assert.equal(cancelled!.id, pending!.id);
      assert.match(cancelled!.error!, /event log/);
      assert.equal(cancelled!.attempted_at, null);
      assert.equal(cancelled!.next_attempt_at, null);
      assert.equal(hook.received.length, 1);
      const res = await server.client.post(`/v1/webhooks/${endpoint.id}/deliveries/${first!.id}/retry`, { key: account.key });
      assert.equal(res.status, 409, res.text);
      assert.match(res.body.message, /event log/);
    });

    it('cancels the pending attempts of an endpoint that is disabled', async () => {
      const hook = await receiver(() => ({ status: 500 }));
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
      await server.content(account.key);
      await waitRecords(account.key, endpoint.id, (r) => r[0]?.status === 'pending' && r[0].attempt === 2);
      assert.equal((await server.client.put(`/v1/webhooks/${endpoint.id}`, { key: account.key, json: { enabled: false } })).status, 200);
      const [cancelled] = await records(account.key, endpoint.id);
      assert.equal(cancelled!.attempt, 2);
      assert.equal(cancelled!.status, 'failed');
      assert.equal(cancelled!.next_attempt_at, null);
      assert.equal(cancelled!.attempted_at, null);
      assert.match(cancelled!.error!, /disabled/);
      await sleep(1500);
      assert.equal(hook.received.length, 1);
    });

    it('stops delivering when the account drops below Pro, and resumes once it is back', async () => {
      const hook = await receiver(() => ({ status: 500 }));
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
      await server.content(account.key);
      await waitRecords(account.key, endpoint.id, (r) => r[0]?.status === 'pending' && r[0].attempt === 2);
      await server.app.accounts.setPlan(account.accountId, 'basic');
      await server.content(account.key); // queues nothing
      // Attempt 2 comes due about a second later, and is cancelled rather than sent.
      const stored = () =>
        server.app.store.db.selectFrom('webhook_deliveries').select(['attempt', 'status']).where('endpoint_id', '=', endpoint.id).orderBy('attempt').execute();
      for (let i = 0; (await stored()).some((d) => d.status === 'pending'); i++) {
        assert.ok(i < 200, 'attempt 2 still pending after 10 s');
        await sleep(50);
      }
      assert.equal(hook.received.length, 1);

      await server.app.accounts.setPlan(account.accountId, 'pro');
      await sleep(1100); // the key's cached plan is at most a second old
      const list = await deliveriesOf(server.client, account.key, endpoint.id);
      assert.deepEqual(list.map((d) => [d.attempt, d.status]), [[2, 'failed'], [1, 'failed']]);
      assert.match(list[0]!.error!, /plan/);
      assert.equal(list[0]!.next_attempt_at, null);
      assert.equal(list[0]!.attempted_at, null);
      // The endpoint survived the downgrade and works again.
      hook.respond = () => ({ status: 200 });
      await server.content(account.key);
      await hook.waitFor((r) => r.length === 2);
      assert.equal(hook.received[1]!.json.type, 'content.created');
    });
  });
}
