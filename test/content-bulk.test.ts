// Bulk jobs (CONTRACT.md §21): POST /v1/content/bulk and /v1/jobs — chunks with an event per item,
// job.finished (event and webhook), cancellation, the creator's rights at each chunk, tenancy.
// A clock the test moves by hand holds a job between two chunks (the next chunk is due only once
// the clock passes the job's pause), so what happens between chunks is certain, not a race.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { addKey, addUser } from './helpers/people.js';
import { Receiver } from './helpers/receiver.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { addEndpoint, waitForDeliveries } from './helpers/webhooks.js';
import { CHUNK as CHUNKS } from '../src/domain/jobs/bulk-jobs.js';

function manualClock() {
  let now = Date.now();
  return { clock: () => new Date(now), tick: (ms: number) => void (now += ms) };
}

for (const store of testStores()) {
  const CHUNK = CHUNKS[store];
  describe(`bulk jobs (${store})`, () => {
    const time = manualClock();
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store, { clock: time.clock, env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
      owner = await server.account();
    });
    after(() => server.close());

    /** Creates `n` items with `fields` through batches of 100. */
    async function items(key: string, n: number, fields: Record<string, unknown> = {}): Promise<string[]> {
      const ids: string[] = [];
      for (let i = 0; i < n; i += 100) {
        const operations = Array.from({ length: Math.min(100, n - i) }, (_, j) => ({ op: 'create', data: { title: `Item ${i + j}`, type: 'blog', content: 'Body', ...fields } }));
        const res = await server.client.post('/v1/content/batch', { key, json: { operations } });
        assert.equal(res.status, 200, res.text);
        ids.push(...res.body.data.map((r: { data: { id: string } }) => r.data.id));
      }
      return ids;
    }
    const bulk = (key: string, json: unknown) => server.client.post('/v1/content/bulk', { key, json });
    const job = async (key: string, id: string) => (await server.client.get(`/v1/jobs/${id}`, { key })).body.data;
    /** Moves the clock past a job's pause until `predicate` holds for the job. */
    async function until(key: string, id: string, predicate: (job: { status: string; done: number }) => boolean, tick = 1000): Promise<Record<string, unknown> & { status: string; done: number }> {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const current = await job(key, id);
        if (predicate(current)) return current;
        if (Date.now() > deadline) throw new Error(`job not as expected: ${JSON.stringify(current)}`);
        time.tick(tick);
        await sleep(50);
      }
    }

    it('archives every draft in chunks: exact counts, one event per item, job.finished as event and webhook', async () => {
      const account = await server.account();
      const receiver = await Receiver.start();
      try {
        const endpoint = await addEndpoint(server, account.key, { url: receiver.url(), events: ['job.finished'] });
        const drafts = await items(account.key, 2 * CHUNK + 50);
        await items(account.key, 30, { status: 'published' });
        const res = await bulk(account.key, { action: 'archive', filter: { status: 'draft' } });
        assert.equal(res.status, 202, res.text);
        const created = res.body.data;
        assert.match(created.id, /^job_[0-9a-z]{26}$/);
        assert.equal(res.headers.location, `/v1/jobs/${created.id}`);
        assert.equal(created.status, 'queued');
        assert.equal(created.total, drafts.length);
        assert.deepEqual(Object.keys(created).sort(), ['action', 'created_at', 'created_by', 'done', 'errors', 'failed', 'finished_at', 'id', 'started_at', 'status', 'total']);

        const finished = await until(account.key, created.id, (j) => j.status === 'succeeded');
        assert.equal(finished.done, drafts.length);
        assert.equal(finished.failed, 0);
        assert.equal(finished.total, drafts.length);
        assert.ok(finished.started_at && finished.finished_at);
        const left = await server.client.get('/v1/content?status=draft', { key: account.key });
        assert.equal(left.body.pagination.total, 0);
        const archived = await server.client.get('/v1/content?status=archived', { key: account.key });
        assert.equal(archived.body.pagination.total, drafts.length);

        // One content.updated per item, and job.finished carrying the job record.
        const seen: { type: string; data: Record<string, unknown> }[] = [];
        let cursor: string | null = null;
        for (;;) {
          const page = await server.client.get(`/v1/events?limit=100${cursor ? `&after=${cursor}` : ''}`, { key: account.key });
          if (page.body.data.length === 0) break;
          seen.push(...page.body.data);
          cursor = page.body.pagination.next_after;
        }
        const updated = seen.filter((e) => e.type === 'content.updated');
        assert.equal(updated.length, drafts.length);
        assert.equal(new Set(updated.map((e) => e.data.id)).size, drafts.length);
        const ends = seen.filter((e) => e.type === 'job.finished');
        assert.equal(ends.length, 1);
        assert.deepEqual(ends[0]!.data, finished);
        await waitForDeliveries(server.client, account.key, endpoint.id, (records) => records.some((r) => r.event_type === 'job.finished' && r.status === 'succeeded'));
        const list = await server.client.get('/v1/jobs', { key: account.key });
        assert.equal(list.status, 200);
        assert.equal(list.body.data[0].id, created.id);
        assert.equal(list.body.pagination.total, 1);
      } finally {
        await receiver.close();
      }
    });

    it('a filter matching nothing is a job of total 0 that has succeeded', async () => {
      const res = await bulk(owner.key, { action: 'delete', filter: { q: 'nothingmatchesthisword' } });
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.data.total, 0);
      assert.equal(res.body.data.status, 'succeeded');
      assert.equal((await job(owner.key, res.body.data.id)).status, 'succeeded');
      // Cancelling a finished job is 409.
      const cancel = await server.client.delete(`/v1/jobs/${String(res.body.data.id)}`, { key: owner.key });
      assert.equal(cancel.status, 409);
      assert.equal(cancel.body.code, 'conflict');
    });

    it('cancels a running job between chunks: what was done stays done', async () => {
      const account = await server.account();
      await items(account.key, CHUNK + 20, { type: 'manual' });
      const res = await bulk(account.key, { action: 'publish', filter: { type: 'manual' } });
      const running = await until(account.key, res.body.data.id, (j) => j.done > 0, 0);
      assert.equal(running.status, 'running');
      assert.equal(running.done, CHUNK);
      const cancel = await server.client.delete(`/v1/jobs/${String(res.body.data.id)}`, { key: account.key });
      assert.equal(cancel.status, 200, cancel.text);
      assert.equal(cancel.body.data.status, 'cancelled');
      time.tick(5000);
      await sleep(1500);
      const after = await job(account.key, res.body.data.id);
      assert.equal(after.status, 'cancelled');
      assert.equal(after.done, CHUNK);
      const published = await server.client.get('/v1/content?status=published&type=manual', { key: account.key });
      assert.equal(published.body.pagination.total, CHUNK);
    });

    it("stops with failed, saying why, when its creator is demoted below editor", async () => {
      const account = await server.account();
      const editor = await addUser(server, account.key, 'editor');
      const editorKey = await addKey(server, account.key, { user_id: editor.id });
      await items(account.key, CHUNK + 10, { type: 'strategy' });
      const res = await bulk(editorKey.key, { action: 'archive', filter: { type: 'strategy' } });
      assert.equal(res.status, 202, res.text);
      await until(account.key, res.body.data.id, (j) => j.done > 0, 0);
      const demote = await server.client.put(`/v1/users/${editor.id}`, { key: account.key, json: { role: 'author' } });
      assert.equal(demote.status, 200, demote.text);
      const failed = await until(account.key, res.body.data.id, (j) => j.status !== 'running' && j.status !== 'queued');
      assert.equal(failed.status, 'failed');
      assert.equal(failed.done, CHUNK);
      const reason = (failed.errors as { id: string | null; code: string; message: string }[]).at(-1)!;
      assert.equal(reason.id, null);
      assert.equal(reason.code, 'forbidden');
      assert.match(reason.message, /editor/);
    });

    it("refuses authors and viewers, bad filters, and another account's jobs", async () => {
      const author = await addUser(server, owner.key, 'author');
      const authorKey = await addKey(server, owner.key, { user_id: author.id });
      assert.equal((await bulk(authorKey.key, { action: 'archive', filter: {} })).status, 403);
      const bad = await bulk(owner.key, { action: 'paint', filter: { colour: 'red' } });
      assert.equal(bad.status, 422);
      assert.deepEqual(Object.fromEntries(bad.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])), { action: 'invalid_value', 'filter.colour': 'unknown_field' });
      assert.equal((await bulk(owner.key, { action: 'archive' })).status, 422);

      const keyed = { key: owner.key, json: { action: 'archive', filter: { slug: 'no-such-item' } }, headers: { 'idempotency-key': `bulk-${Date.now()}` } };
      const mine = await server.client.post('/v1/content/bulk', keyed);
      const replayed = await server.client.post('/v1/content/bulk', keyed);
      assert.equal(replayed.headers['idempotent-replayed'], 'true');
      assert.equal(replayed.body.data.id, mine.body.data.id);
      const other = await server.account();
      assert.equal((await server.client.get(`/v1/jobs/${String(mine.body.data.id)}`, { key: other.key })).status, 404);
      assert.equal((await server.client.delete(`/v1/jobs/${String(mine.body.data.id)}`, { key: other.key })).status, 404);
      assert.equal((await server.client.get('/v1/jobs', { key: other.key })).body.pagination.total, 0);
    });

    it('lists jobs newest first by offset and by cursor, as content lists page (CONTRACT.md §17)', async () => {
      const account = await server.account();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await bulk(account.key, { action: 'archive', filter: { slug: `nothing-${i}` } });
        assert.equal(res.status, 202, res.text);
        ids.unshift(res.body.data.id);
      }
      const list = (query: string, key = account.key) => server.client.get(`/v1/jobs?${query}`, { key });
      const first = await list('limit=2');
      assert.deepEqual(first.body.data.map((j: { id: string }) => j.id), ids.slice(0, 2));
      assert.deepEqual({ ...first.body.pagination, next_cursor: typeof first.body.pagination.next_cursor }, { total: 5, limit: 2, offset: 0, has_more: true, next_cursor: 'string' });
      const seen = [...first.body.data];
      let cursor: string | null = first.body.pagination.next_cursor;
      while (cursor) {
        const page = await list(`limit=2&cursor=${cursor}`);
        assert.equal(page.status, 200, page.text);
        assert.equal(page.body.pagination.offset, null);
        assert.equal(page.body.pagination.total, 5);
        assert.equal(page.body.pagination.has_more, page.body.pagination.next_cursor !== null);
        seen.push(...page.body.data);
        cursor = page.body.pagination.next_cursor;
      }
      assert.deepEqual(seen.map((j: { id: string }) => j.id), ids);
      const last = await list('limit=2&offset=4');
      assert.deepEqual([last.body.data.map((j: { id: string }) => j.id), last.body.pagination.has_more, last.body.pagination.next_cursor], [ids.slice(4), false, null]);
      for (const [bad, field] of [[`offset=0&cursor=${first.body.pagination.next_cursor}`, 'offset'], ['cursor=not-a-cursor', 'cursor']]) {
        const refused = await list(bad!);
        assert.equal(refused.status, 400, bad);
        assert.equal(refused.body.code, 'invalid_parameter', bad);
        assert.deepEqual(refused.body.errors.map((e: { field: string }) => e.field), [field], bad);
      }
      const other = await server.account();
      assert.equal((await list(`cursor=${first.body.pagination.next_cursor}`, other.key)).status, 400, "another account's cursor");
    });
  });
}
