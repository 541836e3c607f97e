// Security headers and TLS (D7): HSTS on every HTTPS answer when the service terminates TLS (and
// never behind a proxy that does), nosniff and no-store on /v1, the same headers on /docs and the
// dashboard (which keep their own CSP), and TLS 1.2 limited to ECDHE with AEAD suites.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const HSTS = 'max-age=31536000; includeSubDomains';

function assertCommon(res: Response, where: string): void {
  assert.equal(res.headers['x-content-type-options'], 'nosniff', where);
  assert.equal(res.headers['referrer-policy'], 'no-referrer', where);
  assert.equal(res.headers['x-frame-options'], 'DENY', where);
  assert.ok(res.headers['content-security-policy'], where);
}

for (const store of testStores()) {
  describe(`security headers (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
    });
    after(() => server.close());

    it('sends HSTS, nosniff, no-store and a CSP that loads nothing on every /v1 answer, errors included', async () => {
      const answers = [
        await server.client.get('/v1/content', { key: owner.key }),
        await server.client.get('/v1/content'),
        await server.client.get('/v1/nowhere', { key: owner.key }),
        await server.client.post('/v1/content', { key: owner.key, json: { title: '' } }),
        await server.client.delete(`/v1/content/${(await server.content(owner.key)).id}`, { key: owner.key }),
      ];
      assert.deepEqual(answers.map((r) => r.status), [200, 401, 404, 422, 204]);
      for (const res of answers) {
        assertCommon(res, `${res.status}`);
        assert.equal(res.headers['strict-transport-security'], HSTS);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.equal(res.headers['content-security-policy'], "default-src 'none';frame-ancestors 'none'");
      }
    });

    it('sends the same headers on /docs, which keeps its own CSP, and on the dashboard', async () => {
      const docs = await server.client.get('/docs/');
      assert.equal(docs.status, 200);
      assertCommon(docs, '/docs/');
      assert.equal(docs.headers['strict-transport-security'], HSTS);
      assert.match(String(docs.headers['content-security-policy']), /script-src 'self'/);
      const dashboard = await server.client.get('/', { headers: { accept: 'text/html' } });
      assertCommon(dashboard, '/');
      assert.equal(dashboard.headers['strict-transport-security'], HSTS);
      assert.match(String(dashboard.headers['content-security-policy']), /connect-src 'self'/);
      assert.equal((await server.client.get('/healthz')).headers['strict-transport-security'], HSTS);
    });

    it('speaks TLS 1.2 only with ECDHE and AEAD suites, and refuses TLS 1.1', async () => {
      const ca = await fs.readFile(path.join(server.dataDir, 'tls-cert.pem'), 'utf8');
      const handshake = (options: tls.ConnectionOptions) =>
        new Promise<string>((resolve, reject) => {
          const socket = tls.connect({ host: '127.0.0.1', port: server.port, ca, servername: 'localhost', ...options }, () => {
            const cipher = socket.getCipher().standardName;
            socket.destroy();
            resolve(cipher);
          });
          socket.once('error', reject);
        });
      const tls12 = { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' } as const;
      assert.equal(await handshake({ ...tls12, ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' }), 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256');
      assert.equal(await handshake({ ...tls12, ciphers: 'ECDHE-ECDSA-CHACHA20-POLY1305' }), 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256');
      for (const ciphers of ['ECDHE-ECDSA-AES128-SHA', 'ECDHE-ECDSA-AES256-SHA384', 'ECDHE-ECDSA-AES128-CCM8', 'ECDHE-ECDSA-AES128-CCM', 'AES128-GCM-SHA256']) {
        await assert.rejects(handshake({ ...tls12, ciphers }), Error, ciphers);
      }
      await assert.rejects(handshake({ minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }));
      assert.match(await handshake({ minVersion: 'TLSv1.3' }), /^TLS_(AES|CHACHA20)/);
    });
  });

  describe(`security headers behind a TLS-terminating proxy (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store, { env: { TLS: 'off', TRUST_PROXY: '127.0.0.1/32' } });
    });
    after(() => server.close());

    it('leaves HSTS to the proxy and sends the rest', async () => {
      const res = await server.client.get('/v1/content', { headers: { 'x-forwarded-proto': 'https' } });
      assert.equal(res.status, 401);
      assertCommon(res, 'TLS=off');
      assert.equal(res.headers['strict-transport-security'], undefined);
      assert.equal(res.headers['cache-control'], 'no-store');
    });
  });
}
