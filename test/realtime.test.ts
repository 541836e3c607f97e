// The WebSocket channel /v1/ws (CONTRACT.md §9): upgrade refusals, subscriptions and payloads,
// errors that keep the connection open, limits, revocation, isolation and resume with `since`.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { addKey, addUser } from './helpers/people.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { refusedUpgrade, WsClient, type Message } from './helpers/ws.js';

const isEvent = (type: string) => (m: Message) => m.type === type && typeof m.id === 'string';

for (const store of testStores()) {
  describe(`real-time channel (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    const open: WsClient[] = [];
    const connect = async (key = owner.key, options: Parameters<typeof WsClient.open>[2] = {}) => {
      const client = await WsClient.open(server, key, options);
      open.push(client);
      return client;
    };

    before(async () => {
      server = await startServer(store);
      owner = await server.account();
    });
    after(async () => {
      for (const client of open) client.socket.terminate();
      await server.close();
    });

    describe('upgrade', () => {
      it('refuses a missing or unknown key with 401 before any WebSocket frame', async () => {
        for (const key of [undefined, 'cms_live_' + 'x'.repeat(40), 'not-a-key']) {
          const refusal = await refusedUpgrade(server, key);
          assert.equal(refusal.status, 401);
          assert.equal(refusal.headers['www-authenticate'], 'Bearer');
          assert.equal(refusal.body.code, 'unauthorized');
          assert.equal(refusal.body.meta.request_id, refusal.headers['x-request-id']);
        }
      });

      it('refuses a key without events:read with 403', async () => {
        const narrow = await addKey(server, owner.key, { scopes: ['content:read'] });
        const refusal = await refusedUpgrade(server, narrow.key);
        assert.equal(refusal.status, 403);
        assert.equal(refusal.body.code, 'forbidden');
      });

      it('accepts the key in the token query parameter or the Authorization header', async () => {
        for (const via of ['query', 'header'] as const) {
          const client = await connect(owner.key, { via });
          assert.deepEqual(await client.subscribe('content.created'), { type: 'subscribed', event: 'content.created' });
          await client.close();
        }
      });

      it('answers a plain GET (no upgrade) with 426, Upgrade: websocket and the upgrade option in Connection (RFC 9110 §7.8)', async () => {
        const res = await server.client.get('/v1/ws', { key: owner.key });
        assert.equal(res.status, 426);
        assert.equal(res.headers.upgrade, 'websocket');
        assert.ok(String(res.headers.connection).toLowerCase().split(/\s*,\s*/).includes('upgrade'), `Connection: ${res.headers.connection}`);
        assert.equal(res.body.code, 'upgrade_required');
        // The connection stays usable for the next request (keep-alive is HTTP/1.1's default).
        assert.equal((await server.client.get('/v1/content', { key: owner.key })).status, 200);
      });

      it('does not negotiate permessage-deflate, even when the client offers it', async () => {
        // The ws client offers it by default; the server must leave it off (events go out pre-framed).
        const client = await connect();
        assert.equal(client.socket.extensions, '');
        await client.subscribe('content.created');
        const item = await server.content(owner.key, { title: 'Uncompressed' });
        const event = await client.next(isEvent('content.created'));
        assert.equal(event.data.id, item.id);
        await client.close();
      });

      it('never writes the token to the log', async () => {
        const client = await connect(owner.key);
        await client.close();
        await refusedUpgrade(server, 'cms_live_' + 'y'.repeat(40));
        await sleep(50);
        assert.ok(server.logs.some((line) => line.includes('/v1/ws?token=[REDACTED]')));
        assert.ok(!server.logs.some((line) => line.includes(owner.key) || line.includes('y'.repeat(40))));
      });
    });

    describe('subscriptions', () => {
      it('delivers content events with the full item, the event id and created_at', async () => {
        const client = await connect();
        await client.subscribe('content.*');
        const item = await server.content(owner.key, { title: 'Live' });
        const created = await client.next(isEvent('content.created'));
        assert.match(created.id, /^evt_[0-9a-z]{26}$/);
        assert.match(created.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.deepEqual(created.data, item);
        assert.deepEqual(Object.keys(created).sort(), ['created_at', 'data', 'id', 'type']);

        const updated = (await server.client.put(`/v1/content/${String(item.id)}`, { key: owner.key, json: { title: 'Live 2' } })).body.data;
        assert.deepEqual((await client.next(isEvent('content.updated'))).data, updated);
        const archived = (await server.client.post(`/v1/content/${String(item.id)}/archive`, { key: owner.key })).body.data;
        assert.deepEqual((await client.next(isEvent('content.updated'))).data, archived);
        await server.client.delete(`/v1/content/${String(item.id)}`, { key: owner.key });
        assert.deepEqual((await client.next(isEvent('content.deleted'))).data, { id: item.id });
        await client.close();
      });

      it('sends only the subscribed event names, and nothing after unsubscribe', async () => {
        const client = await connect();
        await client.subscribe('content.deleted');
        const item = await server.content(owner.key);
        await server.client.delete(`/v1/content/${String(item.id)}`, { key: owner.key });
        const deleted = await client.next((m) => m.id !== undefined);
        assert.equal(deleted.type, 'content.deleted');

        client.send({ type: 'unsubscribe', event: 'content.deleted' });
        assert.deepEqual(await client.next(), { type: 'unsubscribed', event: 'content.deleted' });
        const other = await server.content(owner.key);
        await server.client.delete(`/v1/content/${String(other.id)}`, { key: owner.key });
        client.send({ type: 'ping' });
        assert.deepEqual(await client.next(), { type: 'pong' }, 'nothing arrived between unsubscribe and pong');
        assert.equal(client.events().length, 1);
        await client.close();
      });

      it('delivers user events with user.* and * (the user record; deleted: {id})', async () => {
        const client = await connect();
        await client.subscribe('user.*');
        const user = await addUser(server, owner.key, 'editor');
        assert.deepEqual((await client.next(isEvent('user.created'))).data, user);
        await server.client.delete(`/v1/users/${user.id}`, { key: owner.key });
        assert.deepEqual((await client.next(isEvent('user.deleted'))).data, { id: user.id });
        await client.close();
      });

      it('sends only what the key may see: * without users:read carries no user events', async () => {
        const contentOnly = await addKey(server, owner.key, { scopes: ['events:read', 'content:read'] });
        const client = await connect(contentOnly.key);
        await client.subscribe('*');
        assert.equal((await client.subscribe('user.created')).code, 'unknown_event');
        await addUser(server, owner.key, 'viewer');
        const item = await server.content(owner.key);
        const first = await client.next((m) => m.id !== undefined);
        assert.equal(first.type, 'content.created', 'the user event before it was not sent');
        assert.equal(first.data.id, item.id);
        await client.close();
      });

      it('keeps accounts apart: a socket never sees another account’s events', async () => {
        const other = await server.account();
        const mine = await connect();
        const theirs = await connect(other.key);
        await mine.subscribe('*');
        await theirs.subscribe('*');
        await server.content(other.key, { title: 'Theirs' });
        const item = await server.content(owner.key, { title: 'Mine' });
        assert.equal((await mine.next((m) => m.id !== undefined)).data.id, item.id);
        assert.equal((await theirs.next((m) => m.id !== undefined)).data.title, 'Theirs');
        mine.send({ type: 'ping' });
        theirs.send({ type: 'ping' });
        await mine.next((m) => m.type === 'pong');
        await theirs.next((m) => m.type === 'pong');
        assert.equal(mine.events().length, 1);
        assert.equal(theirs.events().length, 1);
        await Promise.all([mine.close(), theirs.close()]);
      });
    });

    describe('bad input and limits', () => {
      it('answers bad messages with an error and keeps the connection open', async () => {
        const client = await connect();
        const cases: [unknown, string][] = [
          ['not json', 'invalid_message'],
          ['[1,2]', 'invalid_message'],
          ['"text"', 'invalid_message'],
          [{ type: 'dance' }, 'invalid_message'],
          [{ type: 'subscribe' }, 'invalid_message'],
          [{ type: 'subscribe', event: 42 }, 'invalid_message'],
          [{ type: 'subscribe', event: '*', since: 'yesterday' }, 'invalid_message'],
          [{ type: 'unsubscribe', event: '*', since: 'evt_01jd2x3m4n5p6q7r8s9t0v1w2x' }, 'invalid_message'],
          [{ type: 'subscribe', event: 'content.exploded' }, 'unknown_event'],
          [{ type: 'subscribe', event: 'content' }, 'unknown_event'],
          [{ type: 'subscribe', event: '*', since: 'evt_01jd2x3m4n5p6q7r8s9t0v1w2x' }, 'cursor_expired'],
        ];
        for (const [message, code] of cases) {
          client.send(message);
          const answer = await client.next();
          assert.equal(answer.type, 'error', JSON.stringify(message));
          assert.equal(answer.code, code, JSON.stringify(message));
          assert.ok(answer.message.length > 0);
        }
        client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
        assert.equal((await client.next()).code, 'invalid_message');
        client.send({ type: 'ping' });
        assert.deepEqual(await client.next(), { type: 'pong' });
        await client.close();
      });

      it('closes the connection with 1009 on a message over 64 KiB', async () => {
        const client = await connect();
        client.send({ type: 'ping', padding: 'x'.repeat(64 * 1024) });
        assert.equal((await client.closed).code, 1009);
      });

      it('pings and drops a client that does not answer', async () => {
        // A server of its own, pinging every 300 ms instead of every 30 s.
        const pinging = await startServer(store, { wsPingIntervalMs: 300 });
        try {
          const account = await pinging.account();
          const lively = await WsClient.open(pinging, account.key);
          let pings = 0;
          lively.socket.on('ping', () => pings++);
          const dead = await WsClient.open(pinging, account.key, { autoPong: false });
          const closed = await dead.closed;
          assert.equal(closed.code, 1006, 'terminated without a close frame');
          assert.ok(pings >= 1, 'the server pings');
          assert.equal(lively.socket.readyState, lively.socket.OPEN, 'a client that answers stays');
          await lively.close();
        } finally {
          await pinging.close();
        }
      });

      it('closes a client that falls more than 1 MiB behind with 1013', async () => {
        const client = await connect();
        await client.subscribe('content.created');
        // Stop reading: the server's send buffer fills once the kernel's buffers are full.
        client.socket.pause();
        const big = 'B'.repeat(900 * 1024);
        for (let i = 0; i < 24; i++) await server.content(owner.key, { content: big });
        client.socket.resume();
        assert.equal((await client.closed).code, 1013);
        assert.ok(client.events().length < 24, 'closed before every event was sent');
      });
      it('sends one item over 1 MiB, and a replay of several, to a client that keeps reading', async () => {
        const account = await server.account();
        const client = await connect(account.key);
        await client.subscribe('content.created');
        const huge = 'H'.repeat(1024 * 1024 - 16);
        const first = await server.content(account.key, { content: huge });
        const event = await client.next((m) => m.id !== undefined, 10_000);
        assert.equal(event.data.id, first.id);
        assert.equal(event.data.content.length, huge.length);
        for (let i = 0; i < 3; i++) await server.content(account.key, { content: huge });
        await client.eventCount(4, 10_000);
        assert.equal(client.socket.readyState, client.socket.OPEN, 'not closed for what one write adds');

        // Resuming from the first event replays the next three (over 3 MiB) without closing.
        const resumed = await connect(account.key);
        await resumed.subscribe('content.created', event.id);
        const replayed = await resumed.eventCount(3, 10_000);
        assert.deepEqual(replayed.map((e) => e.id), client.events().slice(1).map((e) => e.id));
        assert.equal(resumed.socket.readyState, resumed.socket.OPEN);
        await Promise.all([client.close(), resumed.close()]);
      });

      it('leaves nothing attached when a client goes while its subscriptions are being handled', async () => {
        const account = await server.account();
        for (let i = 0; i < 20; i++) await server.content(account.key);
        const oldest = (await server.client.get('/v1/events', { key: account.key })).body.data[0].id;
        const metric = async () => Number(/^cms_event_stream_subscribers (\d+)$/m.exec((await server.client.get('/metrics')).text)?.[1]);
        const baseline = await metric();
        for (let i = 0; i < 5; i++) {
          const client = await WsClient.open(server, account.key);
          // Each replays the log: the client is gone while later ones still wait their turn. (On
          // SQLite every query is answered at once, so the race shows only on PostgreSQL.)
          for (let j = 0; j < 20; j++) client.send({ type: 'subscribe', event: j % 2 ? '*' : 'content.*', since: oldest });
          await client.next((m) => m.type === 'subscribed');
          client.socket.terminate();
        }
        let now = await metric();
        for (let i = 0; i < 50 && now !== baseline; i++) now = await metric();
        assert.equal(now, baseline, 'every connection left the event stream');
      });

      it('closes a client that floods the connection with messages', async () => {
        const client = await connect();
        const oldest = (await server.client.get('/v1/events', { key: owner.key })).body.data[0].id;
        for (let i = 0; i < 300; i++) client.send({ type: 'subscribe', event: '*', since: oldest });
        assert.equal((await client.closed).code, 1008);
      });
    });

    describe('revocation and shutdown', () => {
      it('closes the sockets of a revoked key with 1008', async () => {
        const key = await addKey(server, owner.key, {});
        const client = await connect(key.key);
        await client.subscribe('*');
        const started = Date.now();
        assert.equal((await server.client.delete(`/v1/api-keys/${key.id}`, { key: owner.key })).status, 204);
        assert.equal((await client.closed).code, 1008);
        assert.ok(Date.now() - started < 1500, 'closed at once on the instance that revoked it');
      });

      it('closes the sockets of a deleted user with 1008', async () => {
        const user = await addUser(server, owner.key, 'viewer');
        const key = await addKey(server, owner.key, { user_id: user.id });
        const client = await connect(key.key);
        await server.client.delete(`/v1/users/${user.id}`, { key: owner.key });
        assert.equal((await client.closed).code, 1008);
      });
    });

    describe('resume with since', () => {
      it('replays the retained events after the cursor, then goes live', async () => {
        const account = await server.account();
        const items: Record<string, unknown>[] = [];
        for (let i = 0; i < 3; i++) items.push(await server.content(account.key, { title: `Before ${i}` }));
        const log = (await server.client.get('/v1/events', { key: account.key })).body.data as Message[];
        const cursor = log.find((e) => e.type === 'content.created' && e.data.id === items[0]!.id)!;

        const client = await connect(account.key);
        assert.deepEqual(await client.subscribe('content.created', cursor.id), { type: 'subscribed', event: 'content.created' });
        const replayed = await client.eventCount(2);
        assert.deepEqual(replayed.map((e) => e.data.id), [items[1]!.id, items[2]!.id]);
        const live = await server.content(account.key, { title: 'After' });
        await client.next((m) => m.data?.id === live.id);
        assert.deepEqual(client.events().map((e) => e.data.id), [items[1]!.id, items[2]!.id, live.id]);
        await client.close();
      });

      it('adds a subscription with since to a live connection without repeating what it sent', async () => {
        const client = await connect();
        await client.subscribe('content.created');
        const mark = await server.content(owner.key, { title: 'Mark' });
        const markEvent = await client.next(isEvent('content.created'));
        assert.equal(markEvent.data.id, mark.id);
        const second = await server.content(owner.key, { title: 'Second' });
        await server.client.delete(`/v1/content/${String(second.id)}`, { key: owner.key });
        await client.next((m) => m.type === 'content.created' && m.data.id === second.id);

        // content.* from the mark: only the deletion is new to this connection.
        await client.subscribe('content.*', markEvent.id);
        const deleted = await client.next(isEvent('content.deleted'));
        assert.equal(deleted.data.id, second.id);
        const ids = client.events().map((e) => e.id);
        assert.equal(new Set(ids).size, ids.length, 'no event was sent twice');
        await client.close();
      });

      it('loses and repeats nothing across a reconnect while writes keep arriving', async () => {
        const account = await server.account();
        let writing = true;
        const written: string[] = [];
        const writer = (async () => {
          for (let i = 0; writing || i < 10; i++) {
            const item = await server.content(account.key, { title: `Stream ${i}` });
            written.push(String(item.id));
          }
        })();
        const writers = Promise.all([writer, (async () => {
          while (writing) await server.content(account.key, { title: 'Noise', type: 'manual' });
        })()]);

        const first = await connect(account.key);
        await first.subscribe('content.created');
        await first.eventCount(15, 10_000);
        await first.close();
        const lastSeen = first.events().at(-1)!;
        await sleep(150); // writes carry on while the client is away

        const second = await connect(account.key);
        await second.subscribe('content.created', lastSeen.id);
        await second.eventCount(20, 10_000);
        writing = false;
        await writers;

        // The log, oldest first, from the first event the client saw: exactly what it received.
        const log: Message[] = [];
        for (let after: string | null = null; ; ) {
          const page: Message = (await server.client.get(`/v1/events?limit=100${after ? `&after=${after}` : ''}`, { key: account.key })).body;
          log.push(...page.data);
          if (!page.pagination.has_more) break;
          after = page.pagination.next_after;
        }
        const created = log.filter((e) => e.type === 'content.created').map((e) => e.id as string);
        assert.ok(created.length >= written.length);
        await second.next((m) => m.id === created.at(-1), 10_000);
        const received = [...first.events(), ...second.events()].map((e) => e.id as string);
        const expected = created.slice(created.indexOf(received[0]!));
        assert.equal(new Set(received).size, received.length, 'no duplicates');
        assert.deepEqual(received, expected, 'no gap, commit order');
        await second.close();
      });
    });
  });
}
