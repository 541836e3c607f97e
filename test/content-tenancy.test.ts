// Tenancy: an account sees and changes only its own content; another account's ids are 404, never 403.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

function assertNotFound(res: Response): void {
  assert.equal(res.status, 404, res.text);
  assert.equal(res.body.code, 'not_found');
  assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
}

const ids = (res: Response) => (res.body.data as { id: string }[]).map((i) => i.id);

for (const store of testStores()) {
  describe(`content tenancy (${store})`, () => {
    let server: TestServer;
    let alice: TestAccount;
    let bob: TestAccount;
    let aliceItems: Record<string, unknown>[];
    let bobItems: Record<string, unknown>[];
    before(async () => {
      server = await startServer(store);
      alice = await server.account();
      bob = await server.account();
      aliceItems = [
        await server.content(alice.key, { title: 'Alice 1', type: 'blog', status: 'published' }),
        await server.content(alice.key, { title: 'Alice 2', type: 'manual' }),
        await server.content(alice.key, { title: 'Alice 3', type: 'blog' }),
      ];
      bobItems = [await server.content(bob.key, { title: 'Bob 1', type: 'blog' }), await server.content(bob.key, { title: 'Bob 2', type: 'strategy', status: 'published' })];
    });
    after(() => server.close());

    /** Alice's items, read with Alice's key, are exactly as created. */
    async function assertAliceUntouched() {
      for (const item of aliceItems) {
        const got = await server.client.get(`/v1/content/${String(item.id)}`, { key: alice.key });
        assert.equal(got.status, 200);
        assert.deepEqual(got.body.data, item);
      }
      assert.equal((await server.client.get('/v1/content', { key: alice.key })).body.pagination.total, aliceItems.length);
    }

    it('lists only the caller’s own items, with totals of its own', async () => {
      const forAlice = await server.client.get('/v1/content', { key: alice.key });
      const forBob = await server.client.get('/v1/content', { key: bob.key });
      assert.deepEqual(ids(forAlice), aliceItems.map((i) => i.id).reverse());
      assert.equal(forAlice.body.pagination.total, aliceItems.length);
      assert.deepEqual(ids(forBob), bobItems.map((i) => i.id).reverse());
      assert.equal(forBob.body.pagination.total, bobItems.length);
    });

    it('applies filters within the account only', async () => {
      const bobBlogs = await server.client.get('/v1/content?type=blog', { key: bob.key });
      assert.deepEqual(ids(bobBlogs), bobItems.filter((i) => i.type === 'blog').map((i) => i.id));
      assert.equal(bobBlogs.body.pagination.total, 1);
      const bobPublished = await server.client.get('/v1/content?status=published&type=blog', { key: bob.key });
      assert.deepEqual(bobPublished.body.data, []);
      assert.equal(bobPublished.body.pagination.total, 0);
    });

    it('answers 404 not_found to GET, PUT, archive and DELETE of another account’s item', async () => {
      const { client } = server;
      for (const item of aliceItems) {
        const path = `/v1/content/${String(item.id)}`;
        assertNotFound(await client.get(path, { key: bob.key }));
        assertNotFound(await client.put(path, { key: bob.key, json: { title: 'Taken over', status: 'published' } }));
        assertNotFound(await client.post(`${path}/archive`, { key: bob.key }));
        assertNotFound(await client.delete(path, { key: bob.key }));
      }
      await assertAliceUntouched();
    });

    it('answers 404 even with an If-Match that matches the other account’s item', async () => {
      const { client } = server;
      const item = aliceItems[0]!;
      const path = `/v1/content/${String(item.id)}`;
      for (const ifMatch of [`"${String(item.version)}"`, '*']) {
        const headers = { 'if-match': ifMatch };
        assertNotFound(await client.put(path, { key: bob.key, json: { title: 'Taken over' }, headers }));
        assertNotFound(await client.post(`${path}/archive`, { key: bob.key, headers }));
        assertNotFound(await client.delete(path, { key: bob.key, headers }));
      }
      await assertAliceUntouched();
    });

    it('answers another account’s id exactly as an id that never existed', async () => {
      const foreign = await server.client.get(`/v1/content/${String(aliceItems[1]!.id)}`, { key: bob.key });
      const unknown = await server.client.get('/v1/content/content_01jd2x3m4n5p6q7r8s9t0v1w2x', { key: bob.key });
      assertNotFound(foreign);
      assertNotFound(unknown);
      assert.equal(foreign.body.message, unknown.body.message);
    });

    it('lets each account change its own items only', async () => {
      const mine = bobItems[0]!;
      const res = await server.client.put(`/v1/content/${String(mine.id)}`, { key: bob.key, json: { title: 'Bob renamed' } });
      assert.equal(res.status, 200);
      assert.equal(res.body.data.title, 'Bob renamed');
      assertNotFound(await server.client.get(`/v1/content/${String(mine.id)}`, { key: alice.key }));
      await assertAliceUntouched();
    });
  });
}
