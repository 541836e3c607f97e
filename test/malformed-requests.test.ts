// Requests that never become requests of the API — what Node's HTTP parser rejects, a URL that
// cannot be decoded, oversized headers, CONNECT — still get the contract's JSON error with meta and
// a request id, `Connection: close`, one info log line, and never an error-level log line (a socket
// that vanished mid-parse included). Long path parameters are looked up like any other (404).
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import type tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseLogs, requestLogs } from './helpers/logs.js';
import { openTcp, openTls, readResponse, readUntilClose, type RawResponse } from './helpers/raw.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const REQUEST_ID = /^req_[0-9a-hjkmnp-tv-z]{26}$/;

for (const store of testStores()) {
  describe(`malformed requests (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    let ca: string;
    before(async () => {
      server = await startServer(store, { env: { HEADERS_TIMEOUT_SECONDS: '1' } });
      owner = await server.account();
      ca = await fs.readFile(path.join(server.dataDir, 'tls-cert.pem'), 'utf8');
    });
    after(() => server.close());

    async function send(text: string): Promise<{ res: RawResponse; socket: tls.TLSSocket }> {
      const socket = await openTls(server.port, ca);
      socket.on('error', () => {});
      const response = readResponse(socket);
      socket.write(text);
      return { res: await response, socket };
    }

    /** The envelope, its headers, the connection closed, and the request's one info line. */
    async function assertAnswered(text: string, status: number, code: string): Promise<RawResponse> {
      const { res, socket } = await send(text);
      assert.equal(res.status, status, res.body);
      const body = JSON.parse(res.body);
      assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'meta']);
      assert.equal(body.code, code);
      assert.match(res.headers['x-request-id']!, REQUEST_ID);
      assert.equal(body.meta.request_id, res.headers['x-request-id']);
      assert.match(body.meta.response_time, /^\d+\.\d{2}ms$/);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
      assert.equal(res.headers.connection, 'close');
      await readUntilClose(socket);
      const lines = await requestLogs(server.logs, body.meta.request_id);
      assert.equal(lines.length, 1);
      assert.equal(lines[0]!.level, 30);
      assert.equal(lines[0]!.status, status);
      return res;
    }

    const key = () => `Authorization: Bearer ${owner.key}\r\n`;

    it("answers what Node's parser rejects with 400 bad_request", async () => {
      for (const text of [
        'FOO /v1/content HTTP/1.1\r\nHost: x\r\n\r\n',
        'GET /v1/content HTTP/9.9\r\nHost: x\r\n\r\n',
        'POST /v1/content HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n',
        'POST /v1/content HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
        'POST /v1/content HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        `GET /v1/content HTTP/1.1\r\nHost: x\r\nX-Bad: a\x00b\r\n${key()}\r\n`,
        'GET /v1/content HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n',
        'GET /v1/con tent HTTP/1.1\r\nHost: x\r\n\r\n',
      ]) {
        await assertAnswered(text, 400, 'bad_request');
      }
    });

    it('answers an undecodable URL 400 bad_request without echoing it', async () => {
      const res = await assertAnswered(`GET /v1/content/%zz-secret-path HTTP/1.1\r\nHost: x\r\n${key()}\r\n`, 400, 'bad_request');
      assert.doesNotMatch(res.body, /secret-path|%zz/);
      await assertAnswered(`GET /v1/users/%ED%A0%80 HTTP/1.1\r\nHost: x\r\n${key()}\r\n`, 400, 'bad_request');
    });

    it('answers headers over 16 KiB 431 headers_too_large, however much more is sent', async () => {
      await assertAnswered(`GET /v1/content HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large');
      await assertAnswered(`GET /v1/content HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(200_000)}\r\n\r\n`, 431, 'headers_too_large');
      await assertAnswered(`GET /v1/content?${'q='.repeat(10_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, 'headers_too_large');
    });

    it('answers CONNECT 400 rather than dropping the connection', async () => {
      await assertAnswered('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 400, 'bad_request');
    });

    it('answers a request whose headers do not arrive in time 408 request_timeout', async () => {
      const socket = await openTls(server.port, ca);
      const text = readUntilClose(socket, 5000);
      socket.write('GET /v1/content HTTP/1.1\r\nHost: x\r\n');
      const answer = await text;
      assert.match(answer, /^HTTP\/1\.1 408 /);
      assert.equal(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).code, 'request_timeout');
    });

    it('looks a long path parameter up like any other: 404 with the rate-limit headers', async () => {
      const res = await server.client.get(`/v1/content/content_${'a'.repeat(5000)}`, { key: owner.key });
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 'not_found');
      assert.equal(res.headers['x-ratelimit-limit'], '10000');
      assert.doesNotMatch(res.text, /aaaa/);
    });

    it('answers garbage in plain HTTP with the envelope too', async () => {
      const socket = await openTcp(server.port);
      const text = readUntilClose(socket);
      socket.write('\x00\xff not http at all\r\n\r\n');
      const answer = await text;
      assert.match(answer, /^HTTP\/1\.1 400 /);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      assert.equal(body.code, 'bad_request');
      assert.match(body.meta.request_id, REQUEST_ID);
      assert.doesNotMatch(answer, /strict-transport-security/i, 'never HSTS over plain HTTP');
    });

    it('takes sockets that vanish mid-request in its stride: no exception, no error line', async () => {
      // A request without a key counted against its address after the client has gone (D6), and
      // requests cut off at every stage.
      const heads = [
        'POST /v1/content HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n',
        'GET /v1/content HTTP/1.1\r\nHost: x\r\n\r\n',
        'POST /v1/content HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"ti',
        `POST /v1/content HTTP/1.1\r\nHost: x\r\n${key()}Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{"ti`,
        'GET /v1/con',
      ];
      await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          const socket = await openTls(server.port, ca);
          socket.on('error', () => {});
          socket.write(heads[i % heads.length]!, () => (i % 2 === 0 ? socket.destroy() : setTimeout(() => socket.destroy(), 5)));
        }),
      );
      await sleep(500);
      assert.equal((await server.client.get('/v1/content', { key: owner.key })).status, 200);
    });

    it('logged nothing at error level', () => {
      assert.deepEqual(
        parseLogs(server.logs).filter((l) => (l.level as number) >= 50),
        [],
      );
    });
  });
}
