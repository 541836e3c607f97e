// Requests per day (GET /v1/usage `days`, docs/limits.md): every UTC day of the cycle up to today,
// zeros included, counted from 2xx answers in the same batched write as the quota (kept across a
// restart), per account.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../src/storage/db.js';
import { manualClock } from './helpers/limits.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

for (const store of testStores()) {
  describe(`usage per day (${store})`, () => {
    const time = manualClock('2027-07-10T09:00:00.000Z');
    let server: TestServer;
    before(async () => {
      server = await startServer(store, { clock: time.clock });
    });
    after(() => server.close());

    it('lists every day of the cycle with its 2xx requests, and keeps them in the store', async () => {
      const { key, accountId } = await server.account();
      const other = await server.account();
      const c = server.client;
      time.set('2027-07-11T23:59:00.000Z');
      for (let i = 0; i < 3; i++) assert.equal((await c.get('/v1/content', { key })).status, 200);
      assert.equal((await c.get('/v1/content?limit=0', { key })).status, 400, 'a 4xx is not counted');
      assert.equal((await c.get('/v1/content', { key: other.key })).status, 200, 'another account');
      time.set('2027-07-13T00:00:01.000Z');
      for (let i = 0; i < 2; i++) assert.equal((await c.get('/v1/content', { key })).status, 200);

      const res = await c.get('/v1/usage', { key });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data.days, [
        { date: '2027-07-10', used: 0 },
        { date: '2027-07-11', used: 3 },
        { date: '2027-07-12', used: 0 },
        { date: '2027-07-13', used: 2 },
      ]);
      assert.equal(res.body.data.used, 6, 'the quota count agrees (this request included)');

      // Shutdown writes what was gathered in memory; the figures are then in the store itself.
      await server.app.shutdown();
      const reopened = openStore(server.app.config.store);
      try {
        const rows = await reopened.db.selectFrom('usage_days').select(['day', 'used']).where('account_id', '=', accountId).orderBy('day').execute();
        assert.deepEqual(rows.map((r) => [r.day, Number(r.used)]), [['2027-07-11', 3], ['2027-07-13', 3]], 'the usage request itself counted once answered');
      } finally {
        await reopened.close();
      }
    });
  });
}
