// SIGTERM under keep-alive load (D8): requests that arrive on kept-alive connections while the
// server shuts down are answered 503 with Connection: close — never reset — and logged at info; the
// process exits 0. A request on a reused connection that fails without an answer is a reset.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import https from 'node:https';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { exitOf, killChildren, startServerProcess, storeEnv } from './helpers/process.js';
import { testStores } from './helpers/stores.js';

const CLIENTS = 24;
const KEY = /cms_live_[0-9A-Za-z]{40}/;

interface Outcome {
  status?: number;
  connection?: string;
  retryAfter?: string;
  /** The request went out on a connection that had carried one before. */
  reused: boolean;
  error?: string;
}

function get(agent: https.Agent, url: string, key: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const request = https.get(url, { agent, headers: { authorization: `Bearer ${key}` } }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({
          status: response.statusCode,
          connection: response.headers.connection,
          retryAfter: response.headers['retry-after'],
          reused: request.reusedSocket,
        }),
      );
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ reused: request.reusedSocket, error: error.code ?? error.message }));
  });
}

after(killChildren);

for (const store of testStores()) {
  describe(`SIGTERM under keep-alive load (${store})`, () => {
    it(`answers ${CLIENTS} busy keep-alive clients 503 with Connection: close, resets none, and exits 0`, async (t) => {
      const { env, cleanup } = await storeEnv(store);
      try {
        const server = await startServerProcess(env);
        const key = (await server.waitForStdout(/API key: +cms_live_\w+/))[0].match(KEY)![0];
        const ca = await fs.readFile(path.join(env.DATA_DIR!, 'tls-cert.pem'), 'utf8');
        const url = `${server.baseUrl}/v1/content?limit=1`;
        const outcomes: Outcome[][] = Array.from({ length: CLIENTS }, () => []);
        let signalled = false;
        const clients = outcomes.map(async (mine) => {
          const agent = new https.Agent({ ca, keepAlive: true, maxSockets: 1 });
          try {
            // Until a fresh connection is refused after the signal (the listener is closed).
            for (let i = 0; i < 10_000; i++) {
              const outcome = await get(agent, url, key);
              mine.push(outcome);
              if (outcome.error !== undefined && !outcome.reused && signalled) return;
            }
          } finally {
            agent.destroy();
          }
        });
        await sleep(700);
        server.signal('SIGTERM');
        signalled = true;
        await Promise.all(clients);
        const exit = await exitOf(server, 15_000);
        assert.deepEqual([exit.code, exit.signal], [0, null], exit.stderr);

        const all = outcomes.flat();
        t.diagnostic(
          `${all.length} requests: ${all.filter((o) => o.status === 200).length} × 200, ${all.filter((o) => o.status === 503).length} × 503, ` +
            `${all.filter((o) => o.error !== undefined && o.reused).length} reset on a kept-alive connection, ${all.filter((o) => o.error !== undefined && !o.reused).length} refused new connections`,
        );
        const resets = all.filter((o) => o.error !== undefined && o.reused);
        assert.deepEqual(resets, [], 'a request on a kept-alive connection got no answer');
        const refusals = all.filter((o) => o.status === 503);
        assert.ok(refusals.length > 0, 'no request met the shutdown');
        for (const refusal of refusals) {
          assert.equal(refusal.connection, 'close');
          assert.match(refusal.retryAfter ?? '', /^\d+$/);
        }
        for (const o of all.filter((o) => o.status !== undefined)) assert.ok([200, 503].includes(o.status!), `status ${o.status}`);
        // Each client's last answer is its connection's last: after a 503 only new connections (refused) follow.
        for (const mine of outcomes) {
          const first503 = mine.findIndex((o) => o.status === 503);
          if (first503 >= 0) assert.ok(mine.slice(first503 + 1).every((o) => o.error !== undefined && !o.reused), JSON.stringify(mine.slice(first503)));
        }

        const lines = exit.stdout
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        assert.deepEqual(lines.filter((l) => (l.level as number) >= 50), [], 'no error-level line');
        const logged503 = lines.filter((l) => l.msg === 'request' && l.status === 503);
        assert.equal(logged503.length, refusals.length);
        assert.ok(logged503.every((l) => l.level === 30));
      } finally {
        killChildren();
        await cleanup();
      }
    });
  });
}
