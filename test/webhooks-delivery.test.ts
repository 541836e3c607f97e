// Webhook deliveries as a receiver sees them (CONTRACT.md §10), against a real local receiver:
// payload and Standard Webhooks signatures (verified by the `standardwebhooks` package, not by our
// code), tampering, topics and subscriptions, disabled endpoints, rotation, pings, the delivery
// list, host names, and isolation between accounts. Failures and retries: webhooks-retries.test.ts.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { addUser } from './helpers/people.js';
import { Receiver, type Responder } from './helpers/receiver.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { addEndpoint, deliveriesOf, waitForDeliveries, type DeliveryRecord, verify } from './helpers/webhooks.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DELIVERY_FIELDS = ['attempt', 'attempted_at', 'created_at', 'duration_ms', 'error', 'event_id', 'event_type', 'id', 'next_attempt_at', 'response_status', 'status'];

for (const store of testStores()) {
  // Each test has its own account, endpoints and receiver, so they run side by side.
  describe(`webhook deliveries (${store})`, { concurrency: true }, () => {
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

    it('delivers a change as the §10 payload with Standard Webhooks headers that verify', async () => {
      const hook = await receiver();
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: hook.url(), events: ['content.created'] });
      const item = await server.content(account.key, { title: 'Signed', status: 'published' });
      const [request] = await hook.waitFor((r) => r.length === 1);

      const payload = verify(endpoint.secret, request!) as Record<string, unknown>;
      assert.deepEqual(Object.keys(payload).sort(), ['created_at', 'data', 'id', 'type']);
      assert.match(payload.id as string, /^evt_[0-9a-z]{26}$/);
      assert.equal(payload.type, 'content.created');
      assert.match(payload.created_at as string, ISO_MS);
      assert.deepEqual(payload.data, item, 'data is the full content item');
      assert.equal(request!.headers['webhook-id'], payload.id);
      assert.match(request!.headers['webhook-timestamp']!, /^\d{10}$/);
      assert.ok(Math.abs(Number(request!.headers['webhook-timestamp']) - Date.now() / 1000) < 5);
      assert.match(request!.headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]{43}=$/);
      assert.equal(request!.headers['content-type'], 'application/json');
      assert.equal(request!.path, '/hook');

      const [record] = await waitRecords(account.key, endpoint.id, (r) => r[0]?.status === 'succeeded');
      assert.deepEqual(Object.keys(record!).sort(), DELIVERY_FIELDS);
      assert.match(record!.id, /^whd_[0-9a-z]{26}$/);
      assert.equal(record!.event_id, payload.id);
      assert.equal(record!.event_type, 'content.created');
      assert.equal(record!.attempt, 1);
      assert.equal(record!.response_status, 200);
      assert.equal(typeof record!.duration_ms, 'number');
      assert.equal(record!.error, null);
      assert.equal(record!.next_attempt_at, null);
      assert.match(record!.attempted_at!, ISO_MS);
      assert.ok(record!.attempted_at! >= record!.created_at);
    });

    it('signs so that any tampering is rejected by the receiver', async () => {
      const hook = await receiver();
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
      await server.content(account.key);
      const [request] = await hook.waitFor((r) => r.length === 1);
      const wh = new Webhook(endpoint.secret);
      assert.ok(wh.verify(request!.body, request!.headers));
      const tampered: [string, string, Record<string, string>][] = [
        ['body', request!.body.replace('A title', 'B title'), request!.headers],
        ['webhook-id', request!.body, { ...request!.headers, 'webhook-id': 'evt_01jd2x3m4n5p6q7r8s9t0v1w2x' }],
        ['webhook-timestamp', request!.body, { ...request!.headers, 'webhook-timestamp': String(Number(request!.headers['webhook-timestamp']) - 1) }],
      ];
      for (const [what, body, headers] of tampered) assert.throws(() => wh.verify(body, headers), /signature/i, what);
      const other = await addEndpoint(server, account.key, { url: hook.url('/other'), enabled: false });
      assert.throws(() => new Webhook(other.secret).verify(request!.body, request!.headers), /signature/i, 'another secret');
    });

    it('delivers content and user events to the endpoints subscribed to them, and only those', async () => {
      const hook = await receiver();
      const account = await server.account();
      const all = await addEndpoint(server, account.key, { url: hook.url('/all'), events: ['*'] });
      await addEndpoint(server, account.key, { url: hook.url('/deleted'), events: ['content.deleted', 'user.deleted'] });
      await addEndpoint(server, account.key, { url: hook.url('/users'), events: ['user.created', 'user.updated'] });

      const item = await server.content(account.key);
      const updated = await server.client.put(`/v1/content/${item.id}`, { key: account.key, json: { title: 'Changed' } });
      const archived = await server.client.post(`/v1/content/${item.id}/archive`, { key: account.key });
      assert.equal((await server.client.delete(`/v1/content/${item.id}`, { key: account.key })).status, 204);
      const user = await addUser(server, account.key, 'editor');
      const renamed = await server.client.put(`/v1/users/${user.id}`, { key: account.key, json: { name: 'Renamed' } });
      assert.equal((await server.client.delete(`/v1/users/${user.id}`, { key: account.key })).status, 204);

      await hook.waitFor(() => hook.on('/all').length === 7 && hook.on('/deleted').length === 2 && hook.on('/users').length === 2);
      await sleep(300); // nothing else arrives
      // Deliveries are not ordered: look each type up (content.updated comes twice, checked below).
      const byType = (path: string) =>
        Object.fromEntries(hook.on(path).filter((r) => r.json.type !== 'content.updated').map((r) => [r.json.type, r.json.data]));
      assert.deepEqual(byType('/all'), {
        'content.created': item,
        'content.deleted': { id: item.id },
        'user.created': user,
        'user.updated': renamed.body.data,
        'user.deleted': { id: user.id },
      });
      // Two content.updated (the PUT, then the archive): both arrive, each with its own event id.
      const contentUpdates = hook.on('/all').filter((r) => r.json.type === 'content.updated');
      assert.deepEqual(contentUpdates.map((r) => r.json.data.status).sort(), ['archived', 'draft']);
      assert.deepEqual(contentUpdates.find((r) => r.json.data.status === 'draft')!.json.data, updated.body.data);
      assert.deepEqual(contentUpdates.find((r) => r.json.data.status === 'archived')!.json.data, archived.body.data);
      assert.notEqual(contentUpdates[0]!.headers['webhook-id'], contentUpdates[1]!.headers['webhook-id']);
      assert.deepEqual(hook.on('/deleted').map((r) => r.json.type).sort(), ['content.deleted', 'user.deleted']);
      assert.deepEqual(hook.on('/users').map((r) => r.json.type).sort(), ['user.created', 'user.updated']);
      assert.equal(hook.received.length, 11);
      assert.equal((await records(account.key, all.id)).length, 7);
    });

    it('delivers api_key.usage_alert events raised by the quota', async () => {
      const hook = await receiver();
      const account = await server.account({ plan: 'pro', quota: 10 });
      const endpoint = await addEndpoint(server, account.key, { url: hook.url(), events: ['api_key.usage_alert'] });
      // That was request 1 of 10; the 8th 2xx answer reaches 80 % of the quota.
      for (let i = 0; i < 7; i++) assert.equal((await server.client.get('/v1/content', { key: account.key })).status, 200);
      await server.content(account.key); // content.created: not subscribed
      const [request] = await hook.waitFor((r) => r.length === 1);
      const payload = verify(endpoint.secret, request!) as Record<string, unknown>;
      assert.equal(payload.type, 'api_key.usage_alert');
      assert.deepEqual({ ...(payload.data as object), period_end: undefined }, { kind: 'quota', threshold: 80, used: 8, limit: 10, period_end: undefined });
      await sleep(300);
      assert.equal(hook.received.length, 1);
    });

    it('sends nothing to, and queues nothing for, a disabled endpoint', async () => {
      const hook = await receiver();
      const account = await server.account();
      const off = await addEndpoint(server, account.key, { url: hook.url('/off'), enabled: false });
      const later = await addEndpoint(server, account.key, { url: hook.url('/later') });
      assert.equal((await server.client.put(`/v1/webhooks/${later.id}`, { key: account.key, json: { enabled: false } })).status, 200);
      const on = await addEndpoint(server, account.key, { url: hook.url('/on') });
      await server.content(account.key);
      await hook.waitFor(() => hook.on('/on').length === 1);
      await waitRecords(account.key, on.id, (r) => r[0]?.status === 'succeeded');
      await sleep(300);
      assert.equal(hook.on('/off').length + hook.on('/later').length, 0);
      assert.deepEqual(await records(account.key, off.id), []);
      assert.deepEqual(await records(account.key, later.id), []);
    });

    it('signs with both secrets during a rotation; either one verifies', async () => {
      const hook = await receiver();
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
      await server.content(account.key);
      await hook.waitFor((r) => r.length === 1);
      assert.equal(hook.received[0]!.headers['webhook-signature']!.split(' ').length, 1);

      const rotated = await server.client.post(`/v1/webhooks/${endpoint.id}/rotate-secret`, { key: account.key });
      const newSecret = rotated.body.data.secret as string;
      await server.content(account.key);
      const [, request] = await hook.waitFor((r) => r.length === 2);
      const signatures = request!.headers['webhook-signature']!.split(' ');
      assert.equal(signatures.length, 2);
      assert.ok(signatures.every((s) => s.startsWith('v1,')));
      assert.ok(verify(newSecret, request!));
      assert.ok(verify(endpoint.secret, request!));
      // Each signature belongs to one secret; a third secret matches neither.
      const other = await addEndpoint(server, account.key, { url: hook.url('/x'), enabled: false });
      assert.throws(() => verify(other.secret, request!), /signature/i);
    });

    it('sends a webhook.test ping on request: 202 with its record, not written to the event log', async () => {
      const hook = await receiver();
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: hook.url(), events: ['content.deleted'] });
      const res = await server.client.post(`/v1/webhooks/${endpoint.id}/test`, { key: account.key });
      assert.equal(res.status, 202, res.text);
      const record = res.body.data;
      assert.deepEqual(Object.keys(record).sort(), DELIVERY_FIELDS);
      assert.equal(record.event_type, 'webhook.test');
      assert.equal(record.status, 'pending');
      assert.equal(record.attempt, 1);
      assert.equal(record.attempted_at, null);
      assert.match(record.event_id, /^evt_[0-9a-z]{26}$/);
      const [request] = await hook.waitFor((r) => r.length === 1);
      const payload = verify(endpoint.secret, request!) as Record<string, unknown>;
      assert.deepEqual(payload, { id: record.event_id, type: 'webhook.test', created_at: record.created_at, data: { webhook_id: endpoint.id } });
      const [done] = await waitRecords(account.key, endpoint.id, (r) => r[0]?.status === 'succeeded');
      assert.equal(done!.id, record.id);
      const logged = await sql<{ n: number }>`select count(*) as n from events where id = ${record.event_id}`.execute(server.app.store.db);
      assert.equal(Number(logged.rows[0]!.n), 0);
    });

    it('lists delivery records newest first, paged like content', async () => {
      const hook = await receiver();
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: hook.url() });
      for (let i = 0; i < 3; i++) await server.content(account.key, { title: `Item ${i}` });
      const all = await waitRecords(account.key, endpoint.id, (r) => r.length === 3 && r.every((d) => d.status === 'succeeded'));
      const titles = await Promise.all(all.map((d) => hook.received.find((r) => r.headers['webhook-id'] === d.event_id)!.json.data.title));
      assert.deepEqual(titles, ['Item 2', 'Item 1', 'Item 0']);
      const page = await server.client.get(`/v1/webhooks/${endpoint.id}/deliveries?limit=2&offset=1`, { key: account.key });
      assert.equal(page.status, 200);
      assert.deepEqual(page.body.data, all.slice(1, 3));
      assert.deepEqual(page.body.pagination, { total: 3, limit: 2, offset: 1, has_more: false });
      const bad = await server.client.get(`/v1/webhooks/${endpoint.id}/deliveries?limit=x&page=2`, { key: account.key });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body.errors.map((e: { field: string }) => e.field).sort(), ['limit', 'page']);
    });

    it('keeps accounts apart: each endpoint receives its own account’s events only', async () => {
      const hook = await receiver();
      const a = await server.account();
      const b = await server.account();
      const ea = await addEndpoint(server, a.key, { url: hook.url('/a') });
      const eb = await addEndpoint(server, b.key, { url: hook.url('/b') });
      const itemA = await server.content(a.key, { title: 'A' });
      const itemB = await server.content(b.key, { title: 'B' });
      await hook.waitFor(() => hook.on('/a').length === 1 && hook.on('/b').length === 1);
      await sleep(300);
      assert.deepEqual(hook.on('/a').map((r) => r.json.data.id), [itemA.id]);
      assert.deepEqual(hook.on('/b').map((r) => r.json.data.id), [itemB.id]);
      verify(ea.secret, hook.on('/a')[0]!);
      verify(eb.secret, hook.on('/b')[0]!);
      assert.throws(() => verify(ea.secret, hook.on('/b')[0]!));
    });

    it('resolves a host name and connects to the address it checked', async () => {
      const hook = await receiver();
      const account = await server.account();
      const url = hook.url().replace('127.0.0.1', 'localhost');
      const endpoint = await addEndpoint(server, account.key, { url });
      await server.content(account.key);
      const [request] = await hook.waitFor((r) => r.length === 1);
      assert.ok(verify(endpoint.secret, request!));
      assert.equal(request!.headers.host, new URL(url).host);
    });
  });
}
