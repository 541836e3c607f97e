// The lock order of webhook delivery outcomes on PostgreSQL (SQLite has one writer and cannot
// deadlock): a failure that disables an endpoint and a success on the same endpoint, or a worker
// renewing or releasing its claims, finishing at the same moment, must both commit. Driven through the delivery service itself (the worker's side,
// which no HTTP request reaches), with a third connection holding the endpoint's row so that the
// two meet in the worst order: the failure gets the endpoint first, the success waits behind it.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import type { AttemptResult, OutgoingAttempt } from '../src/domain/webhooks/deliveries.js';
import { openServices } from '../src/services.js';
import { createPostgresDatabase } from './helpers/stores.js';
import { uniqueEmail } from './helpers/people.js';

const LEASE = 'lock-order-test';
const answered = (status: number): AttemptResult => ({ status, error: null, durationMs: 5, attemptedAt: new Date() });

if (process.env.TEST_DATABASE_URL) {
  describe('webhook delivery outcomes, claims and the endpoint row (postgres)', () => {
    let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
    let dataDir: string;
    let services: Awaited<ReturnType<typeof openServices>>;
    /** Holds the endpoint's row; the observer watches who waits (a transaction sees one snapshot of the statistics). */
    let holder: pg.Client;
    let observer: pg.Client;

    before(async () => {
      database = await createPostgresDatabase();
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-lock-order-'));
      const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE: 'true' });
      services = await openServices(config);
      holder = new pg.Client({ connectionString: database.url });
      observer = new pg.Client({ connectionString: database.url });
      await Promise.all([holder.connect(), observer.connect()]);
    });
    after(async () => {
      await Promise.all([holder.end(), observer.end()]);
      await services.close();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    });

    /** Backends of the test database waiting for a lock. */
    async function waitingForLocks(): Promise<number> {
      const { rows } = await observer.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      return rows[0]!.n;
    }
    async function untilWaiting(count: number): Promise<void> {
      const deadline = Date.now() + 5000;
      while ((await waitingForLocks()) < count) {
        assert.ok(Date.now() < deadline, `${count} transaction(s) never came to wait for a lock`);
        await sleep(10);
      }
    }

    /** A Pro account with an endpoint and `pings` attempts queued and claimed. */
    async function endpointWithAttempts(pings: number) {
      const account = await services.accounts.createAccount({ email: uniqueEmail('lock-order'), plan: 'pro' });
      const principal = (await services.auth.authenticate(account.api_key))!;
      const endpoint = await services.webhooks.create(principal, { url: 'https://127.0.0.1:9/hook', events: ['*'] });
      for (let i = 0; i < pings; i++) await services.webhooks.test(principal, endpoint.id);
      const claimed = await services.webhookDeliveries.claim(LEASE, 60_000, { total: 10, freeFor: () => 10, saturated: [] });
      assert.equal(claimed.length, pings);
      return { principal, endpoint, claimed };
    }

    const settledAs = async (work: Promise<unknown>[]) =>
      (await Promise.allSettled(work)).map((o) => (o.status === 'rejected' ? String(o.reason) : o.status));

    it('commits a success and a failure that disables the endpoint, finishing together', async () => {
      const { principal, endpoint, claimed } = await endpointWithAttempts(3);
      const [first, failing, succeeding] = claimed as [OutgoingAttempt, OutgoingAttempt, OutgoingAttempt];
      // A first failure starts a run of failures, which the success will want to end (its write to the endpoint).
      await services.webhookDeliveries.finish(first, LEASE, answered(500));

      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM webhook_endpoints WHERE id = $1 FOR UPDATE', [endpoint.id]);
      const failure = services.webhookDeliveries.finish(failing, LEASE, answered(410));
      await untilWaiting(1);
      const success = services.webhookDeliveries.finish(succeeding, LEASE, answered(200));
      await untilWaiting(2);
      await holder.query('COMMIT');
      // In the old order the success held its delivery row while waiting for the endpoint, and the
      // failure, holding the endpoint, waited for that row to cancel it: PostgreSQL aborted one.
      assert.deepEqual(await settledAs([failure, success]), ['fulfilled', 'fulfilled']);

      const after = await services.webhooks.get(principal, endpoint.id);
      assert.equal(after.enabled, false);
      assert.equal(after.disabled_reason, 'gone');
      const records = (await services.webhooks.listDeliveries(principal, endpoint.id, { limit: 100 })).data;
      const byId = new Map(records.map((r) => [r.id, r]));
      assert.equal(byId.get(failing.id)?.response_status, 410);
      // The failure got the endpoint first and cancelled every pending attempt, the succeeding one
      // included; the success then found its attempt no longer pending and recorded nothing.
      assert.equal(byId.get(succeeding.id)?.status, 'failed');
      assert.deepEqual(records.filter((r) => r.status === 'pending'), []);
    });


    it('commits a success and a PUT that disables the endpoint, finishing together', async () => {
      const { principal, endpoint, claimed } = await endpointWithAttempts(1);
      const [succeeding] = claimed as [OutgoingAttempt];
      // The attempt's row is busy a moment (another transaction on it), so that the PUT, which
      // cancels pending attempts, has to wait for it; the success comes while it waits.
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM webhook_deliveries WHERE id = $1 FOR UPDATE', [succeeding.id]);
      const disable = services.webhooks.update(principal, endpoint.id, { enabled: false });
      await untilWaiting(1);
      const success = services.webhookDeliveries.finish(succeeding, LEASE, answered(200));
      await untilWaiting(2);
      await holder.query('COMMIT');
      // A PUT that cancelled the pending rows before locking the endpoint would hold this attempt's
      // row while waiting for the endpoint, which the success (endpoint first) holds.
      assert.deepEqual(await settledAs([disable, success]), ['fulfilled', 'fulfilled']);
      const records = (await services.webhooks.listDeliveries(principal, endpoint.id, { limit: 100 })).data;
      assert.deepEqual(
        records.map((r) => [r.id, r.status]),
        [[succeeding.id, 'failed']],
        'cancelled by the PUT, which got the endpoint first',
      );
    });

    // Renewing (every lease interval) and releasing (at shutdown) a worker's claims touch many
    // delivery rows in one statement, in id order; a failure that disables the endpoint cancels its
    // pending rows in an order of its own. The worst interleaving: the failure holds its own row and
    // waits for the others, which a renewal took (in id order) before coming to wait for the
    // failure's row — a deadlock, which PostgreSQL broke by aborting one of them. Renewal and release
    // now skip rows another transaction holds (that transaction finishes or cancels them) and never wait.
    for (const operation of ['renew', 'release'] as const) {
      it(`commits a ${operation} of a worker's claims and a failure that cancels them, finishing together`, async () => {
        const { principal, endpoint, claimed } = await endpointWithAttempts(3);
        const ids = claimed.map((a) => a.id).sort();
        const failing = claimed.find((a) => a.id === ids[2])!;
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM webhook_deliveries WHERE id = $1 FOR UPDATE', [failing.id]);
        const failure = services.webhookDeliveries.finish(failing, LEASE, answered(410));
        await untilWaiting(1);
        const other = operation === 'renew' ? services.webhookDeliveries.renew(ids, LEASE, 60_000) : services.webhookDeliveries.release(ids, LEASE);
        // The worst order: the failing row is busy while the renewal or release runs (it would wait).
        let settled = false;
        void other.then(() => (settled = true), () => (settled = true));
        const deadline = Date.now() + 5000;
        while (!settled && (await waitingForLocks()) < 2) {
          assert.ok(Date.now() < deadline, `the ${operation} neither finished nor came to wait`);
          await sleep(10);
        }
        await holder.query('COMMIT');
        assert.deepEqual(await settledAs([failure, other]), ['fulfilled', 'fulfilled']);

        const records = (await services.webhooks.listDeliveries(principal, endpoint.id, { limit: 100 })).data;
        assert.deepEqual(records.map((r) => r.status), ['failed', 'failed', 'failed'], 'the 410 and the two it cancelled');
        assert.equal(records.find((r) => r.id === failing.id)?.response_status, 410);
        assert.equal((await services.webhooks.get(principal, endpoint.id)).enabled, false);
      });
    }
  });
}
