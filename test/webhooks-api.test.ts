// /v1/webhooks as a client sees it (CONTRACT.md §10): the endpoint record, the secret shown once,
// validation, rotation, plan gating, roles and scopes, and isolation between accounts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { addKey, addUser } from './helpers/people.js';
import { Receiver } from './helpers/receiver.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { addEndpoint, deliveriesOf } from './helpers/webhooks.js';

const RECORD_FIELDS = ['created_at', 'description', 'disabled_at', 'disabled_reason', 'enabled', 'events', 'failing_since', 'id', 'updated_at', 'url'];
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;
const UNKNOWN = 'wh_01jd2x3m4n5p6q7r8s9t0v1w2x';

function assertError(res: Response, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code, res.text);
  assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
}

function fieldCodes(res: Response): Record<string, string> {
  assert.equal(res.status, 422, res.text);
  return Object.fromEntries((res.body.errors as { field: string; code: string }[]).map((e) => [e.field, e.code]));
}

for (const store of testStores()) {
  describe(`webhook endpoints API (${store})`, () => {
    let server: TestServer;
    let receiver: Receiver;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store, { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
      receiver = await Receiver.start();
      owner = await server.account();
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    const post = (path: string, key: string, json?: unknown) => server.client.post(path, { key, json });
    const get = (path: string, key: string) => server.client.get(path, { key });
    const put = (path: string, key: string, json: unknown) => server.client.put(path, { key, json });
    const del = (path: string, key: string) => server.client.delete(path, { key });

    it('creates an endpoint: 201 with Location, no-store, the record and its secret shown this once', async () => {
      const res = await post('/v1/webhooks', owner.key, {
        url: receiver.url('/created'),
        events: ['content.created', 'content.deleted', 'content.created'],
        description: 'Search index',
      });
      assert.equal(res.status, 201, res.text);
      const created = res.body.data;
      assert.deepEqual(Object.keys(created).sort(), [...RECORD_FIELDS, 'secret'].sort());
      assert.match(created.id, /^wh_[0-9a-z]{26}$/);
      assert.equal(res.headers.location, `/v1/webhooks/${created.id}`);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.match(created.secret, SECRET);
      assert.equal(Buffer.from(created.secret.slice(6), 'base64').length, 24);
      assert.equal(created.url, receiver.url('/created'));
      assert.deepEqual(created.events, ['content.created', 'content.deleted'], 'duplicates are dropped');
      assert.equal(created.description, 'Search index');
      assert.equal(created.enabled, true);
      assert.equal(created.disabled_reason, null);
      assert.equal(created.disabled_at, null);
      assert.equal(created.failing_since, null);
      assert.match(created.created_at, ISO_MS);
      assert.equal(created.updated_at, created.created_at);

      // Afterwards the secret appears nowhere.
      const one = await get(`/v1/webhooks/${created.id}`, owner.key);
      assert.equal(one.status, 200);
      const { secret: _secret, ...record } = created;
      assert.deepEqual(one.body.data, record);
      const list = await get('/v1/webhooks?limit=100', owner.key);
      assert.ok(!list.text.includes(created.secret.slice(6)));
      assert.ok(!one.text.includes(created.secret.slice(6)));
    });

    it('fills defaults: empty description, enabled, and accepts * for every event type', async () => {
      const created = await addEndpoint(server, owner.key, { url: receiver.url(), events: ['*'] });
      assert.equal(created.enabled, true);
      assert.deepEqual(created.events, ['*']);
      assert.equal((created as unknown as { description: string }).description, '');
    });

    it('creates a disabled endpoint when asked, saying it was requested', async () => {
      const res = await post('/v1/webhooks', owner.key, { url: receiver.url(), events: ['user.created'], enabled: false });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.data.enabled, false);
      assert.equal(res.body.data.disabled_reason, 'requested');
      assert.match(res.body.data.disabled_at, ISO_MS);
    });

    it('lists the account’s endpoints newest first, paged like content', async () => {
      const account = await server.account();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await addEndpoint(server, account.key, { url: receiver.url(`/l${i}`), description: `n${i}` })).id);
      const page1 = await get('/v1/webhooks?limit=2', account.key);
      assert.equal(page1.status, 200, page1.text);
      assert.deepEqual(page1.body.data.map((e: { id: string }) => e.id), [ids[2], ids[1]]);
      assert.deepEqual(page1.body.pagination, { total: 3, limit: 2, offset: 0, has_more: true });
      for (const record of page1.body.data) assert.deepEqual(Object.keys(record).sort(), RECORD_FIELDS);
      const page2 = await get('/v1/webhooks?limit=2&offset=2', account.key);
      assert.deepEqual(page2.body.data.map((e: { id: string }) => e.id), [ids[0]]);
      assert.deepEqual(page2.body.pagination, { total: 3, limit: 2, offset: 2, has_more: false });
      assertError(await get('/v1/webhooks?limit=0', account.key), 400, 'invalid_parameter');
      assertError(await get('/v1/webhooks?status=x', account.key), 400, 'invalid_parameter');
    });

    it('changes only the fields sent; disabling says so in the record, enabling clears it', async () => {
      const created = await addEndpoint(server, owner.key, { url: receiver.url('/a'), events: ['content.created'], description: 'before' });
      const path = `/v1/webhooks/${created.id}`;
      const changed = await put(path, owner.key, { events: ['user.deleted'], url: receiver.url('/b') });
      assert.equal(changed.status, 200, changed.text);
      assert.deepEqual(changed.body.data.events, ['user.deleted']);
      assert.equal(changed.body.data.url, receiver.url('/b'));
      assert.equal(changed.body.data.description, 'before');
      assert.ok(changed.body.data.updated_at >= changed.body.data.created_at);

      const disabled = await put(path, owner.key, { enabled: false });
      assert.equal(disabled.body.data.enabled, false);
      assert.equal(disabled.body.data.disabled_reason, 'requested');
      assert.match(disabled.body.data.disabled_at, ISO_MS);
      const enabled = await put(path, owner.key, { enabled: true, description: '' });
      assert.equal(enabled.body.data.enabled, true);
      assert.equal(enabled.body.data.disabled_reason, null);
      assert.equal(enabled.body.data.disabled_at, null);
      assert.equal(enabled.body.data.description, '');
      assert.deepEqual((await get(path, owner.key)).body.data, enabled.body.data);
    });

    it('rejects bad bodies with 422, listing every failing field', async () => {
      assert.deepEqual(fieldCodes(await post('/v1/webhooks', owner.key, {})), { url: 'required', events: 'required' });
      assert.deepEqual(fieldCodes(await post('/v1/webhooks', owner.key, { url: receiver.url(), events: [] })), { events: 'too_short' });
      assert.deepEqual(fieldCodes(await post('/v1/webhooks', owner.key, { url: receiver.url(), events: ['content.created', 'content.exploded'] })), {
        'events[1]': 'invalid_value',
      });
      // webhook.test is for pings only: nobody subscribes to it.
      assert.deepEqual(fieldCodes(await post('/v1/webhooks', owner.key, { url: receiver.url(), events: ['webhook.test'] })), { 'events[0]': 'invalid_value' });
      assert.deepEqual(
        fieldCodes(
          await post('/v1/webhooks', owner.key, {
            url: 42,
            events: 'content.created',
            description: 'x'.repeat(501),
            enabled: 'yes',
            secret: 'whsec_mine',
            colour: 'blue',
          }),
        ),
        { url: 'invalid_type', events: 'invalid_type', description: 'too_long', enabled: 'invalid_type', secret: 'read_only', colour: 'unknown_field' },
      );
      assert.deepEqual(fieldCodes(await post('/v1/webhooks', owner.key, { url: 'not a url', events: ['*'] })), { url: 'invalid_format' });
      assert.deepEqual(fieldCodes(await post('/v1/webhooks', owner.key, { url: 'ftp://127.0.0.1/x', events: ['*'] })), { url: 'invalid_value' });
      assert.deepEqual(fieldCodes(await post('/v1/webhooks', owner.key, { url: 'http://user:pw@127.0.0.1/x', events: ['*'] })), { url: 'invalid_value' });
      assert.deepEqual(fieldCodes(await post('/v1/webhooks', owner.key, { url: '', events: ['*'] })), { url: 'too_short' });

      const created = await addEndpoint(server, owner.key, { url: receiver.url() });
      const path = `/v1/webhooks/${created.id}`;
      assert.deepEqual(fieldCodes(await put(path, owner.key, {})), { '': 'empty_update' });
      assert.deepEqual(fieldCodes(await put(path, owner.key, { id: UNKNOWN, events: [] })), { id: 'read_only', events: 'too_short' });
      assert.deepEqual(fieldCodes(await post(`${path}/rotate-secret`, owner.key, { secret: 'x' })), { secret: 'unknown_field' });
      // Nothing changed.
      assert.deepEqual((await get(path, owner.key)).body.data.events, ['*']);
    });

    it('deletes an endpoint: 204, then it and its delivery records are gone', async () => {
      const created = await addEndpoint(server, owner.key, { url: receiver.url() });
      const path = `/v1/webhooks/${created.id}`;
      assert.equal((await post(`${path}/test`, owner.key)).status, 202);
      const res = await del(path, owner.key);
      assert.equal(res.status, 204);
      assert.equal(res.text, '');
      assertError(await get(path, owner.key), 404, 'not_found');
      assertError(await get(`${path}/deliveries`, owner.key), 404, 'not_found');
      assertError(await del(path, owner.key), 404, 'not_found');
    });

    it('rotates the secret: 200 with a new secret, shown this once', async () => {
      const created = await addEndpoint(server, owner.key, { url: receiver.url() });
      const res = await post(`/v1/webhooks/${created.id}/rotate-secret`, owner.key);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.match(res.body.data.secret, SECRET);
      assert.notEqual(res.body.data.secret, created.secret);
      assert.equal(res.body.data.id, created.id);
      assert.deepEqual(Object.keys(res.body.data).sort(), [...RECORD_FIELDS, 'secret'].sort());
      assert.ok(!(await get(`/v1/webhooks/${created.id}`, owner.key)).text.includes(res.body.data.secret.slice(6)));
      assertError(await post(`/v1/webhooks/${UNKNOWN}/rotate-secret`, owner.key), 404, 'not_found');
    });

    it('allows at most 20 endpoints per account (409 for the 21st)', async () => {
      const account = await server.account();
      for (let i = 0; i < 20; i++) await addEndpoint(server, account.key, { url: receiver.url(), enabled: false });
      assertError(await post('/v1/webhooks', account.key, { url: receiver.url(), events: ['*'] }), 409, 'conflict');
      assert.equal((await get('/v1/webhooks', account.key)).body.pagination.total, 20);
    });

    it('is for Pro and Enterprise only: every route answers 403 plan_required on Free and Basic', async () => {
      const pro = await addEndpoint(server, owner.key, { url: receiver.url() });
      for (const plan of ['free', 'basic'] as const) {
        const account = await server.account({ plan });
        const id = pro.id;
        const calls: [string, Promise<Response>][] = [
          ['list', get('/v1/webhooks', account.key)],
          ['create', post('/v1/webhooks', account.key, { url: receiver.url(), events: ['*'] })],
          ['create with a bad body', post('/v1/webhooks', account.key, { events: [] })],
          ['get', get(`/v1/webhooks/${id}`, account.key)],
          ['update', put(`/v1/webhooks/${id}`, account.key, { description: 'x' })],
          ['delete', del(`/v1/webhooks/${id}`, account.key)],
          ['rotate', post(`/v1/webhooks/${id}/rotate-secret`, account.key)],
          ['test', post(`/v1/webhooks/${id}/test`, account.key)],
          ['deliveries', get(`/v1/webhooks/${id}/deliveries`, account.key)],
          ['retry', post(`/v1/webhooks/${id}/deliveries/whd_01jd2x3m4n5p6q7r8s9t0v1w2x/retry`, account.key)],
        ];
        for (const [name, call] of calls) {
          const res = await call;
          assert.equal(res.status, 403, `${plan} ${name}: ${res.text}`);
          assert.equal(res.body.code, 'plan_required', `${plan} ${name}`);
        }
      }
      const enterprise = await server.account({ plan: 'enterprise' });
      assert.equal((await post('/v1/webhooks', enterprise.key, { url: receiver.url(), events: ['*'] })).status, 201);
    });

    it('needs the admin role and the webhooks:write scope (403 forbidden otherwise)', async () => {
      const account = await server.account();
      const endpoint = await addEndpoint(server, account.key, { url: receiver.url() });
      for (const role of ['admin', 'editor', 'author', 'viewer']) {
        const user = await addUser(server, account.key, role);
        const key = (await addKey(server, account.key, { user_id: user.id })).key;
        const res = await post('/v1/webhooks', key, { url: receiver.url(), events: ['*'] });
        const read = await get(`/v1/webhooks/${endpoint.id}`, key);
        if (role === 'admin') {
          assert.equal(res.status, 201, res.text);
          assert.equal(read.status, 200);
        } else {
          assertError(res, 403, 'forbidden');
          assertError(read, 403, 'forbidden');
          // 403 comes before body validation.
          assertError(await post('/v1/webhooks', key, {}), 403, 'forbidden');
        }
      }
      const narrow = (await addKey(server, account.key, { scopes: ['content:read', 'content:write', 'users:write'] })).key;
      assertError(await get('/v1/webhooks', narrow), 403, 'forbidden');
      assertError(await get(`/v1/webhooks/${endpoint.id}/deliveries`, narrow), 403, 'forbidden');
      assertError(await post(`/v1/webhooks/${endpoint.id}/rotate-secret`, narrow), 403, 'forbidden');
    });

    it('keeps accounts apart: another account’s endpoint does not exist (404), nor its deliveries', async () => {
      const mine = await server.account();
      const theirs = await server.account();
      const endpoint = await addEndpoint(server, theirs.key, { url: receiver.url() });
      const ping = await post(`/v1/webhooks/${endpoint.id}/test`, theirs.key);
      assert.equal(ping.status, 202);
      const path = `/v1/webhooks/${endpoint.id}`;
      assertError(await get(path, mine.key), 404, 'not_found');
      assertError(await put(path, mine.key, { description: 'mine now' }), 404, 'not_found');
      assertError(await post(`${path}/rotate-secret`, mine.key), 404, 'not_found');
      assertError(await post(`${path}/test`, mine.key), 404, 'not_found');
      assertError(await get(`${path}/deliveries`, mine.key), 404, 'not_found');
      assertError(await post(`${path}/deliveries/${ping.body.data.id}/retry`, mine.key), 404, 'not_found');
      assertError(await del(path, mine.key), 404, 'not_found');
      assert.deepEqual((await get('/v1/webhooks', mine.key)).body.data, []);
      // Still there, unchanged, for its owner.
      assert.equal((await get(path, theirs.key)).body.data.description, '');
      assert.equal((await deliveriesOf(server.client, theirs.key, endpoint.id)).length, 1);
    });

    it('answers 404 for unknown ids and 405 for a wrong method', async () => {
      assertError(await get(`/v1/webhooks/${UNKNOWN}`, owner.key), 404, 'not_found');
      assertError(await put(`/v1/webhooks/${UNKNOWN}`, owner.key, { description: 'x' }), 404, 'not_found');
      assertError(await post(`/v1/webhooks/${UNKNOWN}/test`, owner.key), 404, 'not_found');
      const endpoint = await addEndpoint(server, owner.key, { url: receiver.url() });
      assertError(await post(`/v1/webhooks/${endpoint.id}/deliveries/whd_01jd2x3m4n5p6q7r8s9t0v1w2x/retry`, owner.key), 404, 'not_found');
      const res = await server.client.request('PATCH', `/v1/webhooks/${endpoint.id}`, { key: owner.key });
      assert.equal(res.status, 405);
      assert.equal(res.headers.allow, 'DELETE, GET, HEAD, PUT');
    });
  });

  describe(`webhook URL rules (${store}, private targets not allowed)`, () => {
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
    });
    after(() => server.close());

    // Each of these names a private, loopback, link-local or otherwise non-public target.
    const REFUSED = [
      'https://127.0.0.1/hook',
      'https://127.8.9.10/hook',
      'https://10.1.2.3/hook',
      'https://172.16.0.1/hook',
      'https://172.31.255.255/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hook',
      'https://0.0.0.0/hook',
      'https://198.18.0.1/hook',
      'https://224.0.0.1/hook',
      'https://255.255.255.255/hook',
      'https://2130706433/hook', // 127.0.0.1 in decimal
      'https://0177.0.0.1/hook', // octal
      'https://0x7f.0.0.1/hook', // hexadecimal
      'https://0x7f000001/hook',
      'https://127.1/hook',
      'https://017700000001/hook',
      'https://0xa9.0xfe.0xa9.0xfe/hook', // 169.254.169.254
      'https://[::1]/hook',
      'https://[::]/hook',
      'https://[0:0:0:0:0:0:0:1]/hook',
      'https://[::ffff:127.0.0.1]/hook', // IPv4-mapped IPv6
      'https://[::ffff:7f00:1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://[::ffff:a9fe:a9fe]/hook',
      'https://[64:ff9b::a00:1]/hook', // NAT64 of 10.0.0.1
      'https://[2002:c0a8:101::1]/hook', // 6to4 of 192.168.1.1
      'https://[fe80::1]/hook',
      'https://[fc00::1]/hook',
      'https://[fd12:3456:789a::1]/hook',
      'https://[ff02::1]/hook',
      'https://localhost/hook', // a name that resolves to loopback
      'https://LOCALHOST:8443/hook',
    ];

    for (const url of REFUSED) {
      it(`refuses ${url}`, async () => {
        const res = await server.client.post('/v1/webhooks', { key: owner.key, json: { url, events: ['*'] } });
        assert.deepEqual(fieldCodes(res), { url: 'invalid_value' });
        assert.match(res.body.errors[0].message, /not a public address/);
      });
    }

    it('refuses plain http, even to a public address', async () => {
      const res = await server.client.post('/v1/webhooks', { key: owner.key, json: { url: 'http://93.184.216.34/hook', events: ['*'] } });
      assert.deepEqual(fieldCodes(res), { url: 'invalid_value' });
      assert.match(res.body.errors[0].message, /https/);
    });

    it('accepts public addresses, stored in their normal form', async () => {
      // Created disabled: nothing is ever sent to these addresses from a test.
      const accepted: [string, string][] = [
        ['https://93.184.216.34/hook?x=1', 'https://93.184.216.34/hook?x=1'],
        ['https://1572395042/hook', 'https://93.184.216.34/hook'],
        ['https://[2606:4700:4700::1111]:8443/hook', 'https://[2606:4700:4700::1111]:8443/hook'],
        ['https://[::ffff:8.8.8.8]/hook', 'https://[::ffff:808:808]/hook'],
      ];
      for (const [url, stored] of accepted) {
        const res = await server.client.post('/v1/webhooks', { key: owner.key, json: { url, events: ['*'], enabled: false } });
        assert.equal(res.status, 201, `${url}: ${res.text}`);
        assert.equal(res.body.data.url, stored);
      }
    });

    it('applies the same rules when the URL is changed', async () => {
      const created = await server.client.post('/v1/webhooks', { key: owner.key, json: { url: 'https://93.184.216.34/', events: ['*'], enabled: false } });
      const res = await server.client.put(`/v1/webhooks/${created.body.data.id}`, { key: owner.key, json: { url: 'https://[::ffff:192.168.0.1]/' } });
      assert.deepEqual(fieldCodes(res), { url: 'invalid_value' });
      assert.equal((await server.client.get(`/v1/webhooks/${created.body.data.id}`, { key: owner.key })).body.data.url, 'https://93.184.216.34/');
    });
  });
}
