// Idempotency keys across a crash, with the real server as a child process killed by SIGKILL while
// many keyed creates are in flight. After a restart every request is sent again with its key. Each
// must end with exactly one item or API key, and its answer must be the stored response (always,
// when the first one reached the client), a fresh run (when nothing had been applied), or — only
// for routes whose response is stored after their change, like API keys — idempotency_response_lost.
// A content create stores its response in its change's transaction: never lost.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client, Response } from './helpers/client.js';
import { exitOf, killChildren, startServerProcess, storeEnv } from './helpers/process.js';
import { testStores } from './helpers/stores.js';

const REQUESTS = 160;
const LEASE_SECONDS = 2;

/** Every name or title a paged list shows, with how often. */
async function tally(client: Client, key: string, first: string, field: 'title' | 'name'): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  for (let res = await client.get(first, { key }), offset = 0; ; ) {
    assert.equal(res.status, 200, res.text);
    for (const row of res.body.data as Record<string, string>[]) seen.set(row[field]!, (seen.get(row[field]!) ?? 0) + 1);
    const { next_cursor: next, has_more: more } = res.body.pagination;
    if (!more) return seen;
    offset += res.body.data.length;
    res = await client.get(next ? `/v1/content?cursor=${encodeURIComponent(next)}&limit=100` : `${first}&offset=${offset}`, { key });
  }
}

describe('idempotency keys across a crash', () => {
  after(() => killChildren());
  for (const store of testStores()) {
    it(`makes each keyed create exactly once through a kill -9 and a restart (${store})`, async (t) => {
      const stored = await storeEnv(store);
      const env = { ...stored.env, IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS) };
      try {
        const first = await startServerProcess(env);
        const apiKey = (await first.waitForStdout(/API key: +(cms_live_\w+)/))[1]!;
        const run = Date.now();
        // Even: a content item (response stored with the change); odd: an API key (stored after it).
        const requests = Array.from({ length: REQUESTS }, (_, i) => ({
          key: `crash-${run}-${i}`,
          path: i % 2 ? '/v1/api-keys' : '/v1/content',
          body: i % 2 ? { name: `Crash key ${run} #${i}` } : { title: `Crash test ${run} #${i}`, type: 'blog', content: `Item ${i}` },
        }));
        const send = (client: Client, i: number) => client.post(requests[i]!.path, { key: apiKey, json: requests[i]!.body, headers: { 'idempotency-key': requests[i]!.key } });

        // All at once; the process dies once a quarter have been answered, the rest in every state.
        const before = new Map<number, Response>();
        const inFlight = requests.map((_, i) => send(first.client, i).then((res) => void before.set(i, res), () => undefined));
        while (before.size < REQUESTS / 4) await sleep(5);
        first.kill();
        assert.equal((await exitOf(first)).signal, 'SIGKILL');
        await Promise.all(inFlight);
        first.client.close();

        const second = await startServerProcess(env);
        try {
          // Until a dead holder's lease lapses, its key is "in use": wait it out once.
          await sleep(LEASE_SECONDS * 1000 + 200);
          const outcomes = { content: { replayed: 0, fresh: 0, lost: 0 }, keys: { replayed: 0, fresh: 0, lost: 0 } };
          for (let i = 0; i < REQUESTS; i++) {
            const res = await send(second.client, i);
            const earlier = before.get(i);
            const kind = i % 2 ? outcomes.keys : outcomes.content;
            if (earlier?.status === 201) {
              // The first answer reached the client, so it had been stored: the same answer again.
              assert.equal(res.status, 201, res.text);
              assert.equal(res.headers['idempotent-replayed'], 'true');
              assert.equal(res.body.data.id, earlier.body.data.id);
            }
            if (res.status === 201) kind[res.headers['idempotent-replayed'] === 'true' ? 'replayed' : 'fresh']++;
            else {
              assert.equal(res.status, 409, res.text);
              assert.equal(res.body.code, 'idempotency_response_lost');
              kind.lost++;
            }
          }
          t.diagnostic(`answered before the kill: ${before.size}; after the restart: ${JSON.stringify(outcomes)}`);
          assert.equal(outcomes.content.lost, 0, 'a content create never loses its response');
          assert.ok(outcomes.content.fresh + outcomes.keys.fresh > 0, 'some requests had not been applied at the kill');

          // Exactly one item or key per request, whatever its story.
          const titles = await tally(second.client, apiKey, `/v1/content?q=${encodeURIComponent(`crash test ${run}`)}&limit=100`, 'title');
          const names = await tally(second.client, apiKey, '/v1/api-keys?limit=100', 'name');
          for (const { body } of requests) {
            const label = 'title' in body ? body.title : body.name;
            assert.equal(('title' in body ? titles : names).get(label!), 1, label);
          }
          assert.equal(titles.size, REQUESTS / 2);
        } finally {
          await second.stop();
        }
      } finally {
        killChildren();
        await stored.cleanup();
      }
    });
  }
});
