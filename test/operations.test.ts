// Operations: 500s that leak nothing, health probes, OpenAPI and /docs, configuration errors, first start, graceful SIGTERM.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig, publicUrlOf } from '../src/config.js';
import type { Response } from './helpers/client.js';
import { requestLogs } from './helpers/logs.js';
import { exitOf, killChildren, spawnTs, startServerProcess, storeEnv } from './helpers/process.js';
import { closed, openTls, readResponse } from './helpers/raw.js';
import { signInRequest } from './helpers/sessions.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores, type StoreKind } from './helpers/stores.js';

const KEY = /cms_live_[0-9A-Za-z]{40}/;

after(killChildren);

function assertErrorBody(res: Response, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'message', 'meta']);
  assert.equal(res.body.code, code);
  assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
}

/** Runs `work` against a fresh DATA_DIR (and PostgreSQL database), removed afterwards. */
async function withStore(store: StoreKind, work: (env: Record<string, string>) => Promise<void>): Promise<void> {
  const { env, cleanup } = await storeEnv(store);
  try {
    await work(env);
  } finally {
    killChildren();
    await cleanup();
  }
}

for (const store of testStores()) {
  describe(`health probes and internal errors (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
    });
    after(() => server.close());

    it('answers /healthz and /readyz 200 without a key', async () => {
      for (const [path, status] of [['/healthz', 'ok'], ['/readyz', 'ready']]) {
        for (const key of [undefined, `cms_live_${'Q'.repeat(40)}`]) {
          const res = await server.client.get(path!, { key });
          assert.equal(res.status, 200, res.text);
          assert.equal(res.body.status, status);
          assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
        }
      }
    });

    it('answers a broken store with an error that leaks nothing, logged with the request id', async () => {
      await server.app.store.close();
      const res = await server.client.get('/v1/content', { key: owner.key });
      if (store === 'sqlite' || res.status === 500) {
        assertErrorBody(res, 500, 'internal_error');
      } else {
        assertErrorBody(res, 503, 'unavailable');
        assert.match(String(res.headers['retry-after']), /^\d+$/);
      }
      assert.doesNotMatch(res.text, /stack|\n\s+at |select|from "|sqlite|postgres|driver|node_modules|\/work\/|\.ts\b|cms_live_/i);
      const lines = await requestLogs(server.logs, res.body.meta.request_id);
      assert.ok(
        lines.some((l) => (l.level as number) >= 50 && typeof l.err === 'object'),
        `no error line for ${res.body.meta.request_id}`,
      );
      assert.ok(lines.every((l) => !JSON.stringify(l).includes(owner.key)));

      const ready = await server.client.get('/readyz');
      assertErrorBody(ready, 503, 'unavailable');
      assert.match(String(ready.headers['retry-after']), /^\d+$/);
      assert.equal((await server.client.get('/healthz')).status, 200);
    });
  });
}

for (const store of testStores()) {
  describe(`shutdown grace period (${store})`, () => {
    it('closes a request still in flight once the grace period is over', async () => {
      const server = await startServer(store, { env: { SHUTDOWN_GRACE_SECONDS: '1' } });
      try {
        const { key } = await server.account();
        const socket = await openTls(server.port, await fs.readFile(path.join(server.dataDir, 'tls-cert.pem'), 'utf8'));
        const gone = closed(socket);
        socket.write(`POST /v1/content HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title":`);
        await sleep(200);
        const started = Date.now();
        await server.app.shutdown();
        const took = Date.now() - started;
        assert.ok(took >= 900 && took < 8000, `shutdown took ${took} ms`);
        await gone;
      } finally {
        await server.close();
      }
    });
  });
}

describe('the OpenAPI document and /docs', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite');
  });
  after(() => server.close());

  it('serves an OpenAPI 3.1 document without a key, with the scope each operation needs', async () => {
    const res = await server.client.get('/v1/openapi.json');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const doc = res.body;
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.components.securitySchemes.apiKey.scheme, 'bearer');
    for (const path of ['/v1/content', '/v1/content/{id}']) {
      assert.ok(doc.paths[path], `${path} is missing`);
      for (const [method, operation] of Object.entries<{ security: Record<string, string[]>[] }>(doc.paths[path])) {
        const scope = method === 'get' ? 'content:read' : 'content:write';
        // A key with the scope, or an OAuth token granted it.
        assert.deepEqual(operation.security, [{ apiKey: [scope] }, { oauth2: [scope] }], `${method} ${path}`);
      }
    }
    assert.ok(doc.paths['/v1/content'].post && doc.paths['/v1/content/{id}'].delete);
    // keys:write is never granted to a token: managing keys and apps takes a key (or the dashboard).
    assert.deepEqual(doc.paths['/v1/oauth/apps'].post.security, [{ apiKey: ['keys:write'] }]);
    assert.equal(doc.components.securitySchemes.oauth2.flows.authorizationCode.tokenUrl, '/oauth/token');
  });

  it('serves /docs as HTML that loads only local assets', async () => {
    let res = await server.client.get('/docs');
    for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 3; hops++) {
      res = await server.client.get(new URL(String(res.headers.location), `${server.baseUrl}/docs`).pathname);
    }
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    const references = [...res.text.matchAll(/(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]!);
    assert.ok(references.some((r) => r.endsWith('.js')), 'the page loads no script');
    for (const reference of references) {
      assert.doesNotMatch(reference, /^(https?:)?\/\//i, `external asset ${reference}`);
      const asset = await server.client.get(new URL(reference, `${server.baseUrl}/docs/`).pathname);
      assert.equal(asset.status, 200, reference);
    }
    for (const url of res.text.match(/https?:\/\/[^\s"'<>]+/gi) ?? []) {
      assert.equal(new URL(url).host, new URL(server.baseUrl).host, `the page refers to ${url}`);
    }
  });
});

describe('configuration errors', () => {
  /** Bad values, each with the variable its error must name; the first ones are also tried on the real process. */
  const AT_START_UP: [Record<string, string>, string][] = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ TLS: 'maybe' }, 'TLS'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TLS: 'off' }, 'TRUST_PROXY'],
    [{ TLS_CERT_FILE: '/tmp/cert.pem' }, 'TLS_KEY_FILE'],
    [{ SMTP_URL: 'http://mailer:hunter2@mail.example.com' }, 'SMTP_URL'],
  ];
  const BAD: [Record<string, string>, string][] = [
    ...AT_START_UP,
    [{ PORT: '70000' }, 'PORT'],
    [{ TLS: 'off', TRUST_PROXY: 'proxy.local' }, 'TRUST_PROXY'],
    [{ TLS_KEY_FILE: '/tmp/key.pem' }, 'TLS_CERT_FILE'],
    [{ BOOTSTRAP_PLAN: 'gold' }, 'BOOTSTRAP_PLAN'],
    [{ DEPRECATIONS: '{"method":"GET"}' }, 'DEPRECATIONS'],
    [{ PUBLIC_URL: 'cms.example.com' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'https://cms.example.com/app' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'ftp://cms.example.com' }, 'PUBLIC_URL'],
    [{ SMTP_URL: 'smtp://' }, 'SMTP_URL'],
    [{ SMTP_URL: 'mail.example.com:587' }, 'SMTP_URL'],
    [{ MAIL_FROM: 'not an address' }, 'MAIL_FROM'],
    [{ MAIL_FROM: 'Name <no-reply@example.com' }, 'MAIL_FROM'],
    [{ MAIL_RETRY_SCHEDULE: '30,0' }, 'MAIL_RETRY_SCHEDULE'],
    [{ RATE_LIMIT_ON_REDIS_DOWN: 'ajar' }, 'RATE_LIMIT_ON_REDIS_DOWN'],
    [{ HEADERS_TIMEOUT_SECONDS: '0' }, 'HEADERS_TIMEOUT_SECONDS'],
    [{ HEADERS_TIMEOUT_SECONDS: '61' }, 'HEADERS_TIMEOUT_SECONDS'],
    [{ KEEP_ALIVE_TIMEOUT_SECONDS: '0' }, 'KEEP_ALIVE_TIMEOUT_SECONDS'],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '-1' }, 'MAX_CONNECTIONS_PER_ADDRESS'],
  ];

  it('loadConfig throws a ConfigError naming the variable', () => {
    for (const [env, variable] of BAD) {
      assert.throws(
        () => loadConfig({ DATA_DIR: '/tmp/unused', ...env }),
        (error: unknown) => error instanceof ConfigError && error.variable === variable && error.message.includes(variable),
        JSON.stringify(env),
      );
    }
  });

  it('never repeats SMTP_URL in its error: it may hold the SMTP password', () => {
    assert.throws(
      () => loadConfig({ SMTP_URL: 'http://mailer:hunter2@mail.example.com' }),
      (error: unknown) => error instanceof ConfigError && !error.message.includes('hunter2'),
    );
  });

  it('reads the mail settings: SMTP_URL, MAIL_FROM (with its default), MAIL_RETRY_SCHEDULE', () => {
    assert.deepEqual(loadConfig({}).mail, { smtpUrl: undefined, from: 'Content Service <no-reply@localhost>', retrySchedule: undefined });
    const mail = loadConfig({ SMTP_URL: 'smtps://u:p@smtp.example.com:465', MAIL_FROM: 'CMS <cms@example.com>', MAIL_RETRY_SCHEDULE: '10, 60' }).mail;
    assert.deepEqual(mail, { smtpUrl: 'smtps://u:p@smtp.example.com:465', from: 'CMS <cms@example.com>', retrySchedule: [10, 60] });
    assert.equal(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'cms@example.com' }).mail.from, 'cms@example.com');
  });

  it('loadConfig accepts good values and treats an empty variable as unset', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/data', PORT: '', TLS: 'off', TRUST_PROXY: '10.0.0.0/8, 127.0.0.1', LOG_LEVEL: 'warn' });
    assert.equal(config.port, 8443);
    assert.equal(config.host, '127.0.0.1');
    assert.deepEqual(config.tls, { mode: 'off', trustProxy: ['10.0.0.0/8', '127.0.0.1'] });
    assert.deepEqual(config.store, { kind: 'sqlite', file: path.join('/tmp/data', 'cms.sqlite') });
    assert.equal(config.logLevel, 'warn');
    assert.deepEqual(loadConfig({ DATABASE_URL: 'postgres://db/cms' }).store, { kind: 'postgres', url: 'postgres://db/cms', poolSize: 10 });
    assert.deepEqual(loadConfig({ DATABASE_URL: 'postgres://db/cms', DATABASE_POOL_SIZE: '4' }).store, { kind: 'postgres', url: 'postgres://db/cms', poolSize: 4 });
    // Keep-alive outlives a proxy's idle timeout behind one, and is short when clients come directly.
    assert.deepEqual(config.connections, { headersTimeoutSeconds: 10, keepAliveTimeoutSeconds: 75, maxPerAddress: 256 });
    assert.equal(loadConfig({}).connections.keepAliveTimeoutSeconds, 5);
    assert.equal(loadConfig({}).limits.onRedisDown, 'open');
  });

  it('PUBLIC_URL is an origin; unset, it is https://<HOST>:<the port bound>', () => {
    assert.equal(publicUrlOf(loadConfig({ PUBLIC_URL: 'https://cms.example.com/' })), 'https://cms.example.com');
    assert.equal(publicUrlOf(loadConfig({ PUBLIC_URL: 'https://cms.example.com' }), 1234), 'https://cms.example.com');
    assert.equal(publicUrlOf(loadConfig({})), 'https://127.0.0.1:8443');
    assert.equal(publicUrlOf(loadConfig({ PORT: '0', HOST: '0.0.0.0' }), 40123), 'https://localhost:40123');
    assert.equal(publicUrlOf(loadConfig({ HOST: '::1', PORT: '9000' })), 'https://[::1]:9000');
  });

  it('stops the server at start-up with exit 1 and one stderr line naming the variable', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-config-'));
    try {
      const check = async ([env, variable]: [Record<string, string>, string]) => {
        const result = await exitOf(spawnTs('src/main.ts', [], { PORT: '0', DATA_DIR: dataDir, ...env }), 30_000);
        const lines = result.stderr.trim().split('\n');
        assert.equal(result.code, 1, `${JSON.stringify(env)}: ${result.stderr}`);
        assert.equal(lines.length, 1, `${JSON.stringify(env)}: ${result.stderr}`);
        assert.match(lines[0]!, new RegExp(`\\b${variable}\\b`));
        assert.doesNotMatch(result.stderr, /hunter2/);
        assert.doesNotMatch(result.stdout, /listening/);
      };
      // Two processes at a time: each start compiles TypeScript, and a busy CI machine runs other suites beside.
      const queue = [...AT_START_UP];
      const runs = [0, 1].map(async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await check(next);
      });
      await Promise.all(runs);
      assert.deepEqual(await fs.readdir(dataDir), []);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

for (const store of testStores()) {
  describe(`start-up and shutdown of the real process (${store})`, () => {
    it('prints the base URL and one key on the first start only, and reuses its certificate', () =>
      withStore(store, async (env) => {
        const first = await startServerProcess(env);
        const [printed] = await first.waitForStdout(/API key: +cms_live_\w+/);
        const key = printed.match(KEY)![0];
        assert.equal(/Base URL: +(\S+)/.exec(first.stdout())?.[1], first.baseUrl);
        assert.equal(first.baseUrl, `https://127.0.0.1:${first.port}`);
        assert.deepEqual(new Set(first.stdout().match(new RegExp(KEY, 'g'))), new Set([key]));
        // The client trusts only DATA_DIR/tls-cert.pem: a 200 proves the server uses that certificate.
        const listed = await first.client.get('/v1/content', { key });
        assert.equal(listed.status, 200, listed.text);
        // The owner's one-time dashboard password is printed beside the key, and signs in.
        await first.waitForStdout(/with password \S+/);
        const [, email, password] = /sign in as (\S+) with password (\S+)/.exec(first.stdout())!;
        assert.equal(email, 'owner@example.com');
        const signedIn = await signInRequest(first.client, email!, password!);
        assert.equal(signedIn.status, 200, signedIn.text);
        const cert = await fs.readFile(path.join(env.DATA_DIR!, 'tls-cert.pem'), 'utf8');
        const stopped = await first.stop();
        assert.deepEqual([stopped.code, stopped.signal], [0, null], stopped.stderr);
        assert.doesNotMatch(stopped.stderr, KEY);
        for (const line of stopped.stdout.split('\n').filter((l) => l.startsWith('{'))) assert.doesNotMatch(line, KEY);

        const second = await startServerProcess(env);
        assert.equal((await second.client.get('/v1/content', { key })).status, 200);
        const again = await second.stop();
        assert.deepEqual([again.code, again.signal], [0, null], again.stderr);
        assert.doesNotMatch(again.stdout, KEY);
        assert.doesNotMatch(again.stdout, /First start/);
        assert.doesNotMatch(again.stdout, /with password/);
        assert.equal(await fs.readFile(path.join(env.DATA_DIR!, 'tls-cert.pem'), 'utf8'), cert);
      }));

    it('on SIGTERM finishes the request in flight, refuses new work and exits 0', () =>
      withStore(store, async (env) => {
        const server = await startServerProcess(env);
        const key = (await server.waitForStdout(/API key: +cms_live_\w+/))[0].match(KEY)![0];
        const ca = await fs.readFile(path.join(env.DATA_DIR!, 'tls-cert.pem'), 'utf8');
        const body = JSON.stringify({ title: 'In flight', type: 'blog', content: 'Sent across a SIGTERM.' });
        const half = Math.floor(body.length / 2);

        // In flight: headers and half the body sent.
        const inFlight = await openTls(server.port, ca);
        const inFlightResponse = readResponse(inFlight);
        inFlight.write(
          `POST /v1/content HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
        );
        // Arriving: a request whose headers are not complete yet.
        const arriving = await openTls(server.port, ca);
        const arrivingResponse = readResponse(arriving);
        arriving.write('GET /v1/content HTTP/1.1\r\nHost: localhost\r\n');
        // Idle: a keep-alive connection between requests. Its answer also shows the server has read
        // the bytes sent before it; the pause is a margin on a loaded machine.
        const idle = await openTls(server.port, ca);
        const idleResponse = readResponse(idle);
        idle.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
        assert.equal((await idleResponse).status, 200);
        const idleClosed = closed(idle);
        await sleep(500);

        const signalled = Date.now();
        server.signal('SIGTERM');
        await server.waitForStdout(/"msg":"shutting down"/);
        // Refused, or reset when the connection reached the backlog just before the listener closed.
        await assert.rejects(openTls(server.port, ca), (error: NodeJS.ErrnoException) => ['ECONNREFUSED', 'ECONNRESET'].includes(error.code ?? ''));
        await idleClosed;

        arriving.write(`Authorization: Bearer ${key}\r\n\r\n`);
        const refused = await arrivingResponse;
        assert.equal(refused.status, 503);
        assert.equal(JSON.parse(refused.body).code, 'unavailable');
        assert.match(refused.headers['retry-after'] ?? '', /^\d+$/);
        assert.equal(refused.headers.connection, 'close');

        inFlight.write(body.slice(half));
        const finished = await inFlightResponse;
        assert.equal(finished.status, 201, finished.body);
        assert.equal(JSON.parse(finished.body).data.title, 'In flight');
        assert.equal(finished.headers.connection, 'close', 'an answer in flight at SIGTERM ends its connection');

        const exit = await exitOf(server, 12_000);
        assert.deepEqual([exit.code, exit.signal], [0, null], exit.stderr);
        assert.ok(Date.now() - signalled < 12_000);
        for (const socket of [inFlight, idle, arriving]) socket.destroy();
      }));
  });
}
