// Transport and envelope: plain HTTP on the HTTPS port, TLS=off behind a proxy, request ids and log lines, routing, deprecation headers.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Client, type Response } from './helpers/client.js';
import { requestLogs } from './helpers/logs.js';
import { openTcp, readResponse, readUntilClose } from './helpers/raw.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

/** `req_` plus a lower-case ULID (Crockford base32: no i, l, o, u). */
const REQUEST_ID = /^req_[0-9a-hjkmnp-tv-z]{26}$/;
const UNKNOWN_KEY = `cms_live_${'Z'.repeat(40)}`;

/** Asserts the envelope of any JSON response: meta with a fresh request id, equal to X-Request-Id. */
function assertMeta(res: Response): string {
  const id = res.headers['x-request-id'];
  assert.match(String(id), REQUEST_ID);
  assert.equal(res.body?.meta?.request_id, id, `meta.request_id of ${res.status} ${res.text}`);
  assert.match(res.body.meta.response_time, /^\d+(\.\d{1,2})?ms$/);
  return id as string;
}

function assertError(res: Response, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code);
  assert.equal(typeof res.body.message, 'string');
  assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/);
  assertMeta(res);
}

function assertNoSecretsLogged(server: TestServer, secrets: string[]): void {
  for (const line of server.logs) {
    for (const secret of secrets) assert.ok(!line.includes(secret), `a log line contains a secret: ${line}`);
    assert.doesNotMatch(line, /Bearer|cms_live_/i, `a log line contains a key: ${line}`);
  }
}

for (const store of testStores()) {
  describe(`plain HTTP on the HTTPS port (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    let plain: Client;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
      plain = new Client(`http://127.0.0.1:${server.port}`);
    });
    after(async () => {
      plain.close();
      await server.close();
    });

    it('answers 400 https_required in plain HTTP, with meta and X-Request-Id', async () => {
      const res = await plain.get('/v1/content');
      assertError(res, 400, 'https_required');
      assert.equal(res.headers.connection, 'close');
      assert.deepEqual(Object.keys(res.body).sort(), ['code', 'message', 'meta']);
    });

    it('never checks the Authorization header, and never logs it', async () => {
      const answers = await Promise.all([
        plain.get('/v1/content', { key: owner.key }),
        plain.get('/v1/content', { key: UNKNOWN_KEY }),
        plain.post('/v1/content', { key: owner.key, json: { title: 'x', type: 'blog', content: 'y' } }),
      ]);
      for (const res of answers) {
        assertError(res, 400, 'https_required');
        assert.equal(res.headers['www-authenticate'], undefined);
        assert.deepEqual({ message: res.body.message, code: res.body.code }, { message: answers[0]!.body.message, code: 'https_required' });
      }
      const ids = answers.map((res) => res.body.meta.request_id);
      assert.equal(new Set(ids).size, ids.length);
      for (const id of ids) {
        const lines = await requestLogs(server.logs, id);
        assert.equal(lines.length, 1);
        assert.equal(lines[0]!.status, 400);
        assert.equal(lines[0]!.url, '/v1/content');
      }
      assertNoSecretsLogged(server, [owner.key, UNKNOWN_KEY]);
      // Nothing was created by the plain-HTTP POST.
      const list = await server.client.get('/v1/content', { key: owner.key });
      assert.equal(list.body.pagination.total, 0);
    });

    it('serves HTTPS on the same port', async () => {
      const res = await server.client.get('/v1/content', { key: owner.key });
      assert.equal(res.status, 200, res.text);
      assertMeta(res);
    });

    it('classifies a request that arrives one byte at a time', async () => {
      const socket = await openTcp(server.port);
      const response = readResponse(socket);
      for (const part of ['G', 'ET /v1/content HTTP/1.1\r\n', `Host: 127.0.0.1\r\nAuthorization: Bearer ${owner.key}\r\n\r\n`]) {
        socket.write(part);
        await sleep(30);
      }
      const res = await response;
      socket.destroy();
      assert.equal(res.status, 400);
      assert.equal(JSON.parse(res.body).code, 'https_required');
      assert.match(res.headers['x-request-id']!, REQUEST_ID);
    });

    it('answers garbage with 400 and closes; a broken TLS handshake is dropped; the port keeps serving', async () => {
      const garbage = await openTcp(server.port);
      const text = readUntilClose(garbage);
      garbage.write('\x00\xff not http at all\r\n\r\n');
      assert.match(await text, /^HTTP\/1\.1 400 /);

      const fakeTls = await openTcp(server.port);
      const fakeText = readUntilClose(fakeTls);
      fakeTls.write(Buffer.from([0x16, 0x03, 0x01, 0x00, 0x04, 0xde, 0xad, 0xbe, 0xef]));
      assert.doesNotMatch(await fakeText, /HTTP\/1\.1/);

      const res = await server.client.get('/v1/content', { key: owner.key });
      assert.equal(res.status, 200);
    });
  });

  describe(`TLS=off behind a trusted proxy (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store, { env: { TLS: 'off', TRUST_PROXY: '127.0.0.1/32' } });
      owner = await server.account();
    });
    after(() => server.close());

    it('serves a request forwarded as https', async () => {
      const res = await server.client.get('/v1/content', { key: owner.key, headers: { 'x-forwarded-proto': 'https' } });
      assert.equal(res.status, 200, res.text);
      assertMeta(res);
    });

    it('answers 400 https_required when X-Forwarded-Proto is missing or http, whatever the key', async () => {
      for (const headers of [{}, { 'x-forwarded-proto': 'http' }] as Record<string, string>[]) {
        for (const key of [owner.key, UNKNOWN_KEY, undefined]) {
          const res = await server.client.get('/v1/content', { key, headers });
          assertError(res, 400, 'https_required');
          assert.equal(res.headers['www-authenticate'], undefined);
        }
      }
      assertNoSecretsLogged(server, [owner.key, UNKNOWN_KEY]);
    });

    it('ignores X-Forwarded-Proto from an address it does not trust', async () => {
      const elsewhere = await startServer(store, { env: { TLS: 'off', TRUST_PROXY: '10.0.0.0/8' } });
      try {
        const key = (await elsewhere.account()).key;
        const res = await elsewhere.client.get('/v1/content', { key, headers: { 'x-forwarded-proto': 'https' } });
        assertError(res, 400, 'https_required');
      } finally {
        await elsewhere.close();
      }
    });
  });

  describe(`request ids and log lines (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
    });
    after(() => server.close());

    it('sends X-Request-Id equal to meta.request_id on every response, a new one each time', async () => {
      const { client } = server;
      const created = await client.post('/v1/content', { key: owner.key, json: { title: 'Ids', type: 'blog', content: 'x' } });
      const answers = [
        created,
        await client.get('/v1/content', { key: owner.key }),
        await client.get(`/v1/content/${created.body.data.id}`, { key: owner.key }),
        await client.post('/v1/content', { key: owner.key, json: {} }),
        await client.post('/v1/content', { key: owner.key, raw: '{', headers: { 'content-type': 'application/json' } }),
        await client.get('/v1/content'),
        await client.get('/v1/content', { key: UNKNOWN_KEY }),
        await client.get('/nowhere'),
        await client.request('PATCH', '/v1/content'),
        await client.get('/healthz'),
      ];
      assert.deepEqual(answers.map((r) => r.status), [201, 200, 200, 422, 400, 401, 401, 404, 405, 200]);
      const ids = answers.map(assertMeta);
      const deleted = await client.delete(`/v1/content/${created.body.data.id}`, { key: owner.key });
      assert.equal(deleted.status, 204);
      assert.match(String(deleted.headers['x-request-id']), REQUEST_ID);
      ids.push(deleted.headers['x-request-id'] as string);
      assert.equal(new Set(ids).size, ids.length);
    });

    it("makes its own id and logs the client's beside it, in exactly one line", async () => {
      const res = await server.client.get('/v1/content', { key: owner.key, headers: { 'x-request-id': 'client-chosen-42' } });
      assert.equal(res.status, 200);
      const id = assertMeta(res);
      assert.notEqual(id, 'client-chosen-42');
      const lines = await requestLogs(server.logs, id);
      assert.equal(lines.length, 1);
      assert.equal(lines[0]!.client_request_id, 'client-chosen-42');
      assert.equal(lines[0]!.status, 200);
      assert.equal(lines[0]!.method, 'GET');
      assert.equal(lines[0]!.account_id, owner.accountId);
    });

    it('writes one line for each failed request too', async () => {
      for (const res of [await server.client.get('/v1/content'), await server.client.get('/nowhere'), await server.client.request('DELETE', '/v1/content')]) {
        const lines = await requestLogs(server.logs, assertMeta(res));
        assert.equal(lines.length, 1);
        assert.equal(lines[0]!.status, res.status);
      }
    });

    it('never logs the Authorization header or a key, and redacts a token in the URL', async () => {
      const res = await server.client.get(`/v1/content?token=${owner.key}&limit=5`, { key: owner.key });
      assert.ok(!res.text.includes(owner.key), 'the response echoes the key');
      const [line] = await requestLogs(server.logs, assertMeta(res));
      assert.equal(line!.url, '/v1/content?token=[REDACTED]&limit=5');
      for (const other of [await server.client.get(`/v1/content?token=${UNKNOWN_KEY}`), await server.client.get('/v1/content', { key: UNKNOWN_KEY })]) {
        assert.equal(other.status, 401);
        await requestLogs(server.logs, assertMeta(other));
      }
      assertNoSecretsLogged(server, [owner.key, UNKNOWN_KEY]);
    });
  });

  describe(`routing before authentication (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
    });
    after(() => server.close());

    const credentials = () => [undefined, UNKNOWN_KEY, owner.key];

    it('answers unknown paths 404 not_found, with or without a key', async () => {
      for (const path of ['/nowhere', '/v1/nowhere', '/v2/content', '/v2/content/content_01', '/v1', '/V1/content']) {
        for (const key of credentials()) {
          const res = await server.client.get(path, { key });
          assertError(res, 404, 'not_found');
          assert.equal(res.headers['www-authenticate'], undefined);
        }
      }
    });

    it('answers a wrong method on a known path 405 with the right methods in Allow', async () => {
      const cases: [string, string, string[]][] = [
        ['PATCH', '/v1/content', ['GET', 'HEAD', 'POST']],
        ['DELETE', '/v1/content', ['GET', 'HEAD', 'POST']],
        ['PUT', '/v1/content', ['GET', 'HEAD', 'POST']],
        ['PATCH', '/v1/content/content_01', ['DELETE', 'GET', 'HEAD', 'PUT']],
        ['POST', '/v1/content/content_01', ['DELETE', 'GET', 'HEAD', 'PUT']],
        ['GET', '/v1/content/content_01/archive', ['POST']],
      ];
      for (const [method, path, allowed] of cases) {
        for (const key of credentials()) {
          const res = await server.client.request(method, path, { key });
          assertError(res, 405, 'method_not_allowed');
          assert.deepEqual(String(res.headers.allow).split(/,\s*/).sort(), allowed, `${method} ${path}`);
          assert.equal(res.headers['www-authenticate'], undefined);
        }
      }
    });

    it('still asks for a key on a known route', async () => {
      const res = await server.client.get('/v1/content');
      assertError(res, 401, 'unauthorized');
      assert.equal(res.headers['www-authenticate'], 'Bearer');
    });
  });

  describe(`deprecation headers (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    const DEPRECATIONS = [
      { method: 'GET', path: '/v1/content', deprecated_at: '2026-01-01T00:00:00Z', sunset: '2027-01-01T00:00:00Z', link: 'https://example.com/docs/deprecations' },
    ];
    before(async () => {
      server = await startServer(store, { env: { DEPRECATIONS: JSON.stringify(DEPRECATIONS) } });
      owner = await server.account();
    });
    after(() => server.close());

    it('marks the deprecated route with Deprecation, Sunset and Link', async () => {
      for (const res of [await server.client.get('/v1/content', { key: owner.key }), await server.client.get('/v1/content?type=blog', { key: owner.key })]) {
        assert.equal(res.status, 200);
        assert.equal(res.headers.deprecation, '@1767225600');
        assert.equal(res.headers.sunset, 'Fri, 01 Jan 2027 00:00:00 GMT');
        assert.equal(res.headers.link, '<https://example.com/docs/deprecations>; rel="deprecation"');
      }
    });

    it('leaves other routes alone', async () => {
      const created = await server.client.post('/v1/content', { key: owner.key, json: { title: 'Fresh', type: 'blog', content: 'x' } });
      assert.equal(created.status, 201);
      for (const res of [created, await server.client.get(`/v1/content/${created.body.data.id}`, { key: owner.key }), await server.client.get('/healthz')]) {
        assert.equal(res.headers.deprecation, undefined);
        assert.equal(res.headers.sunset, undefined);
        assert.equal(res.headers.link, undefined);
      }
    });
  });
}
