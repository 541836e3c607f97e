// `api_key.usage_alert` events (CONTRACT.md §9, §10) as they land in the event log: at 80 % and
// 100 % of the quota and at the first 429 of an hourly window, once each per cycle or window —
// also when several instances see the threshold, and after a restart.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSecondInstance } from './helpers/instance.js';
import { countersEnv, counterKinds, eventually, manualClock, usageAlerts, type StoredAlert } from './helpers/limits.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { openStore } from '../src/storage/db.js';

const HOUR = 3_600_000;

/** Shuts the server down (every alert written, usage flushed), then reads the event log. */
async function finalAlerts(server: TestServer, accountIds: string[]): Promise<StoredAlert[][]> {
  await server.app.shutdown();
  const store = openStore(server.app.config.store);
  try {
    return await Promise.all(accountIds.map((id) => usageAlerts(store.db, id)));
  } finally {
    await store.close();
  }
}

const dataOf = (alerts: StoredAlert[]) => alerts.map((a) => a.data);

for (const store of testStores()) {
  for (const counters of counterKinds()) {
    describe(`usage alerts (${store}, ${counters} counters)`, () => {
      const time = manualClock('2027-05-10T08:00:00.000Z');
      const redis = countersEnv(counters);
      let server: TestServer;
      before(async () => {
        server = await startServer(store, { env: redis.env, clock: time.clock });
      });
      after(async () => {
        await server.close();
        await redis.cleanup();
      });

      const alertsOf = (accountId: string, count: number) =>
        eventually(async () => {
          const alerts = await usageAlerts(server.app.store.db, accountId);
          return alerts.length >= count && alerts;
        }, `${count} usage alert(s)`);

      let quotaAccount = '';
      let rateAccount = '';

      it('announces 80 % and 100 % of the quota once each per cycle, 80 % first', async () => {
        const { key, accountId } = await server.account({ plan: 'basic', quota: 10 });
        quotaAccount = accountId;
        const get = () => server.client.get('/v1/content', { key });
        for (let i = 0; i < 7; i++) assert.equal((await get()).status, 200);
        assert.equal((await get()).status, 200); // the 8th: ⌈0.8 × 10⌉
        assert.deepEqual(dataOf(await alertsOf(accountId, 1)), [
          { kind: 'quota', threshold: 80, used: 8, limit: 10, period_end: '2027-06-10T00:00:00.000Z' },
        ]);
        assert.equal((await get()).status, 200);
        assert.equal((await get()).status, 200);
        for (let i = 0; i < 3; i++) assert.equal((await get()).body.code, 'quota_exceeded');
        const both = await alertsOf(accountId, 2);
        assert.deepEqual(dataOf(both)[1], { kind: 'quota', threshold: 100, used: 10, limit: 10, period_end: '2027-06-10T00:00:00.000Z' });
        assert.ok(both[0]!.seq < both[1]!.seq);
        assert.match(both[0]!.id, /^evt_[0-9a-z]{26}$/);
        assert.equal(both[0]!.created_at, new Date(time.now()).toISOString());

        time.set('2027-06-10T00:00:00.000Z');
        for (let i = 0; i < 8; i++) assert.equal((await get()).status, 200);
        assert.deepEqual(dataOf(await alertsOf(accountId, 3))[2], {
          kind: 'quota', threshold: 80, used: 8, limit: 10, period_end: '2027-07-10T00:00:00.000Z',
        });
      });

      it('announces the first 429 of each hourly window, once', async () => {
        time.set('2027-05-10T08:00:00.000Z');
        const { key, accountId } = await server.account({ plan: 'enterprise', rateLimit: 3 });
        rateAccount = accountId;
        const get = () => server.client.get('/v1/content', { key });
        const opened = time.now();
        for (let i = 0; i < 3; i++) assert.equal((await get()).status, 200);
        for (let i = 0; i < 4; i++) assert.equal((await get()).body.code, 'rate_limited');
        assert.deepEqual(dataOf(await alertsOf(accountId, 1)), [
          { kind: 'rate_limit', threshold: null, used: 4, limit: 3, period_end: new Date(opened + HOUR).toISOString() },
        ]);
        // 404s and quota refusals are not rate-limit 429s; the next window gets its own alert.
        time.set(new Date(opened + HOUR).toISOString());
        for (let i = 0; i < 3; i++) assert.equal((await get()).status, 200);
        assert.equal((await server.client.get('/v1/nowhere', { key })).status, 404);
        assert.equal((await get()).body.code, 'rate_limited');
        assert.deepEqual(dataOf(await alertsOf(accountId, 2))[1], {
          kind: 'rate_limit', threshold: null, used: 5, limit: 3, period_end: new Date(opened + 2 * HOUR).toISOString(),
        });
      });

      it('wrote nothing more than those five alerts', async () => {
        const [quota, rate] = await finalAlerts(server, [quotaAccount, rateAccount]);
        assert.deepEqual(quota!.map((a) => `${a.data.threshold} ${a.data.period_end}`), [
          '80 2027-06-10T00:00:00.000Z',
          '100 2027-06-10T00:00:00.000Z',
          '80 2027-07-10T00:00:00.000Z',
        ]);
        assert.equal(rate!.length, 2);
      });
    });

    describe(`quota alerts not written when the quota was reached (${store}, ${counters} counters)`, () => {
      const quotaAlerts = (events: { type: string; data: StoredAlert['data'] }[]) =>
        events.filter((e) => e.type === 'api_key.usage_alert' && e.data.kind === 'quota').map((e) => e.data);

      it('are announced by the next refusal when the first write was lost, exactly once', async () => {
        const time = manualClock('2027-05-10T08:00:00.000Z');
        const redis = countersEnv(counters);
        const server = await startServer(store, { env: redis.env, clock: time.clock });
        try {
          const { key, accountId } = await server.account({ plan: 'basic', quota: 5 });
          // Late in the cycle, so that the next one (when requests pass again) reads the log soon after.
          time.set('2027-06-09T23:00:00.000Z');
          for (let i = 0; i < 5; i++) assert.equal((await server.client.get('/v1/content', { key })).status, 200);
          const hundred = (await eventually(async () => (await usageAlerts(server.app.store.db, accountId))[1], 'the 100 % alert'))!;
          assert.equal(hundred.data.threshold, 100);
          await server.app.shutdown();
          // What a failed write of the 100 % alert (a brief store error, or a crash just after the
          // fifth answer) leaves: that answer counted, neither the event nor its marker written, and
          // no instance that remembers announcing it. Every later request is refused.
          const direct = openStore(server.app.config.store);
          try {
            await direct.db.deleteFrom('events').where('id', '=', hundred.id).execute();
            await direct.db.deleteFrom('usage_alerts').where('account_id', '=', accountId).where('marker', '=', 'quota:100:2027-05-10T00:00:00.000Z').execute();
          } finally {
            await direct.close();
          }
          const next = await startSecondInstance(server, { env: redis.env, clock: time.clock });
          try {
            for (let i = 0; i < 3; i++) assert.equal((await next.client.get('/v1/content', { key })).body.code, 'quota_exceeded');
            await eventually(async () => (await usageAlerts(next.app.store.db, accountId)).length >= 2, 'the 100 % alert again');
            // The new cycle: requests pass, and the client reads the log.
            time.set('2027-06-10T00:00:00.000Z');
            const res = await next.client.get('/v1/events?limit=100', { key });
            assert.equal(res.status, 200, res.text);
            assert.deepEqual(quotaAlerts(res.body.data), [
              { kind: 'quota', threshold: 80, used: 4, limit: 5, period_end: '2027-06-10T00:00:00.000Z' },
              { kind: 'quota', threshold: 100, used: 5, limit: 5, period_end: '2027-06-10T00:00:00.000Z' },
            ]);
          } finally {
            await next.close();
          }
        } finally {
          await server.close();
          await redis.cleanup();
        }
      });

      it('are announced by the first refusal when the operator lowers the quota below the usage, once', async () => {
        const time = manualClock('2027-05-10T08:00:00.000Z');
        const redis = countersEnv(counters);
        const server = await startServer(store, { env: redis.env, clock: time.clock });
        try {
          const { key, accountId } = await server.account({ plan: 'basic', quota: 10 });
          for (let i = 0; i < 5; i++) assert.equal((await server.client.get('/v1/content', { key })).status, 200);
          // No answer will ever reach 80 % or 100 % of the new quota: it is already past both.
          await server.app.accounts.setPlan(accountId, 'basic', undefined, 5);
          time.advance(1000); // a key's account figures are kept for up to a second
          for (let i = 0; i < 3; i++) assert.equal((await server.client.get('/v1/content', { key })).body.code, 'quota_exceeded');
          await eventually(async () => (await usageAlerts(server.app.store.db, accountId)).length >= 2, 'both quota alerts');
          // The operator gives the quota back; requests pass again, up to and past 80 % of it.
          await server.app.accounts.setPlan(accountId, 'basic', undefined, 10);
          time.advance(1000);
          for (let i = 0; i < 3; i++) assert.equal((await server.client.get('/v1/content', { key })).status, 200);
          const res = await server.client.get('/v1/events?limit=100', { key });
          assert.equal(res.status, 200, res.text);
          assert.deepEqual(quotaAlerts(res.body.data), [
            { kind: 'quota', threshold: 80, used: 5, limit: 5, period_end: '2027-06-10T00:00:00.000Z' },
            { kind: 'quota', threshold: 100, used: 5, limit: 5, period_end: '2027-06-10T00:00:00.000Z' },
          ]);
        } finally {
          await server.close();
          await redis.cleanup();
        }
      });
    });

    describe(`usage alerts across instances and restarts (${store}, ${counters} counters)`, () => {
      it('are announced once when two instances see the threshold, and not again after a restart', async () => {
        const time = manualClock('2027-05-10T08:00:00.000Z');
        const redis = countersEnv(counters);
        const server = await startServer(store, { env: redis.env, clock: time.clock });
        try {
          const { key, accountId } = await server.account({ plan: 'basic', quota: 10 });
          const other = await startSecondInstance(server, { env: redis.env, clock: time.clock });
          try {
            // With Redis the instances share one count, so alternate: both see the 80 % threshold
            // crossed (at 8 and at 9) and both try to announce it. In memory each counts its own.
            const via = (i: number) => (counters === 'redis' && i % 2 ? other.client : server.client);
            for (let i = 0; i < 9; i++) assert.equal((await via(i).get('/v1/content', { key })).status, 200);
            await eventually(async () => (await usageAlerts(server.app.store.db, accountId)).length >= 1, 'the 80 % alert');
          } finally {
            await other.close();
          }
          // A restart: the first instance goes (flushing its counts), a new one takes over the store.
          await server.app.shutdown();
          const restarted = await startSecondInstance(server, { env: redis.env, clock: time.clock });
          try {
            for (let i = 0; i < 6; i++) await restarted.client.get('/v1/content', { key });
          } finally {
            await restarted.close();
          }
          const [alerts] = await finalAlerts(server, [accountId]);
          // After the restart the 10th request crosses both thresholds again as far as the new
          // process knows; the marker rows let only the 100 % one through.
          assert.deepEqual(alerts!.map((a) => [a.data.threshold, a.data.limit]), [
            [80, 10],
            [100, 10],
          ]);
        } finally {
          await server.close();
          await redis.cleanup();
        }
      });
    });
  }
}
