// A bulk job across a kill -9 (CONTRACT.md §21), with the real server as a child process: killed
// halfway through "archive every draft", the restarted server goes on once the job's lease lapses
// and ends with exact counts — every draft archived once (one event each), none skipped, none twice.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from './helpers/client.js';
import { killChildren, killHard, withServerProcesses } from './helpers/process.js';
import { testStores } from './helpers/stores.js';

const ITEMS = 2000;

async function allEvents(client: Client, key: string): Promise<{ type: string; data: { id: string } }[]> {
  const seen: { type: string; data: { id: string } }[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page = await client.get(`/v1/events?limit=100${cursor ? `&after=${cursor}` : ''}`, { key });
    assert.equal(page.status, 200, page.text);
    if (page.body.data.length === 0) return seen;
    seen.push(...page.body.data);
    cursor = page.body.pagination.next_after;
  }
}

describe('bulk job processes', () => {
  after(() => killChildren());
  for (const store of testStores()) {
    it(`resumes a job after kill -9 with nothing done twice or skipped (${store})`, () =>
      withServerProcesses(store, async ({ env, start }) => {
        const withLease = { ...env, WEBHOOK_LEASE_SECONDS: '2' };
        const first = await start(withLease, true);
        const { key } = first;
        const client = first.server.client;
        for (let i = 0; i < ITEMS; i += 100) {
          const operations = Array.from({ length: 100 }, (_, j) => ({ op: 'create', data: { title: `Draft ${i + j}`, type: 'blog', content: 'Body' } }));
          const res = await client.post('/v1/content/batch', { key, json: { operations } });
          assert.equal(res.status, 200, res.text);
        }
        const created = await client.post('/v1/content/bulk', { key, json: { action: 'archive', filter: { status: 'draft' } } });
        assert.equal(created.status, 202, created.text);
        const id = created.body.data.id as string;
        assert.equal(created.body.data.total, ITEMS);

        // Halfway: some chunks done, more to do; then the process dies without a word.
        let atKill: { done: number; status: string };
        for (;;) {
          atKill = (await client.get(`/v1/jobs/${id}`, { key })).body.data;
          if (atKill.done > 0) break;
          await sleep(10);
        }
        await killHard(first.server);
        assert.equal(atKill.status, 'running');
        assert.ok(atKill.done < ITEMS, `killed at ${atKill.done} of ${ITEMS}`);

        const second = await start(withLease);
        const again = second.server.client;
        const deadline = Date.now() + 120_000;
        let job: { status: string; done: number; failed: number; total: number };
        for (;;) {
          job = (await again.get(`/v1/jobs/${id}`, { key })).body.data;
          if (job.status !== 'running' && job.status !== 'queued') break;
          assert.ok(Date.now() < deadline, `job still ${job.status} at ${job.done}`);
          await sleep(200);
        }
        assert.equal(job.status, 'succeeded');
        assert.equal(job.done, ITEMS);
        assert.equal(job.failed, 0);
        assert.equal(job.total, ITEMS);
        assert.equal((await again.get('/v1/content?status=draft', { key })).body.pagination.total, 0);
        assert.equal((await again.get('/v1/content?status=archived', { key })).body.pagination.total, ITEMS);

        const events = await allEvents(again, key);
        const archived = events.filter((e) => e.type === 'content.updated');
        assert.equal(archived.length, ITEMS, 'one event per item');
        assert.equal(new Set(archived.map((e) => e.data.id)).size, ITEMS, 'no item twice');
        assert.equal(events.filter((e) => e.type === 'job.finished').length, 1);
      }));
  }
});
