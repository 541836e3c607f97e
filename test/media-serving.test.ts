// Serving media: the authenticated file route (ETag, Range, 304, nosniff, disposition), public
// media with immutable caching, SVG under its CSP, and image variants made once and never upscaled.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { jpeg, multipart, type Part } from './helpers/multipart.js';
import https from 'node:https';
import fs from 'node:fs/promises';
import path from 'node:path';

/** GET returning the raw bytes (the JSON client decodes text). */
function getBytes(server: TestServer, url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    fs.readFile(path.join(server.dataDir, 'tls-cert.pem'), 'utf8').then((ca) => {
      https.get(new URL(url, server.baseUrl), { ca, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    }, reject);
  });
}

for (const store of testStores()) {
  describe(`media serving (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    let photo: Record<string, unknown>;
    let bytes: Buffer;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
      bytes = await jpeg(800, 600);
      photo = (await upload([{ name: 'file', value: bytes, filename: 'photo é.jpg' }])).body.data;
    });
    after(() => server.close());

    const upload = (parts: Part[]) => {
      const { body, headers } = multipart(parts);
      return server.client.post('/v1/media', { key: owner.key, raw: body, headers });
    };
    const auth = () => ({ authorization: `Bearer ${owner.key}` });

    it('serves the bytes with ETag "<sha256>", Content-Disposition, nosniff; 304 and 206', async () => {
      const res = await getBytes(server, `/v1/media/${String(photo.id)}/file`, auth());
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, bytes);
      assert.equal(res.headers.etag, `"${String(photo.sha256)}"`);
      assert.equal(res.headers['content-type'], 'image/jpeg');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['content-disposition'], `inline; filename="photo _.jpg"; filename*=UTF-8''photo%20%C3%A9.jpg`);
      const cached = await getBytes(server, `/v1/media/${String(photo.id)}/file`, { ...auth(), 'if-none-match': `"${String(photo.sha256)}"` });
      assert.equal(cached.status, 304);
      const part = await getBytes(server, `/v1/media/${String(photo.id)}/file`, { ...auth(), range: 'bytes=10-19' });
      assert.equal(part.status, 206);
      assert.equal(part.headers['content-range'], `bytes 10-19/${bytes.length}`);
      assert.deepEqual(part.body, bytes.subarray(10, 20));
      const tail = await getBytes(server, `/v1/media/${String(photo.id)}/file`, { ...auth(), range: 'bytes=-5' });
      assert.deepEqual(tail.body, bytes.subarray(bytes.length - 5));
      const outside = await getBytes(server, `/v1/media/${String(photo.id)}/file`, { ...auth(), range: `bytes=${bytes.length}-` });
      assert.equal(outside.status, 416);
      assert.equal(outside.headers['content-range'], `bytes */${bytes.length}`);
      assert.equal(outside.headers['content-disposition'], undefined, 'the 416 is JSON, not the file');
      assert.equal((await getBytes(server, `/v1/media/${String(photo.id)}/file`)).status, 401);
    });

    it('serves public media without a key, immutable; private media are 404 there', async () => {
      const url = `/media/${String(photo.id)}/${encodeURIComponent(String(photo.filename))}`;
      assert.equal((await getBytes(server, url)).status, 404);
      await server.client.put(`/v1/media/${String(photo.id)}`, { key: owner.key, json: { public: true } });
      const res = await getBytes(server, url);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, bytes);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
      // Readers' sites on other origins may show it (helmet's default would be same-origin).
      assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
      const missing = await getBytes(server, `/media/${String(photo.id)}/other.jpg`);
      assert.equal(missing.status, 404);
      assert.equal(missing.headers['cache-control'], 'no-store', 'an error is never cached');
    });

    it('serves SVG, scripts and all, under the sandboxing CSP', async () => {
      const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="20"><script>alert(1)</script></svg>';
      const record = (await upload([{ name: 'file', value: svg, filename: 'x.svg' }])).body.data;
      assert.deepEqual([record.width, record.height], [10, 20]);
      const res = await getBytes(server, `/v1/media/${String(record.id)}/file`, auth());
      assert.equal(res.headers['content-type'], 'image/svg+xml');
      assert.equal(res.headers['content-security-policy'], "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
    });

    it('makes variants: aspect kept, never upscaled, stored and served again without being made again', async () => {
      const made = async () => Number(/cms_media_variants_made_total (\d+)/.exec((await server.client.get('/metrics')).text)?.[1]);
      const before = await made();
      const res = await getBytes(server, `/v1/media/${String(photo.id)}/file?w=400&format=webp`, auth());
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'image/webp');
      const meta = await sharp(res.body).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 400, 300]);
      const again = await getBytes(server, `/v1/media/${String(photo.id)}/file?w=400&format=webp`, auth());
      assert.deepEqual(again.body, res.body);
      assert.equal(await made(), before + 1);
      const big = await getBytes(server, `/v1/media/${String(photo.id)}/file?w=4000`, auth());
      assert.equal((await sharp(big.body).metadata()).width, 800);
      const cover = await getBytes(server, `/v1/media/${String(photo.id)}/file?w=100&h=100&fit=cover&q=50`, auth());
      const coverMeta = await sharp(cover.body).metadata();
      assert.deepEqual([coverMeta.width, coverMeta.height], [100, 100]);
      for (const bad of ['w=0', 'w=5000', 'h=abc', 'fit=fill', 'format=gif', 'q=101', 'w=1&w=2']) {
        const r = await server.client.get(`/v1/media/${String(photo.id)}/file?${bad}`, { key: owner.key });
        assert.equal(r.status, 400, `${bad}: ${r.text}`);
      }
    });
  });
}
