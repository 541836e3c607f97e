// The event log (CONTRACT.md §9): one event per change, written with the change, nothing for a
// refused change; GET /v1/events paging by cursor, visibility by scope, isolation and retention.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addKey, addUser } from './helpers/people.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

for (const store of testStores()) {
  describe(`event log (${store})`, () => {
    let now = Date.parse('2031-01-10T08:00:00.000Z');
    let server: TestServer;
    before(async () => {
      server = await startServer(store, { clock: () => new Date(now) });
    });
    after(() => server.close());

    /** Every event of the account, oldest first, walking the pages. */
    async function allEvents(key: string): Promise<Json[]> {
      const events: Json[] = [];
      for (let after: string | null = null; ; ) {
        const res = await server.client.get(`/v1/events?limit=100${after ? `&after=${after}` : ''}`, { key });
        assert.equal(res.status, 200, res.text);
        events.push(...res.body.data);
        if (!res.body.pagination.has_more) return events;
        after = res.body.pagination.next_after;
      }
    }

    describe('what is recorded', () => {
      let account: TestAccount;
      before(async () => {
        account = await server.account();
      });

      it('records each change once, in order, with the payload subscribers receive', async () => {
        const start = (await allEvents(account.key)).length;
        const item = await server.content(account.key, { title: 'One' });
        const updated = (await server.client.put(`/v1/content/${item.id}`, { key: account.key, json: { title: 'Two' } })).body.data;
        const archived = (await server.client.post(`/v1/content/${item.id}/archive`, { key: account.key })).body.data;
        assert.equal((await server.client.post(`/v1/content/${item.id}/archive`, { key: account.key })).status, 200);
        assert.equal((await server.client.delete(`/v1/content/${item.id}`, { key: account.key })).status, 204);
        const user = await addUser(server, account.key, 'author');
        const renamed = (await server.client.put(`/v1/users/${user.id}`, { key: account.key, json: { name: 'Renamed' } })).body.data;
        assert.equal((await server.client.delete(`/v1/users/${user.id}`, { key: account.key })).status, 204);

        const events = (await allEvents(account.key)).slice(start);
        assert.deepEqual(
          events.map((e: Json) => [e.type, e.data]),
          [
            ['content.created', item],
            ['content.updated', updated],
            ['content.updated', archived],
            ['content.deleted', { id: item.id }],
            ['user.created', user],
            ['user.updated', renamed],
            ['user.deleted', { id: user.id }],
          ],
          'archiving an archived item records nothing',
        );
        for (const event of events) {
          assert.match(event.id, /^evt_[0-9a-z]{26}$/);
          assert.equal(event.created_at, new Date(now).toISOString());
          assert.deepEqual(Object.keys(event).sort(), ['created_at', 'data', 'id', 'type']);
        }
      });

      it('records nothing for a refused or failed change', async () => {
        const item = await server.content(account.key);
        const before = (await allEvents(account.key)).length;
        const refused = [
          await server.client.post('/v1/content', { key: account.key, json: { title: '' } }),
          await server.client.put(`/v1/content/${item.id}`, { key: account.key, json: { title: 'x' }, headers: { 'if-match': '"9"' } }),
          await server.client.put('/v1/content/content_01jd2x3m4n5p6q7r8s9t0v1w2x', { key: account.key, json: { title: 'x' } }),
          await server.client.delete(`/v1/content/${item.id}`, { key: account.key, headers: { 'if-match': '"7"' } }),
          await server.client.post('/v1/users', { key: account.key, json: { email: 'not an address', name: 'X', role: 'viewer' } }),
        ];
        assert.deepEqual(refused.map((r) => r.status), [422, 412, 404, 412, 422]);
        assert.equal((await allEvents(account.key)).length, before);
      });

      it('records the owner of a new account as user.created', async () => {
        const fresh = await server.account();
        const events = await allEvents(fresh.key);
        assert.equal(events.length, 1);
        assert.equal(events[0].type, 'user.created');
        assert.equal(events[0].data.id, fresh.userId);
        assert.equal(events[0].data.role, 'owner');
      });
    });

    describe('GET /v1/events', () => {
      let account: TestAccount;
      let ids: string[];
      before(async () => {
        account = await server.account();
        for (let i = 0; i < 4; i++) await server.content(account.key, { title: `Item ${i}` });
        ids = (await allEvents(account.key)).map((e: Json) => e.id);
        assert.equal(ids.length, 5);
      });

      it('pages oldest first with after, limit, has_more and next_after', async () => {
        const first = await server.client.get('/v1/events?limit=2', { key: account.key });
        assert.equal(first.status, 200);
        assert.deepEqual(first.body.data.map((e: Json) => e.id), ids.slice(0, 2));
        assert.deepEqual(first.body.pagination, { limit: 2, has_more: true, next_after: ids[1] });
        assert.equal(first.body.meta.request_id, first.headers['x-request-id']);

        const last = await server.client.get(`/v1/events?limit=2&after=${ids[2]}`, { key: account.key });
        assert.deepEqual(last.body.data.map((e: Json) => e.id), ids.slice(3));
        assert.deepEqual(last.body.pagination, { limit: 2, has_more: false, next_after: ids[4] });
      });

      it('answers an empty page at the end with next_after = after, to keep polling from', async () => {
        const res = await server.client.get(`/v1/events?after=${ids[4]}`, { key: account.key });
        assert.deepEqual(res.body.data, []);
        assert.deepEqual(res.body.pagination, { limit: 10, has_more: false, next_after: ids[4] });
        const later = await server.content(account.key);
        const polled = await server.client.get(`/v1/events?after=${res.body.pagination.next_after}`, { key: account.key });
        assert.deepEqual(polled.body.data.map((e: Json) => e.data.id), [later.id]);
      });

      it('clamps limit to 100 and rejects bad parameters with 400', async () => {
        assert.equal((await server.client.get('/v1/events?limit=500', { key: account.key })).body.pagination.limit, 100);
        for (const query of ['limit=0', 'limit=x', 'after=nope', 'after=', 'offset=2']) {
          const res = await server.client.get(`/v1/events?${query}`, { key: account.key });
          assert.equal(res.status, 400, query);
          assert.equal(res.body.code, 'invalid_parameter', query);
        }
      });

      it('answers 410 cursor_expired for an unknown cursor or one of another account', async () => {
        const other = await server.account();
        const foreign = (await allEvents(other.key))[0].id;
        for (const cursor of ['evt_01jd2x3m4n5p6q7r8s9t0v1w2x', foreign]) {
          const res = await server.client.get(`/v1/events?after=${cursor}`, { key: account.key });
          assert.equal(res.status, 410, res.text);
          assert.equal(res.body.code, 'cursor_expired');
        }
        assert.ok(!(await allEvents(other.key)).some((e: Json) => ids.includes(e.id)), 'accounts never share events');
      });

      it('needs events:read, and shows content or user events only with the matching read scope', async () => {
        const noEvents = await addKey(server, account.key, { scopes: ['content:read'] });
        assert.equal((await server.client.get('/v1/events', { key: noEvents.key })).status, 403);
        await addUser(server, account.key, 'viewer');
        const contentOnly = await addKey(server, account.key, { scopes: ['events:read', 'content:read'] });
        const usersOnly = await addKey(server, account.key, { scopes: ['events:read', 'users:read'] });
        const seenByContent = await allEvents(contentOnly.key);
        const seenByUsers = await allEvents(usersOnly.key);
        assert.ok(seenByContent.length > 0 && seenByContent.every((e: Json) => e.type.startsWith('content.')));
        assert.ok(seenByUsers.length > 0 && seenByUsers.every((e: Json) => e.type.startsWith('user.')));
        assert.equal(seenByContent.length + seenByUsers.length, (await allEvents(account.key)).length);
      });
    });

    describe('retention', () => {
      it('prunes events older than 7 days; their ids become expired cursors', async () => {
        const account = await server.account();
        const old = await server.content(account.key, { title: 'Old' });
        const oldEvents = await allEvents(account.key);
        now += 6 * 24 * 3600 * 1000;
        const recent = await server.content(account.key, { title: 'Recent' });
        now += 2 * 24 * 3600 * 1000; // the old events are now 8 days old, the recent ones 2
        await server.app.pruneEvents();

        const kept = await allEvents(account.key);
        assert.deepEqual(kept.map((e: Json) => e.data.id), [recent.id]);
        assert.ok(!kept.some((e: Json) => e.data.id === old.id));
        const res = await server.client.get(`/v1/events?after=${oldEvents[0].id}`, { key: account.key });
        assert.equal(res.status, 410);
        assert.equal(res.body.code, 'cursor_expired');
      });
    });
  });
}
