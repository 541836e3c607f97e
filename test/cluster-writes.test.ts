// WORKERS=2, every write route at once (issue 22): the real service with two workers, 20 clients
// for 30 s mixing content create/update/delete, revision restores, idempotent POSTs and their
// replays, users, API keys, webhooks, OAuth apps and sign-ins, while the background writers run
// (webhook deliveries to a receiver, the usage ledger's flush, sign-in sessions, the publishing
// schedule). Asserted from outside: not one 5xx (a lock conflict between the workers must wait, never
// fail), every acknowledged write is there afterwards (and every acknowledged delete gone), and the
// event log has exactly one event per acknowledged change. CLUSTER_WRITES_SECONDS shortens the run.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type RequestOptions, type Response } from './helpers/client.js';
import { killChildren, withServerProcesses, type ServerProcess } from './helpers/process.js';
import { Receiver } from './helpers/receiver.js';
import { signInRequest } from './helpers/sessions.js';
import { testStores } from './helpers/stores.js';

const SECONDS = Number(process.env.CLUSTER_WRITES_SECONDS ?? '30');
const CLIENTS = 20;
const PASSWORD = 'correct horse battery staple';

interface Tally {
  requests: number;
  byStatus: Map<number, number>;
  failures: string[];
  /** Expected events: `type id` → count. */
  events: Map<string, number>;
}

interface Ledger {
  /** Content id → the title last acknowledged (null: acknowledged deleted). */
  content: Map<string, string | null>;
  /** Scheduled items (published by the schedule, not by a request). */
  scheduled: Set<string>;
  users: Map<string, string | null>;
  keys: Map<string, boolean>;
  webhooks: Map<string, string | null>;
  apps: Map<string, string | null>;
}

function expectEvent(tally: Tally, type: string, id: string): void {
  const at = `${type} ${id}`;
  tally.events.set(at, (tally.events.get(at) ?? 0) + 1);
}

/** One client's loop: its own items only, so what it expects does not depend on the others. */
async function client(server: ServerProcess, ca: string, hookUrl: string, key: string, email: string, n: number, until: number, tally: Tally, ledger: Ledger): Promise<void> {
  const http = new Client(server.baseUrl, ca);
  const send = async (method: string, url: string, options: RequestOptions = {}): Promise<Response> => {
    const res = await http.request(method, url, { key, ...options });
    tally.requests++;
    tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);
    if (res.status >= 500) tally.failures.push(`${method} ${url} → ${res.status} ${res.text.slice(0, 200)}`);
    else if (res.status >= 400 && res.status !== 429) tally.failures.push(`${method} ${url} → ${res.status} ${res.text.slice(0, 300)}`);
    return res;
  };
  const mine: string[] = [];
  let keptHook = false;
  let step = 0;
  try {
    while (Date.now() < until) {
      const tag = `c${n}-${step++}`;
      switch ((n + step) % 10) {
        case 0:
        case 1: {
          const res = await send('POST', '/v1/content', { json: { title: tag, type: 'blog', content: `body ${tag}` } });
          if (res.status === 201) {
            mine.push(res.body.data.id);
            ledger.content.set(res.body.data.id, tag);
            expectEvent(tally, 'content.created', res.body.data.id);
          }
          break;
        }
        case 2: {
          // An idempotent POST and its replay: one item, one event.
          const headers = { 'idempotency-key': `idem-${tag}` };
          const res = await send('POST', '/v1/content', { json: { title: tag, type: 'blog', content: 'once' }, headers });
          const again = await send('POST', '/v1/content', { json: { title: tag, type: 'blog', content: 'once' }, headers });
          if (res.status === 201) {
            mine.push(res.body.data.id);
            ledger.content.set(res.body.data.id, tag);
            expectEvent(tally, 'content.created', res.body.data.id);
            if (again.status === 201) {
              if (again.body.data.id !== res.body.data.id) tally.failures.push(`replay of ${tag} made a second item`);
              if (again.headers['idempotent-replayed'] !== 'true') tally.failures.push(`replay of ${tag} not marked replayed`);
            }
          }
          break;
        }
        case 3:
        case 4: {
          const id = mine.at(-1);
          if (!id) break;
          const res = await send('PUT', `/v1/content/${id}`, { json: { title: tag } });
          if (res.status === 200) {
            ledger.content.set(id, tag);
            expectEvent(tally, 'content.updated', id);
          }
          break;
        }
        case 5: {
          // Restore version 1 (made by this client, titled by it): one content.updated.
          const id = mine.at(-1);
          if (!id) break;
          const res = await send('POST', `/v1/content/${id}/revisions/1/restore`);
          if (res.status === 200) {
            ledger.content.set(id, res.body.data.title);
            expectEvent(tally, 'content.updated', id);
          }
          break;
        }
        case 6: {
          const id = mine.shift();
          if (!id) break;
          const res = await send('DELETE', `/v1/content/${id}`);
          if (res.status === 204) {
            ledger.content.set(id, null);
            expectEvent(tally, 'content.deleted', id);
          }
          break;
        }
        case 7: {
          // A user made, renamed and removed; an API key made and revoked.
          const made = await send('POST', '/v1/users', { json: { email: `${tag}@example.com`, name: tag, role: 'editor' } });
          if (made.status !== 201) break;
          const id = made.body.data.id as string;
          ledger.users.set(id, tag);
          expectEvent(tally, 'user.created', id);
          const renamed = await send('PUT', `/v1/users/${id}`, { json: { name: `${tag} renamed` } });
          if (renamed.status === 200) {
            ledger.users.set(id, `${tag} renamed`);
            expectEvent(tally, 'user.updated', id);
          }
          if (step % 3 === 0) {
            const gone = await send('DELETE', `/v1/users/${id}`);
            if (gone.status === 204) {
              ledger.users.set(id, null);
              expectEvent(tally, 'user.deleted', id);
            }
          }
          const keyMade = await send('POST', '/v1/api-keys', { json: { name: tag } });
          if (keyMade.status === 201) {
            ledger.keys.set(keyMade.body.data.id, true);
            if (step % 2 === 0 && (await send('DELETE', `/v1/api-keys/${keyMade.body.data.id}`)).status === 204) ledger.keys.set(keyMade.body.data.id, false);
          }
          break;
        }
        case 8: {
          // A webhook and an OAuth app: made, changed, sometimes removed.
          const url = `${hookUrl}/${tag}`;
          const hook = await send('POST', '/v1/webhooks', { json: { url, events: ['content.created'], enabled: false } });
          if (hook.status === 201) {
            const id = hook.body.data.id as string;
            ledger.webhooks.set(id, url);
            await send('PUT', `/v1/webhooks/${id}`, { json: { description: tag } });
            // An account holds at most 20 endpoints: five clients keep one each, the rest are removed.
            if (n % 4 !== 0 || keptHook) {
              if ((await send('DELETE', `/v1/webhooks/${id}`)).status === 204) ledger.webhooks.set(id, null);
            } else keptHook = true;
          }
          const app = await send('POST', '/v1/oauth/apps', { json: { name: tag, redirect_uris: [`https://app.example.com/${n}/cb`] } });
          if (app.status === 201) {
            const id = app.body.data.id as string;
            ledger.apps.set(id, tag);
            if ((await send('PUT', `/v1/oauth/apps/${id}`, { json: { name: `${tag} renamed` } })).status === 200) ledger.apps.set(id, `${tag} renamed`);
            if (step % 2 === 0 && (await send('DELETE', `/v1/oauth/apps/${id}`)).status === 204) ledger.apps.set(id, null);
          }
          break;
        }
        case 9: {
          if (n % 4 === 0) {
            // A sign-in (a session row) now and then; the per-address and per-e-mail limits may answer 429.
            const res = await signInRequest(http, email, PASSWORD);
            tally.requests++;
            tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);
            if (res.status >= 500) tally.failures.push(`sign-in → ${res.status} ${res.text.slice(0, 200)}`);
          } else if (n % 4 === 1) {
            // Scheduled publishing: the schedule (a background writer) publishes it 15 s on (a busy machine may take seconds to answer).
            const publishAt = new Date(Date.now() + 15_000).toISOString();
            const res = await send('POST', '/v1/content', { json: { title: tag, type: 'blog', content: 'later', publish_at: publishAt } });
            if (res.status === 201) {
              ledger.scheduled.add(res.body.data.id);
              ledger.content.set(res.body.data.id, tag);
              expectEvent(tally, 'content.created', res.body.data.id);
              expectEvent(tally, 'content.updated', res.body.data.id);
            }
          } else {
            await send('GET', '/v1/content?limit=5');
          }
          break;
        }
      }
    }
  } catch (error) {
    tally.failures.push(`client ${n}: ${String(error)}`);
  } finally {
    http.close();
  }
}

/** Every event after `after` (null: from the start). */
async function eventsAfter(http: Client, key: string, after: string | null): Promise<{ type: string; data: { id?: string } }[]> {
  const all: { type: string; data: { id?: string } }[] = [];
  let cursor = after;
  for (;;) {
    const res = await http.get(`/v1/events?limit=100${cursor ? `&after=${cursor}` : ''}`, { key });
    assert.equal(res.status, 200, res.text);
    all.push(...(res.body.data as { type: string; data: { id?: string } }[]));
    if (!res.body.pagination.has_more) return all;
    cursor = res.body.pagination.next_after as string;
  }
}

describe('WORKERS=2: every write route at once', { concurrency: false }, () => {
  after(() => killChildren());
  for (const store of testStores()) {
    it(`20 clients for ${SECONDS} s: no 5xx, every acknowledged write kept, one event per change (${store})`, { timeout: (SECONDS + 180) * 1000 }, (t) =>
      withServerProcesses(store, async ({ env, start }) => {
        const receiver = await Receiver.start(() => ({ status: 200 }));
        try {
          const { server, key } = await start(
            { ...env, WORKERS: '2', WEBHOOK_ALLOW_PRIVATE: 'true', BOOTSTRAP_PLAN: 'enterprise', IP_RATE_LIMIT: '100000', LOG_LEVEL: 'info' },
            true,
          );
          await server.waitForStdout(/"msg":"all workers listening"/, 90_000);
          const ca = await fs.readFile(path.join(server.dataDir, 'tls-cert.pem'), 'utf8');
          const http = server.client;
          // The owner's own password (for sign-ins), and a webhook for every change (deliveries: a background writer).
          const owners = await http.get('/v1/users', { key });
          assert.equal(owners.status, 200, owners.text);
          const owner = owners.body.data[0] as { id: string; email: string };
          assert.equal((await http.put(`/v1/users/${owner.id}`, { key, json: { password: PASSWORD } })).status, 200);
          const hook = await http.post('/v1/webhooks', { key, json: { url: receiver.url(), events: ['content.created', 'content.updated', 'content.deleted'] } });
          assert.equal(hook.status, 201, hook.text);
          const lastBefore = await lastEventId(http, key);

          const tally: Tally = { requests: 0, byStatus: new Map(), failures: [], events: new Map() };
          const ledger: Ledger = { content: new Map(), scheduled: new Set(), users: new Map(), keys: new Map(), webhooks: new Map(), apps: new Map() };
          const until = Date.now() + SECONDS * 1000;
          await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(server, ca, receiver.url('/other'), key, owner.email, n, until, tally, ledger)));
          const summary = [...tally.byStatus].sort(([a], [b]) => a - b).map(([s, c]) => `${s}×${c}`).join(' ');
          t.diagnostic(`${tally.requests} requests: ${summary}; ${tally.events.size} changes with events`);
          assert.deepEqual(tally.failures.slice(0, 10), [], `${tally.failures.length} failures; statuses: ${summary}`);
          assert.ok(tally.requests > CLIENTS * 4, `only ${tally.requests} requests (${summary})`);

          // The scheduled items are published by the schedule within seconds of their time.
          const deadline = Date.now() + 45_000;
          for (const id of ledger.scheduled) {
            for (;;) {
              const res = await http.get(`/v1/content/${id}`, { key });
              assert.equal(res.status, 200, res.text);
              if (res.body.data.status === 'published') break;
              assert.ok(Date.now() < deadline, `scheduled item ${id} not published`);
              await sleep(200);
            }
          }

          // Every acknowledged write is there; every acknowledged delete is gone.
          for (const [id, title] of ledger.content) {
            const res = await http.get(`/v1/content/${id}`, { key });
            if (title === null) assert.equal(res.status, 404, `deleted content ${id}`);
            else assert.deepEqual([res.status, res.body?.data?.title], [200, title], `content ${id}`);
          }
          for (const [id, name] of ledger.users) {
            const res = await http.get(`/v1/users/${id}`, { key });
            if (name === null) assert.equal(res.status, 404, `deleted user ${id}`);
            else assert.deepEqual([res.status, res.body?.data?.name], [200, name], `user ${id}`);
          }
          for (const [id, url] of ledger.webhooks) {
            const res = await http.get(`/v1/webhooks/${id}`, { key });
            if (url === null) assert.equal(res.status, 404, `deleted webhook ${id}`);
            else assert.deepEqual([res.status, res.body?.data?.url], [200, url], `webhook ${id}`);
          }
          for (const [id, name] of ledger.apps) {
            const res = await http.get(`/v1/oauth/apps/${id}`, { key });
            if (name === null) assert.equal(res.status, 404, `deleted app ${id}`);
            else assert.deepEqual([res.status, res.body?.data?.name], [200, name], `app ${id}`);
          }
          const listed = new Set<string>();
          for (let offset = 0; ; offset += 100) {
            const res = await http.get(`/v1/api-keys?limit=100&offset=${offset}`, { key });
            assert.equal(res.status, 200, res.text);
            for (const k of res.body.data as { id: string }[]) listed.add(k.id);
            if (!res.body.pagination.has_more) break;
          }
          for (const [id, live] of ledger.keys) assert.equal(listed.has(id), live, `api key ${id}`);

          // Exactly one event per acknowledged change, none extra.
          const seen = new Map<string, number>();
          for (const event of await eventsAfter(http, key, lastBefore)) {
            if (!event.type.startsWith('content.') && !event.type.startsWith('user.')) continue;
            const at = `${event.type} ${event.data.id}`;
            seen.set(at, (seen.get(at) ?? 0) + 1);
          }
          const diff = [...new Set([...seen.keys(), ...tally.events.keys()])].filter((at) => seen.get(at) !== tally.events.get(at));
          assert.deepEqual(
            diff.map((at) => `${at}: ${seen.get(at) ?? 0} seen, ${tally.events.get(at) ?? 0} expected`),
            [],
          );
          assert.ok(tally.events.size > CLIENTS, `${tally.events.size} changes`);
        } finally {
          await receiver.close();
        }
      }),
    );
  }
});

/** The id of the newest event now. */
async function lastEventId(http: Client, key: string): Promise<string | null> {
  let cursor: string | null = null;
  for (;;) {
    const res = await http.get(`/v1/events?limit=100${cursor ? `&after=${cursor}` : ''}`, { key });
    const next = res.body.pagination.next_after as string | null;
    if (!res.body.pagination.has_more) return next;
    cursor = next;
  }
}
