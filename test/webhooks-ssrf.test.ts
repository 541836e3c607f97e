// Webhook targets and DNS, proven with a resolver the test controls (CONTRACT.md §10): a host is
// resolved once per attempt, every address it resolves to is checked, and the connection goes to
// the checked address (no second lookup), so a name that resolves to a public address at
// registration and to a private one at delivery (DNS rebinding), or to a mixed list, never gets a
// request — nor even a connection — to the private address.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Resolver } from '../src/domain/webhooks/targets.js';
import { parseLogs } from './helpers/logs.js';
import { Receiver } from './helpers/receiver.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { addEndpoint, waitForDeliveries } from './helpers/webhooks.js';

const PUBLIC = { address: '93.184.215.14', family: 4 };
const PUBLIC_V6 = { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 };

/** A DNS the test rewrites as it goes: answers per host name, and a log of every question. */
class PlayedDns {
  readonly asked: string[] = [];
  private readonly answers = new Map<string, { address: string; family: number }[][]>();

  /** `host` answers `lists` in turn, the last one from then on. */
  set(host: string, ...lists: { address: string; family: number }[][]): void {
    this.answers.set(host, lists);
  }

  readonly resolver: Resolver = async (host) => {
    this.asked.push(host);
    const lists = this.answers.get(host);
    if (!lists) throw Object.assign(new Error(`queryA ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return lists.length > 1 ? lists.shift()! : lists[0]!;
  };

  times(host: string): number {
    return this.asked.filter((h) => h === host).length;
  }
}

for (const store of testStores()) {
  describe(`webhook targets and DNS rebinding (${store})`, () => {
    const dns = new PlayedDns();
    let server: TestServer;
    let owner: TestAccount;
    let receiver: Receiver;
    before(async () => {
      receiver = await Receiver.start();
      server = await startServer(store, { env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1' }, resolver: dns.resolver });
      owner = await server.account({ plan: 'pro' });
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    it('refuses at registration a host with any private address among its answers', async () => {
      const cases: [string, { address: string; family: number }[], string][] = [
        ['loopback.test', [{ address: '127.0.0.1', family: 4 }], '127.0.0.1'],
        ['mixed.test', [PUBLIC, { address: '10.1.2.3', family: 4 }], '10.1.2.3'],
        ['mixed-v6.test', [PUBLIC, PUBLIC_V6, { address: 'fd00::1', family: 6 }], 'fd00::1'],
        ['mapped.test', [{ address: '::ffff:192.168.1.1', family: 6 }], '::ffff:192.168.1.1'],
        ['metadata.test', [PUBLIC_V6, { address: '169.254.169.254', family: 4 }], '169.254.169.254'],
      ];
      for (const [host, answer, named] of cases) {
        dns.set(host, answer);
        const res = await server.client.post('/v1/webhooks', { key: owner.key, json: { url: `https://${host}/hook`, events: ['*'] } });
        assert.equal(res.status, 422, `${host}: ${res.text}`);
        assert.equal(res.body.errors[0].field, 'url');
        assert.ok(res.body.errors[0].message.includes(named), res.body.errors[0].message);
      }
      dns.set('public.test', [PUBLIC, PUBLIC_V6]);
      assert.equal((await server.client.post('/v1/webhooks', { key: owner.key, json: { url: 'https://public.test/hook', events: ['*'] } })).status, 201);
    });

    it('checks again at delivery: a name rebound to a private address, or to a mixed list, gets no connection', async () => {
      for (const [host, atDelivery] of [
        ['rebind.test', [{ address: '127.0.0.1', family: 4 }]],
        ['rebind-mixed.test', [PUBLIC, { address: '127.0.0.1', family: 4 }]],
      ] as const) {
        // Public when registered; the receiver's loopback address by the time of the attempt.
        dns.set(host, [PUBLIC], [...atDelivery]);
        const endpoint = await addEndpoint(server, owner.key, { url: `https://${host}:${receiver.port}/hook`, events: ['user.deleted'] });
        const ping = await server.client.post(`/v1/webhooks/${endpoint.id}/test`, { key: owner.key });
        assert.equal(ping.status, 202, ping.text);
        const records = await waitForDeliveries(server.client, owner.key, endpoint.id, (r) => r.some((d) => d.attempt === 1 && d.status === 'failed'));
        const first = records.find((d) => d.attempt === 1)!;
        assert.equal(first.response_status, null);
        assert.match(first.error!, /resolves to 127\.0\.0\.1, which is not a public address/);
      }
      assert.equal(receiver.connections, 0, 'no connection ever reached the private address');
      assert.deepEqual(parseLogs(server.logs).filter((l) => (l.level as number) >= 50), []);
    });
  });

  describe(`webhook attempts connect to the address checked (${store})`, () => {
    const dns = new PlayedDns();
    let server: TestServer;
    let owner: TestAccount;
    let receiver: Receiver;
    let trap: Receiver;
    before(async () => {
      receiver = await Receiver.start(() => ({ status: 200 }), '127.0.0.1');
      // Same port, another loopback address: where a second lookup would lead.
      trap = await Receiver.start(() => ({ status: 200 }), '127.0.0.2', receiver.port);
      // Private addresses allowed, so that the checked address can be a receiver of this test.
      server = await startServer(store, { env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1,1' }, resolver: dns.resolver });
      owner = await server.account({ plan: 'pro' });
    });
    after(async () => {
      await server.close();
      await Promise.all([receiver.close(), trap.close()]);
    });

    it('resolves once per attempt and connects to that answer, whatever the DNS says next', async () => {
      const host = 'pinned.test';
      // Registration, then each attempt's one lookup gets 127.0.0.1; any lookup after that one, 127.0.0.2.
      dns.set(host, [{ address: '127.0.0.1', family: 4 }], [{ address: '127.0.0.1', family: 4 }], [{ address: '127.0.0.2', family: 4 }]);
      const endpoint = await addEndpoint(server, owner.key, { url: `http://${host}:${receiver.port}/hook`, events: ['user.deleted'] });
      assert.equal(dns.times(host), 1);
      assert.equal((await server.client.post(`/v1/webhooks/${endpoint.id}/test`, { key: owner.key })).status, 202);
      await waitForDeliveries(server.client, owner.key, endpoint.id, (r) => r.some((d) => d.status === 'succeeded'));
      assert.equal(receiver.on('/hook').length, 1);
      assert.equal(receiver.on('/hook')[0]!.headers.host, `${host}:${receiver.port}`);
      assert.equal(trap.connections, 0, 'a second lookup would have led to 127.0.0.2');
      assert.equal(dns.times(host), 2, 'one lookup at registration, one for the attempt');
    });
  });
}
