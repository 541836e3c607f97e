// The dashboard's pages as the service serves them (docs/dashboard.md): the built app at /, any page
// path answered with it, strict security headers, assets cached for good, and none of it part of the
// API (no envelope, no rate-limit headers, not counted), while API paths keep their JSON 404s.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { DASHBOARD_DIR } from '../src/http/dashboard.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

function assertPageHeaders(headers: Record<string, string | string[] | undefined>): void {
  const csp = String(headers['content-security-policy']);
  for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"]) {
    assert.ok(csp.includes(directive), `CSP has ${directive}: ${csp}`);
  }
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
  assert.equal(headers['x-frame-options'], 'DENY');
  assert.equal(headers['referrer-policy'], 'no-referrer');
  assert.equal(headers['x-content-type-options'], 'nosniff');
  assert.equal(headers['x-ratelimit-limit'], undefined, 'pages are not rate limited');
}

for (const store of testStores()) {
  describe(`dashboard pages (${store})`, () => {
    let server: TestServer;
    before(async () => {
      assert.ok(fs.existsSync(`${DASHBOARD_DIR}index.html`), 'the dashboard is built (npm run build; npm ci does it)');
      server = await startServer(store, { env: { IP_RATE_LIMIT: '3' } });
    });
    after(() => server.close());

    it('serves the built app at / and at every page path, with strict security headers and no inline script', async () => {
      for (const path of ['/', '/keys', '/content/content_123', '/users?offset=20']) {
        const res = await server.client.get(path, { headers: HTML });
        assert.equal(res.status, 200, `${path}: ${res.text}`);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        assert.equal(res.headers['cache-control'], 'no-cache');
        assertPageHeaders(res.headers);
        assert.match(res.text, /<div id="app"><\/div>/);
        assert.doesNotMatch(res.text, /<script(?![^>]*\bsrc=)[^>]*>/, 'every script is a file');
        assert.doesNotMatch(res.text, /\bstyle=|<style/, 'no inline style');
        assert.doesNotMatch(res.text, /https?:\/\//, 'nothing is loaded from elsewhere');
      }
    });

    it('serves the assets the page names, cached for good, from this service', async () => {
      const page = await server.client.get('/', { headers: HTML });
      const assets = [...page.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
      assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), String(assets));
      for (const asset of assets) {
        const res = await server.client.get(asset);
        assert.equal(res.status, 200, asset);
        assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
        assertPageHeaders(res.headers);
      }
      assert.equal((await server.client.get('/assets/nope.js')).status, 404);
    });

    it('is not the API: pages are not counted, while API paths and unknown paths asked for as JSON keep their JSON 404', async () => {
      for (let i = 0; i < 5; i++) assert.equal((await server.client.get('/keys', { headers: HTML })).status, 200);
      const api = await server.client.get('/v1/content');
      assert.equal(api.status, 401);
      assert.equal(api.headers['x-ratelimit-remaining'], '2', 'five page loads used none of the three requests allowed without a key');
      const unknownApi = await server.client.get('/v1/nowhere', { headers: HTML });
      assert.equal(unknownApi.status, 404);
      assert.equal(unknownApi.body.code, 'not_found');
      const unknown = await server.client.get('/nowhere');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 'not_found');
      assert.equal((await server.client.request('DELETE', '/keys')).status, 404);
    });
  });
}
