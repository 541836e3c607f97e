// `cms content export` / `import` with media (CONTRACT.md §18): the files a text shows are written
// beside its Markdown (media/<filename>, listed in media.json) while the Markdown keeps its
// `media:` references; imported into another account they are uploaded once (found by sha256 when
// the account already has the bytes), the references now name that account's media, and the
// rendered HTML shows the same images. A second import changes nothing.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseContentFile } from '../src/cli/content-files.js';
import { killChildren, runCli } from './helpers/process.js';
import { makePdf, makePng } from './helpers/png.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { startS3, type S3Server } from './helpers/s3.js';

after(killChildren);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Uploads a file through the API as a client would (multipart), answering its record. */
async function upload(server: TestServer, key: string, bytes: Buffer, filename: string, alt = ''): Promise<Json> {
  const form = new FormData();
  if (alt) form.set('alt', alt);
  form.set('file', new Blob([new Uint8Array(bytes)]), filename);
  const response = await fetch(`${server.baseUrl}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  const body = (await response.json()) as Json;
  assert.equal(response.status, 201, JSON.stringify(body));
  return body.data;
}

/** Every media record of an account. */
async function mediaOf(server: TestServer, key: string): Promise<Json[]> {
  return (await server.client.get('/v1/media?limit=100', { key })).body.data;
}

// The round trip on each store, with the bytes on disk and in an S3-compatible bucket (a real s3rver).
for (const [store, mediaStore] of testStores().flatMap((s) => [[s, 'disk'], [s, 's3']] as const)) {
  describe(`cms content export/import with media (${store}, ${mediaStore} media store)`, { timeout: 240_000 }, () => {
    let server: TestServer;
    let s3: S3Server | undefined;
    let env: Record<string, string>;
    let work: string;
    const cms = (args: string[], key: string) => runCli(['content', ...args], { ...env, CMS_API_KEY: key }, undefined, 120_000);

    before(async () => {
      if (mediaStore === 's3') s3 = await startS3();
      server = await startServer(store, s3 ? { env: s3.env } : {});
      env = { CMS_URL: server.baseUrl, NODE_EXTRA_CA_CERTS: path.join(server.dataDir, 'tls-cert.pem') };
      // This process's fetch trusts the server too (the uploads above).
      const { Agent, setGlobalDispatcher } = await import('undici');
      setGlobalDispatcher(new Agent({ connect: { ca: await fs.readFile(env.NODE_EXTRA_CA_CERTS!, 'utf8') } }));
      work = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-media-cli-'));
    });
    after(async () => {
      await server.close();
      await s3?.close();
      await fs.rm(work, { recursive: true, force: true });
    });

    it('round-trips a manual with two screenshots and a PDF into another account, images and all', async () => {
      const source: TestAccount = await server.account();
      const target: TestAccount = await server.account();
      const first = makePng(120, 80, [200, 30, 30]);
      const second = makePng(90, 90, [30, 30, 200]);
      const pdf = makePdf('The white paper');
      const shot1 = await upload(server, source.key, first, 'screen.png', 'The first screen');
      // The same file name again: both are kept, under different names on disk.
      const shot2 = await upload(server, source.key, second, 'screen.png', 'The second screen');
      const paper = await upload(server, source.key, pdf, 'paper.pdf');
      await upload(server, source.key, makePng(5, 5, [1, 2, 3]), 'unused.png');
      const body = `# The manual\n\n![The first screen](media:${shot1.id})\n\nThen:\n\n![The second screen](media:${shot2.id} "Step two")\n\nRead [the paper](media:${paper.id}).\n`;
      const manual = await server.content(source.key, { title: 'The manual', type: 'manual', content: body, status: 'published' });
      await server.content(source.key, { title: 'No media', type: 'blog', content: 'Just words.' });
      // The target already has the PDF's bytes (another name): it is found by sha256, not uploaded again.
      const targetPaper = await upload(server, target.key, pdf, 'already-here.pdf');

      const dir = path.join(work, 'export');
      const exported = await cms(['export', '--dir', dir], source.key);
      assert.equal(exported.code, 0, exported.stderr);
      assert.deepEqual([(exported.json as Json).exported, (exported.json as Json).media], [2, 3]);
      const manualFile = parseContentFile(await fs.readFile(path.join(dir, `${manual.id}.md`), 'utf8'));
      assert.equal(manualFile.content, body, 'the Markdown keeps its media: references, byte for byte');
      const manifest = JSON.parse(await fs.readFile(path.join(dir, 'media.json'), 'utf8')) as Json[];
      assert.deepEqual(
        manifest.map((m) => [m.id, m.file, m.sha256, m.alt]),
        [
          [paper.id, 'media/paper.pdf', sha256(pdf), ''],
          [shot1.id, 'media/screen.png', sha256(first), 'The first screen'],
          [shot2.id, `media/screen.${shot2.id}.png`, sha256(second), 'The second screen'],
        ].sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
      );
      assert.deepEqual(await fs.readFile(path.join(dir, 'media/screen.png')), first);
      assert.deepEqual(await fs.readFile(path.join(dir, `media/screen.${shot2.id}.png`)), second);
      assert.deepEqual(await fs.readFile(path.join(dir, 'media/paper.pdf')), pdf);
      assert.equal((await fs.readdir(path.join(dir, 'media'))).length, 3, 'unreferenced media is not exported');
      // A second export keeps the files it already has.
      assert.equal((await cms(['export', '--dir', dir], source.key)).code, 0);
      assert.equal((await fs.readdir(path.join(dir, 'media'))).length, 3);

      const imported = await cms(['import', '--dir', dir], target.key);
      assert.equal(imported.code, 0, imported.stderr);
      assert.deepEqual(imported.json, { created: 2, updated: 0, unchanged: 0, failed: [], media: { uploaded: 2, reused: 1 } });
      const targetMedia = await mediaOf(server, target.key);
      assert.equal(targetMedia.length, 3, 'two uploaded beside the PDF it had');
      const bySha = new Map(targetMedia.map((m: Json) => [m.sha256, m]));
      const [t1, t2] = [bySha.get(sha256(first)), bySha.get(sha256(second))];
      assert.deepEqual([t1.filename, t1.alt, t2.alt], ['screen.png', 'The first screen', 'The second screen']);

      const newManual = parseContentFile(await fs.readFile(path.join(dir, `${manual.id}.md`), 'utf8'));
      const expected = body.replace(shot1.id, t1.id).replace(shot2.id, t2.id).replace(paper.id, targetPaper.id);
      assert.equal(newManual.content, expected, 'the file now names the target\'s media');
      const stored = (await server.client.get(`/v1/content/${newManual.id}`, { key: target.key })).body.data;
      assert.equal(stored.content, expected);
      assert.deepEqual((await server.client.get(`/v1/media/${t1.id}`, { key: target.key })).body.data.used_by, [newManual.id]);
      const newManifest = JSON.parse(await fs.readFile(path.join(dir, 'media.json'), 'utf8')) as Json[];
      assert.deepEqual(newManifest.map((m) => m.id).sort(), [t1.id, t2.id, targetPaper.id].sort());

      // The images render: the HTML's image URLs answer the very bytes.
      const html: string = (await server.client.get(`/v1/content/${newManual.id}?render=html`, { key: target.key })).body.data.content_html;
      const sources = [...html.matchAll(/<img[^>]* src="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
      assert.equal(sources.length, 2, html);
      for (const [src, bytes] of [[sources[0]!, first], [sources[1]!, second]] as const) {
        const response = await fetch(new URL(src, server.baseUrl));
        assert.equal(response.status, 200, src);
        assert.deepEqual(Buffer.from(await response.arrayBuffer()), bytes);
      }

      // Again: nothing uploaded, nothing changed.
      const again = await cms(['import', '--dir', dir], target.key);
      assert.deepEqual(again.json, { created: 0, updated: 0, unchanged: 2, failed: [], media: { uploaded: 0, reused: 3 } });
      assert.equal((await mediaOf(server, target.key)).length, 3);
    });

    it('carries the media of `media` fields (one, and a list) across accounts too', async () => {
      const [source, target] = [await server.account(), await server.account()];
      for (const account of [source, target]) {
        const model = await server.client.put('/v1/content-types/blog', { key: account.key, json: { fields: [{ name: 'cover', kind: 'media' }, { name: 'gallery', kind: 'list', of: 'media' }] } });
        assert.equal(model.status, 200, model.text);
      }
      const [cover, a, b] = [makePng(30, 20, [250, 200, 0]), makePng(20, 30, [0, 200, 250]), makePng(25, 25, [120, 0, 120])];
      const m = [await upload(server, source.key, cover, 'cover.png'), await upload(server, source.key, a, 'a.png'), await upload(server, source.key, b, 'b.png')];
      const item = await server.content(source.key, { title: 'Gallery', type: 'blog', content: 'Pictures.', fields: { cover: m[0].id, gallery: [m[1].id, m[2].id] } });
      const dir = path.join(work, 'fields');
      const exported = await cms(['export', '--dir', dir], source.key);
      assert.equal((exported.json as Json).media, 3, exported.stderr);
      const imported = await cms(['import', '--dir', dir], target.key);
      assert.deepEqual(imported.json, { created: 1, updated: 0, unchanged: 0, failed: [], media: { uploaded: 3, reused: 0 } });
      const copy = parseContentFile(await fs.readFile(path.join(dir, `${item.id}.md`), 'utf8'));
      const stored = (await server.client.get(`/v1/content/${copy.id}`, { key: target.key })).body.data;
      const shaOf = async (id: string) => (await server.client.get(`/v1/media/${id}`, { key: target.key })).body.data.sha256;
      assert.deepEqual([await shaOf(stored.fields.cover), ...(await Promise.all(stored.fields.gallery.map(shaOf)))], [sha256(cover), sha256(a), sha256(b)]);
      assert.deepEqual((await cms(['import', '--dir', dir], target.key)).json, { created: 0, updated: 0, unchanged: 1, failed: [], media: { uploaded: 0, reused: 3 } });
    });

    it('exports a reference to media the account lacks as it is, and says so', async () => {
      const account = await server.account();
      const gone = await upload(server, account.key, makePng(4, 4, [9, 9, 9]), 'gone.png');
      const item = await server.content(account.key, { title: 'Old', content: `![x](media:${gone.id})` });
      assert.equal((await fetch(`${server.baseUrl}/v1/media/${gone.id}?force=true`, { method: 'DELETE', headers: { authorization: `Bearer ${account.key}` } })).status, 204);
      const dir = path.join(work, 'missing');
      const exported = await cms(['export', '--dir', dir], account.key);
      assert.equal(exported.code, 0, exported.stderr);
      assert.deepEqual([(exported.json as Json).media, (exported.json as Json).missing_media], [0, [gone.id]]);
      assert.match(parseContentFile(await fs.readFile(path.join(dir, `${item.id}.md`), 'utf8')).content, new RegExp(gone.id));
    });
  });
}
