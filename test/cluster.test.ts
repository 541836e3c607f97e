// WORKERS=2: the real service as a child process whose primary forks two workers sharing the port
// (node:cluster hands new connections to the workers in turn, so a fresh connection per request
// alternates between them). Asserted from outside: /metrics shows both workers answering, a
// WebSocket subscriber gets events written through either worker, in order, with no gap and well
// under the 2 s safety poll; an account rate limit is exact across workers; one webhook delivery per
// change; a killed worker is replaced; SIGTERM drains every worker and exits 0.
import assert from 'node:assert/strict';
import https from 'node:https';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from './helpers/client.js';
import os from 'node:os';
import { ConfigError, loadConfig } from '../src/config.js';
import { exitOf, killChildren, spawnTs, withServerProcesses, type ServerProcess } from './helpers/process.js';
import { Receiver } from './helpers/receiver.js';
import { testStores } from './helpers/stores.js';
import { WsClient } from './helpers/ws.js';

const TWO = { WORKERS: '2' };

/** A request over a connection of its own, so that the cluster hands it to the next worker. */
async function fresh(server: ServerProcess, method: string, url: string, options: { key?: string; json?: unknown } = {}) {
  const ca = await fs.readFile(path.join(server.dataDir, 'tls-cert.pem'), 'utf8');
  const client = new Client(server.baseUrl, ca);
  try {
    return await client.request(method, url, options);
  } finally {
    client.close();
  }
}

/** Both workers listening (the primary says so once every worker has bound the port), and both have said so. */
async function allListening(server: ServerProcess): Promise<void> {
  await server.waitForStdout(/"msg":"all workers listening"/, 90_000);
  const deadline = Date.now() + 10_000;
  while (workerPids(server.stdout()).size < 2) {
    assert.ok(Date.now() < deadline, 'both workers log "listening"');
    await sleep(20);
  }
}

function metricValue(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

/** Worker slot → pid, from the workers' "listening" lines. */
function workerPids(stdout: string): Map<number, number[]> {
  const pids = new Map<number, number[]>();
  for (const line of stdout.split('\n')) {
    if (!line.includes('"msg":"listening"')) continue;
    const { worker, pid } = JSON.parse(line) as { worker: number; pid: number };
    pids.set(worker, [...(pids.get(worker) ?? []), pid]);
  }
  return pids;
}

describe('WORKERS configuration', () => {
  it('defaults to one process on SQLite and the number of cores on PostgreSQL, and takes 1 to 64', () => {
    assert.equal(loadConfig({}).workers, 1);
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' }).workers, Math.min(64, os.availableParallelism()));
    assert.equal(loadConfig({ WORKERS: '1' }).workers, 1);
    assert.equal(loadConfig({ WORKERS: '64' }).workers, 64);
    for (const bad of ['0', '65', 'two', '1.5']) {
      assert.throws(() => loadConfig({ WORKERS: bad }), (error: unknown) => error instanceof ConfigError && error.message === `WORKERS: must be an integer from 1 to 64 (got "${bad}")`);
    }
  });

  it('refuses a bad value at start with one clear line, before forking anything', async () => {
    const finished = await exitOf(spawnTs('src/main.ts', [], { WORKERS: '0', DATA_DIR: os.tmpdir() }), 30_000);
    assert.equal(finished.code, 1);
    assert.equal(finished.stderr.trim(), 'Configuration error: WORKERS: must be an integer from 1 to 64 (got "0")');
  });
});

// One store at a time: each scenario runs three processes already.
describe('WORKERS=2', { concurrency: false }, () => {
  after(() => killChildren());
  for (const store of testStores()) {
    describe(`two workers on one port (${store})`, { concurrency: false }, () => {
      it('answers from both workers, /metrics sums them, and a revocation reaches both at once', (t) =>
        withServerProcesses(store, async ({ env, start }) => {
          const { server, key } = await start({ ...env, ...TWO }, true);
          await allListening(server);
          for (let i = 0; i < 6; i++) assert.equal((await fresh(server, 'GET', '/v1/content', { key })).status, 200);
          const metrics = await fresh(server, 'GET', '/metrics');
          assert.equal(metrics.status, 200);
          assert.equal(metricValue(metrics.text, 'cms_workers'), 2, metrics.text.slice(0, 500));
          const one = metricValue(metrics.text, 'cms_worker_requests_total', '{worker="1"}') ?? 0;
          const two = metricValue(metrics.text, 'cms_worker_requests_total', '{worker="2"}') ?? 0;
          assert.ok(one > 0 && two > 0, `requests per worker: ${one} and ${two}`);
          // The per-route counter is the sum of both workers' counts.
          const listed = metricValue(metrics.text, 'cms_http_requests_total', '{method="GET",route="/v1/content",status="200"}');
          assert.equal(listed, 6);

          // A key cached by both workers, revoked through one: refused at once by both (the relay), not a second later.
          const made = await fresh(server, 'POST', '/v1/api-keys', { key, json: { name: 'short-lived' } });
          assert.equal(made.status, 201, made.text);
          const temp = made.body.data as { id: string; key: string };
          for (let i = 0; i < 2; i++) assert.equal((await fresh(server, 'GET', '/v1/content', { key: temp.key })).status, 200);
          const revokedAt = Date.now();
          assert.equal((await fresh(server, 'DELETE', `/v1/api-keys/${temp.id}`, { key })).status, 204);
          const after = [await fresh(server, 'GET', '/v1/content', { key: temp.key }), await fresh(server, 'GET', '/v1/content', { key: temp.key })];
          const elapsed = Date.now() - revokedAt;
          // Only meaningful within the cache's second: past it, either worker would have read the store anyway.
          if (elapsed < 1000) assert.deepEqual(after.map((r) => r.status), [401, 401]);
          else t.diagnostic(`revocation checked ${elapsed} ms later, past the 1 s cache: the relay is not what refused it`);
        }));

      it('gets events written through either worker to subscribers on both, in order, at once', () =>
        withServerProcesses(store, async ({ env, start }) => {
          const receiver = await Receiver.start(() => ({ status: 200 }));
          try {
            const { server, key } = await start({ ...env, ...TWO, WEBHOOK_ALLOW_PRIVATE: 'true' }, true);
            await allListening(server);
            const hook = await fresh(server, 'POST', '/v1/webhooks', { key, json: { url: receiver.url(), events: ['content.created'] } });
            assert.equal(hook.status, 201, hook.text);
            // Two connections in a row: one on each worker.
            const target = { port: server.port, dataDir: server.dataDir };
            const subscribers = [await WsClient.open(target, key), await WsClient.open(target, key)];
            for (const ws of subscribers) assert.equal((await ws.subscribe('content.created')).type, 'subscribed');

            const writes = 10;
            const latencies: number[] = [];
            for (let i = 0; i < writes; i++) {
              const sent = Date.now();
              const created = await fresh(server, 'POST', '/v1/content', { key, json: { title: `Item ${i}`, type: 'blog', content: 'x' } });
              assert.equal(created.status, 201, created.text);
              for (const ws of subscribers) {
                const event = await ws.next((m) => m.type === 'content.created', 3000);
                assert.equal(event.data.id, created.body.data.id, 'in order, none missing');
              }
              latencies.push(Date.now() - sent);
            }
            // Without the relay, a subscriber on the other worker waits for the 2 s poll about every other write.
            assert.ok(Math.max(...latencies) < 1000, `write-to-both-subscribers latencies (ms): ${latencies.join(', ')}`);
            for (const ws of subscribers) {
              assert.equal(ws.events().length, writes, 'no event twice');
              await ws.close();
            }

            // Both workers' outbox loops run; each change is delivered once.
            await receiver.waitFor((r) => r.length >= writes, 15_000);
            await sleep(1500);
            const ids = receiver.received.map((r) => r.headers['webhook-id']);
            assert.equal(ids.length, writes, `deliveries: ${ids.length}`);
            assert.equal(new Set(ids).size, writes);
          } finally {
            await receiver.close();
          }
        }));

      it('holds an account rate limit exactly across workers', () =>
        withServerProcesses(store, async ({ env, start }) => {
          const limit = 20;
          const { server, key } = await start({ ...env, ...TWO, PLAN_RATE_LIMITS: `pro=${limit}` }, true);
          await allListening(server);
          const statuses: number[] = [];
          for (let i = 0; i < limit + 3; i++) statuses.push((await fresh(server, 'GET', '/v1/content', { key })).status);
          assert.deepEqual(statuses, [...Array<number>(limit).fill(200), 429, 429, 429]);
          const metrics = await fresh(server, 'GET', '/metrics');
          const one = metricValue(metrics.text, 'cms_worker_requests_total', '{worker="1"}') ?? 0;
          const two = metricValue(metrics.text, 'cms_worker_requests_total', '{worker="2"}') ?? 0;
          assert.ok(one > 0 && two > 0, `both workers counted: ${one} and ${two}`);
        }));

      it('ends, never leaves hanging, a connection handed to a worker killed before it took it (P3-6)', () =>
        withServerProcesses(store, async ({ env, start }) => {
          const { server } = await start({ ...env, ...TWO }, true);
          await allListening(server);
          const ca = await fs.readFile(path.join(server.dataDir, 'tls-cert.pem'), 'utf8');
          const victim = workerPids(server.stdout()).get(1)![0]!;
          // Stopped, worker 1 cannot take the next connection handed to it (nor acknowledge it); then it is killed.
          process.kill(victim, 'SIGSTOP');
          const outcomes = Array.from({ length: 4 }, () =>
            new Promise<string>((resolve) => {
              const started = Date.now();
              const req = https.get(`${server.baseUrl}/healthz`, { ca, agent: false }, (res) => {
                res.resume();
                res.on('end', () => resolve(`${res.statusCode}`));
              });
              req.setTimeout(8000, () => {
                resolve(`silent for ${Date.now() - started} ms`);
                req.destroy();
              });
              req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
            }),
          );
          await sleep(1000);
          process.kill(victim, 'SIGKILL');
          const seen = await Promise.all(outcomes);
          assert.ok(!seen.some((s) => s.startsWith('silent')), `every request answered or reset: ${seen.join(', ')}`);
          assert.ok(seen.some((s) => s !== '200'), `one connection went to the stopped worker: ${seen.join(', ')}`);
        }));

      it('replaces a killed worker, and exits 0 on SIGTERM once every worker has drained', () =>
        withServerProcesses(store, async ({ env, start }) => {
          const { server, key } = await start({ ...env, ...TWO }, true);
          await allListening(server);
          const before = workerPids(server.stdout());
          const victim = before.get(1)![0]!;
          process.kill(victim, 'SIGKILL');
          await server.waitForStdout(/"msg":"a worker exited unexpectedly; starting a new one"/, 10_000);
          // Starting a process takes seconds on a busy machine.
          const deadline = Date.now() + 45_000;
          while ((workerPids(server.stdout()).get(1) ?? []).length < 2) {
            assert.ok(Date.now() < deadline, 'worker 1 started again');
            await sleep(50);
          }
          const replacement = workerPids(server.stdout()).get(1)![1]!;
          assert.notEqual(replacement, victim);
          for (let i = 0; i < 4; i++) assert.equal((await fresh(server, 'GET', '/v1/content', { key })).status, 200);
          const metrics = await fresh(server, 'GET', '/metrics');
          assert.equal(metricValue(metrics.text, 'cms_workers'), 2);

          const survivors = [replacement, before.get(2)![0]!];
          server.client.close();
          server.signal('SIGTERM');
          const finished = await exitOf(server, 30_000);
          assert.equal(finished.code, 0, finished.stderr);
          for (const pid of survivors) assert.throws(() => process.kill(pid, 0), 'worker exited');
        }));
    });
  }
});
