// Idempotency-Key on every POST under /v1 (CONTRACT.md §17): a repeat gets the first response
// (Idempotent-Replayed: true, a fresh meta, no one-time secret) and changes nothing; another path,
// body or user is 422; a request still running is 409; the key is per account, kept 24 hours, in
// the store (so a second instance sees it); a bad key is 400.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Response } from './helpers/client.js';
import { startSecondInstance, type SecondInstance } from './helpers/instance.js';
import { addKey, addUser } from './helpers/people.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { manualClock } from './helpers/limits.js';

const ITEM = { title: 'Once only', type: 'blog', content: 'Made once.' };

for (const store of testStores()) {
  describe(`idempotency keys (${store})`, () => {
    const time = manualClock('2037-01-01T00:00:00.000Z');
    let server: TestServer;
    let owner: TestAccount;
    let second: SecondInstance;
    before(async () => {
      server = await startServer(store, { clock: time.clock, env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
      owner = await server.account();
      second = await startSecondInstance(server, { clock: time.clock });
    });
    after(async () => {
      await second.close();
      await server.close();
    });

    let n = 0;
    const newKey = () => `key-${++n}-${Date.now()}`;
    const post = (path: string, key: string, json?: unknown, account = owner.key, client = server.client) =>
      client.post(path, { key: account, json, headers: { 'idempotency-key': key } });
    const count = async (title: string) =>
      Number((await sql<{ n: number }>`SELECT count(*) AS n FROM content WHERE title = ${title}`.execute(server.app.store.db)).rows[0]!.n);
    const events = async (id: string) =>
      ((await server.client.get('/v1/events?limit=100', { key: owner.key })).body.data as { id: string; type: string; data: { id: string } }[]).filter((e) => e.data.id === id);

    function assertReplay(first: Response, again: Response): void {
      assert.equal(again.status, first.status);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const { meta: firstMeta, ...firstBody } = first.body;
      const { meta, ...body } = again.body;
      assert.deepEqual(body, firstBody);
      assert.equal(meta.request_id, again.headers['x-request-id']);
      assert.notEqual(meta.request_id, firstMeta.request_id);
      assert.match(meta.response_time, /^\d+\.\d\dms$/);
    }

    it('replays the first response to a repeat and creates one item, one event, one webhook delivery', async () => {
      const hook = await server.client.post('/v1/webhooks', { key: owner.key, json: { url: 'https://127.0.0.1:9/hook', events: ['content.created'] } });
      assert.equal(hook.status, 201, hook.text);
      const key = newKey();
      const title = `${ITEM.title} ${key}`;
      const first = await post('/v1/content', key, { ...ITEM, title });
      assert.equal(first.status, 201, first.text);
      for (const again of [await post('/v1/content', key, { ...ITEM, title }), await post('/v1/content', key, { title, content: ITEM.content, type: 'blog' })]) {
        assertReplay(first, again);
        assert.equal(again.headers.location, first.headers.location);
        assert.equal(again.headers.etag, first.headers.etag);
      }
      assert.equal(await count(title), 1);
      assert.deepEqual((await events(first.body.data.id)).map((e) => e.type), ['content.created']);
      // Every attempt is a record (the target refuses, so it is retried): one event, one delivery.
      const deliveries = (await server.client.get(`/v1/webhooks/${hook.body.data.id}/deliveries?limit=100`, { key: owner.key })).body.data as { event_id: string; attempt: number }[];
      assert.deepEqual([...new Set(deliveries.map((d) => d.event_id))], [(await events(first.body.data.id))[0]!.id]);
      assert.equal(deliveries.filter((d) => d.attempt === 1).length, 1);
      await server.client.delete(`/v1/webhooks/${hook.body.data.id}`, { key: owner.key });
    });

    it('answers the repeat on another instance too, from the shared store', async () => {
      const key = newKey();
      const title = `Across ${key}`;
      const first = await post('/v1/content', key, { ...ITEM, title });
      assertReplay(first, await post('/v1/content', key, { ...ITEM, title }, owner.key, second.client));
      assert.equal(await count(title), 1);
    });

    it('runs a request once when repeats race on two instances', async () => {
      const key = newKey();
      const title = `Raced ${key}`;
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => post('/v1/content', key, { ...ITEM, title }, owner.key, i % 2 ? second.client : server.client)));
      const fresh = answers.filter((a) => a.status === 201 && a.headers['idempotent-replayed'] === undefined);
      assert.equal(fresh.length, 1, answers.map((a) => `${a.status} ${a.body?.code ?? ''}`).join(', '));
      for (const answer of answers) {
        if (answer === fresh[0]) continue;
        if (answer.status === 409) assert.equal(answer.body.code, 'idempotency_key_in_use');
        else assertReplay(fresh[0]!, answer);
      }
      assert.equal(await count(title), 1);
    });

    it('refuses the key for another path, body or user with 422 idempotency_key_reused', async () => {
      const key = newKey();
      const first = await post('/v1/content', key, { ...ITEM, title: `Reused ${key}` });
      assert.equal(first.status, 201);
      const editor = (await addKey(server, owner.key, { user_id: (await addUser(server, owner.key, 'editor')).id })).key;
      const others = [
        await post('/v1/content', key, { ...ITEM, title: 'Another body' }),
        await post(`/v1/content/${first.body.data.id}/archive`, key),
        await post('/v1/content?x=1', key, { ...ITEM, title: `Reused ${key}` }),
        await post('/v1/content', key, { ...ITEM, title: `Reused ${key}` }, editor),
      ];
      for (const res of others) {
        assert.equal(res.status, 422, res.text);
        assert.equal(res.body.code, 'idempotency_key_reused');
      }
      assert.equal((await server.client.get(`/v1/content/${first.body.data.id}`, { key: owner.key })).body.data.status, 'draft');
      // The key is the account's own: another account uses the same key freely.
      const other = await server.account();
      assert.equal((await post('/v1/content', key, { ...ITEM, title: `Reused ${key}` }, other.key)).status, 201);
    });

    it('takes a body with its members in another order as the same request, and a changed nested value as another', async () => {
      const key = newKey();
      const title = `Batch ${key}`;
      const operations = [{ op: 'create', data: { title, type: 'blog', content: 'One.', fields: {} } }];
      const first = await post('/v1/content/batch', key, { atomic: true, operations });
      assert.equal(first.status, 200, first.text);
      const reordered = { operations: [{ data: { fields: {}, content: 'One.', type: 'blog', title }, op: 'create' }], atomic: true };
      assertReplay(first, await post('/v1/content/batch', key, reordered));
      assert.equal(await count(title), 1);
      // The fingerprint stays what earlier versions stored, so a key claimed before an upgrade still
      // matches its repeat after it: SHA-256 of [method, path, user, body] as JSON, keys in order.
      const sorted = (value: unknown): unknown =>
        Array.isArray(value) ? value.map(sorted) : value && typeof value === 'object' ? new Map(Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])])) : value;
      const json = (value: unknown): string =>
        value instanceof Map ? `{${[...value].map(([k, v]) => `${JSON.stringify(k)}:${json(v)}`).join(',')}}` : Array.isArray(value) ? `[${value.map(json).join(',')}]` : JSON.stringify(value);
      const expected = createHash('sha256').update(json(sorted(['POST', '/v1/content/batch', owner.userId, { atomic: true, operations }]))).digest('base64url');
      const stored = await sql<{ fingerprint: string }>`SELECT fingerprint FROM idempotency_keys WHERE account_id = ${owner.accountId} AND key = ${key}`.execute(server.app.store.db);
      assert.equal(stored.rows[0]!.fingerprint, expected);
      const changed = await post('/v1/content/batch', key, { atomic: true, operations: [{ op: 'create', data: { title, type: 'blog', content: 'Two.', fields: {} } }] });
      assert.equal(changed.status, 422, changed.text);
      assert.equal(changed.body.code, 'idempotency_key_reused');
      assert.equal(await count(title), 1);
    });

    it('keeps a 4xx first answer too, and replays it', async () => {
      const key = newKey();
      const bad = await post('/v1/content', key, { title: '', type: 'novel' });
      assert.equal(bad.status, 422);
      assertReplay(bad, await post('/v1/content', key, { title: '', type: 'novel' }));
      const missing = newKey();
      const gone = await post('/v1/content/content_00000000000000000000000000/archive', missing);
      assert.equal(gone.status, 404);
      assertReplay(gone, await post('/v1/content/content_00000000000000000000000000/archive', missing));
    });

    it('keeps no answer given before the scope check, and keeps a 403 the route decides', async () => {
      const viewer = (await addKey(server, owner.key, { user_id: (await addUser(server, owner.key, 'viewer')).id })).key;
      const key = newKey();
      const refused = await post('/v1/content', key, ITEM, viewer);
      assert.equal(refused.status, 403);
      const rows = await server.app.store.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).execute();
      assert.deepEqual(rows, []);
      const author = (await addKey(server, owner.key, { user_id: (await addUser(server, owner.key, 'author')).id })).key;
      const item = await server.content(owner.key);
      const archiveKey = newKey();
      const notTheirs = await post(`/v1/content/${item.id}/archive`, archiveKey, undefined, author);
      assert.equal(notTheirs.status, 403);
      assertReplay(notTheirs, await post(`/v1/content/${item.id}/archive`, archiveKey, undefined, author));
    });

    it('replays a created key or webhook without the one-time secret, which is never stored', async () => {
      const key = newKey();
      const created = await post('/v1/api-keys', key, { name: 'replayed' });
      assert.equal(created.status, 201);
      assert.match(created.body.data.key, /^cms_live_/);
      const again = await post('/v1/api-keys', key, { name: 'replayed' });
      assert.equal(again.status, 201);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      const { key: _secret, ...record } = created.body.data;
      assert.deepEqual(again.body.data, record);
      assert.equal(again.headers.location, created.headers.location);

      const hookKey = newKey();
      const hook = await post('/v1/webhooks', hookKey, { url: 'https://127.0.0.1:9/hook', events: ['*'] });
      assert.match(hook.body.data.secret, /^whsec_/);
      const hookAgain = await post('/v1/webhooks', hookKey, { url: 'https://127.0.0.1:9/hook', events: ['*'] });
      assert.equal(hookAgain.body.data.secret, undefined);
      assert.equal(hookAgain.body.data.id, hook.body.data.id);

      const stored = await sql<{ response_body: string }>`SELECT response_body FROM idempotency_keys`.execute(server.app.store.db);
      const all = stored.rows.map((r) => r.response_body ?? '').join('\n');
      assert.ok(!all.includes(created.body.data.key));
      assert.ok(!all.includes(hook.body.data.secret));
      assert.ok(!all.includes('request_id'));
    });

    it('works on every kind of POST: archive, restore, users, test pings', async () => {
      const item = await server.content(owner.key);
      const key = newKey();
      const archived = await post(`/v1/content/${item.id}/archive`, key);
      assertReplay(archived, await post(`/v1/content/${item.id}/archive`, key));
      await server.client.put(`/v1/content/${item.id}`, { key: owner.key, json: { status: 'draft' } });
      const restoreKey = newKey();
      const restored = await post(`/v1/content/${item.id}/revisions/1/restore`, restoreKey);
      assert.equal(restored.body.data.version, 4);
      assertReplay(restored, await post(`/v1/content/${item.id}/revisions/1/restore`, restoreKey));
      assert.equal((await server.client.get(`/v1/content/${item.id}`, { key: owner.key })).body.data.version, 4);
      const userKey = newKey();
      const email = `idem-${userKey}@example.com`;
      const user = await post('/v1/users', userKey, { email, name: 'Once', role: 'viewer' });
      assert.equal(user.status, 201, user.text);
      assertReplay(user, await post('/v1/users', userKey, { email, name: 'Once', role: 'viewer' }));
    });

    it('ignores the header on methods other than POST', async () => {
      const item = await server.content(owner.key);
      const key = newKey();
      for (let i = 0; i < 2; i++) {
        const res = await server.client.put(`/v1/content/${item.id}`, { key: owner.key, json: { title: 'Again' }, headers: { 'idempotency-key': key } });
        assert.equal(res.status, 200);
        assert.equal(res.headers['idempotent-replayed'], undefined);
      }
      assert.equal((await server.client.get(`/v1/content/${item.id}`, { key: owner.key })).body.data.version, 3);
    });

    it('refuses a key that is empty, too long or not printable ASCII, naming Idempotency-Key', async () => {
      for (const [key, code] of [['', 'invalid_value'], ['x'.repeat(256), 'too_long'], ['tab\there', 'invalid_format'], ['naïve', 'invalid_format']] as const) {
        const res = await server.client.post('/v1/content', { key: owner.key, json: ITEM, headers: { 'idempotency-key': key } });
        assert.equal(res.status, 400, `${JSON.stringify(key)}: ${res.text}`);
        assert.equal(res.body.code, 'invalid_parameter');
        assert.deepEqual(res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]), [['Idempotency-Key', code]]);
      }
      assert.equal((await post('/v1/content', 'x'.repeat(255), { ...ITEM, title: 'Longest key' })).status, 201);
      assert.equal((await post('/v1/content', ' !~{}"\'', { ...ITEM, title: 'Odd key' })).status, 201);
    });

    it('answers 409 idempotency_response_lost when the change was applied but the response never stored', async () => {
      const key = newKey();
      const title = `Lost ${key}`;
      const first = await post('/v1/content', key, { ...ITEM, title });
      // What a crash between the change's commit and the storing of its response leaves behind.
      await server.app.store.db.updateTable('idempotency_keys').set({ state: 'applied', response_status: null, response_body: null, locked_until: '2000-01-01T00:00:00.000Z' })
        .where('key', '=', key).execute();
      const again = await post('/v1/content', key, { ...ITEM, title });
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'idempotency_response_lost');
      assert.equal(await count(title), 1);
      assert.equal(first.status, 201);
    });

    it('keeps a key 24 hours; after that the same key is a new request', async () => {
      const key = newKey();
      const title = `Day ${key}`;
      const first = await post('/v1/content', key, { ...ITEM, title });
      time.advance(23 * 3_600_000);
      assertReplay(first, await post('/v1/content', key, { ...ITEM, title }));
      time.advance(3_600_000 + 1000);
      const later = await post('/v1/content', key, { ...ITEM, title });
      assert.equal(later.status, 201);
      assert.equal(later.headers['idempotent-replayed'], undefined);
      assert.notEqual(later.body.data.id, first.body.data.id);
      assert.equal(await count(title), 2);
    });
  });
}
