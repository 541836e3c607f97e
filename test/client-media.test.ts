// The typed client's media calls (packages/client, CONTRACT.md §18) against a real server: uploads
// from bytes, a file-backed Blob and a Node stream (sent as it is read), listing by cursor, alt text
// with If-Match, the file's bytes, a Range and an image variant, and deletion refused while content
// uses the file (the item ids on the error) until forced.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Agent, setGlobalDispatcher } from 'undici';
import { CmsApiError, createCmsClient, type CmsClient } from '@cms-service/client';
import { makePdf, makePng } from './helpers/png.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

for (const store of testStores()) {
  describe(`typed client: media (${store})`, { timeout: 120_000 }, () => {
    let server: TestServer;
    let owner: TestAccount;
    let cms: CmsClient;
    let work: string;

    before(async () => {
      server = await startServer(store);
      setGlobalDispatcher(new Agent({ connect: { ca: fs.readFileSync(path.join(server.dataDir, 'tls-cert.pem'), 'utf8') } }));
      owner = await server.account();
      cms = createCmsClient({ baseUrl: server.baseUrl, token: owner.key });
      work = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-client-media-'));
    });
    after(async () => {
      await server.close();
      fs.rmSync(work, { recursive: true, force: true });
    });

    it('uploads bytes, a file-backed Blob and a stream, and answers typed records', async () => {
      const png = makePng(64, 48, [200, 40, 40]);
      const fromBytes = await cms.media.upload(png, { filename: 'red.png', alt: 'A red square', title: 'Red' });
      assert.match(fromBytes.id, /^media_[0-9a-z]{26}$/);
      assert.deepEqual(
        [fromBytes.filename, fromBytes.content_type, fromBytes.size, fromBytes.sha256, fromBytes.width, fromBytes.height, fromBytes.alt, fromBytes.title, fromBytes.public, fromBytes.url, fromBytes.used_by, fromBytes.version, fromBytes.created_by],
        ['red.png', 'image/png', png.length, sha256(png), 64, 48, 'A red square', 'Red', false, null, [], 1, owner.userId],
      );

      const pdf = makePdf('A white paper');
      const file = path.join(work, 'paper.pdf');
      fs.writeFileSync(file, pdf);
      const fromBlob = await cms.media.upload(await fs.openAsBlob(file), { filename: 'paper.pdf', title: 'The paper' });
      assert.deepEqual([fromBlob.content_type, fromBlob.size, fromBlob.sha256, fromBlob.width], ['application/pdf', pdf.length, sha256(pdf), null]);

      // A Node stream in small chunks: sent part by part (the client never holds it whole).
      const big = makePng(400, 300, [20, 120, 200]);
      const chunks = Array.from({ length: Math.ceil(big.length / 1024) }, (_, i) => big.subarray(i * 1024, (i + 1) * 1024));
      const fromStream = await cms.media.upload(Readable.from(chunks), { filename: 'blue "quoted".png', alt: 'Blue' });
      assert.deepEqual([fromStream.content_type, fromStream.size, fromStream.sha256, fromStream.width, fromStream.height], ['image/png', big.length, sha256(big), 400, 300]);
      assert.match(fromStream.filename, /^blue .*quoted.*\.png$/);

      // A web ReadableStream too.
      const web = await cms.media.upload(Readable.toWeb(Readable.from([Buffer.from('plain text notes\n')])) as ReadableStream<Uint8Array>, { filename: 'notes.txt' });
      assert.deepEqual([web.content_type.split(';')[0], web.size], ['text/plain', 17]);
    });

    it('refuses with a typed error: a type it does not take, and an unknown id', async () => {
      const error = await cms.media.upload(Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff, 0xfe, 0x00, 0x10]), { filename: 'blob.bin' }).then(
        () => assert.fail('accepted'),
        (e: unknown) => e as CmsApiError,
      );
      assert.ok(error instanceof CmsApiError);
      assert.deepEqual([error.status, error.errors.map((e) => [e.field, e.code])], [422, [['file', 'unsupported_type']]]);
      await assert.rejects(cms.media.get('media_01jd2x3m4n5p6q7r8s9t0v1w2x'), (e: unknown) => e instanceof CmsApiError && e.status === 404 && e.code === 'not_found');
    });

    it('lists newest first, filters by kind and words, and iterates every page by cursor', async () => {
      const account = await server.account();
      const mine = createCmsClient({ baseUrl: server.baseUrl, token: account.key });
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) ids.push((await mine.media.upload(makePng(8 + i, 8, [i * 30, 0, 0]), { filename: `shot-${i}.png`, alt: i === 3 ? 'the diagram' : '' })).id);
      await mine.media.upload(makePdf('Doc'), { filename: 'doc.pdf' });
      const first = await mine.media.list({ type: 'image', limit: 3 });
      assert.deepEqual(first.data.map((m) => m.id), ids.slice(-3).reverse());
      assert.equal(first.pagination.has_more, true);
      const all: string[] = [];
      for await (const media of mine.media.iterate({ type: 'image', limit: 2 })) all.push(media.id);
      assert.deepEqual(all, [...ids].reverse());
      assert.deepEqual((await mine.media.list({ q: 'diagram' })).data.map((m) => m.id), [ids[3]]);
      assert.deepEqual((await mine.media.list({ type: 'document' })).data.map((m) => m.filename), ['doc.pdf']);
    });

    it('changes alt text with If-Match, refusing a stale version', async () => {
      const media = await cms.media.upload(makePng(10, 10, [0, 200, 0]), { filename: 'green.png' });
      const changed = await cms.media.update(media.id, { alt: 'Green', title: 'Grass' }, { ifMatch: media.version });
      assert.deepEqual([changed.alt, changed.title, changed.version], ['Green', 'Grass', media.version + 1]);
      await assert.rejects(cms.media.update(media.id, { alt: 'Stale' }, { ifMatch: media.version }), (e: unknown) => e instanceof CmsApiError && e.status === 412);
      assert.equal((await cms.media.get(media.id)).alt, 'Green');
    });

    it('reads the bytes, a range of them and a variant, from the file URL', async () => {
      const png = makePng(300, 200, [90, 90, 200]);
      const media = await cms.media.upload(png, { filename: 'wide.png' });
      assert.equal(cms.media.fileUrl(media.id), `${server.baseUrl}/v1/media/${media.id}/file`);
      assert.equal(cms.media.fileUrl(media.id, { w: 100, format: 'webp' }), `${server.baseUrl}/v1/media/${media.id}/file?w=100&format=webp`);
      const whole = await cms.media.file(media.id);
      assert.equal(whole.headers.get('etag'), `"${media.sha256}"`);
      assert.deepEqual(Buffer.from(await whole.arrayBuffer()), png);
      const part = await cms.media.file(media.id, {}, { range: 'bytes=0-7' });
      assert.equal(part.status, 206);
      assert.deepEqual(Buffer.from(await part.arrayBuffer()), png.subarray(0, 8));
      const variant = await cms.media.file(media.id, { w: 100, format: 'png' });
      const bytes = Buffer.from(await variant.arrayBuffer());
      assert.equal(variant.headers.get('content-type'), 'image/png');
      assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], [100, 67], 'the aspect kept');
      await assert.rejects(cms.media.file(media.id, { fit: 'stretch' as never }), (e: unknown) => e instanceof CmsApiError && e.status === 400);
    });

    it('refuses to delete a file content uses, naming the items, until forced', async () => {
      const media = await cms.media.upload(makePng(20, 20, [10, 10, 10]), { filename: 'logo.png', alt: 'Logo [dark]' });
      assert.equal(cms.media.markdown(media), `![Logo \\[dark\\]](media:${media.id})`);
      const item = await cms.content.create({ title: 'Uses the logo', type: 'manual', content: `# Hi\n\n${cms.media.markdown(media)}\n` });
      assert.deepEqual((await cms.media.get(media.id)).used_by, [item.id]);
      const refused = await cms.media.delete(media.id).then(
        () => assert.fail('deleted'),
        (e: unknown) => e as CmsApiError,
      );
      assert.deepEqual([refused.status, refused.code, refused.usedBy], [409, 'conflict', [item.id]]);
      await cms.media.delete(media.id, { force: true });
      await assert.rejects(cms.media.get(media.id), (e: unknown) => e instanceof CmsApiError && e.status === 404);
      const pdf = await cms.media.upload(makePdf('x'), { filename: 'x.pdf' });
      assert.equal(cms.media.markdown(pdf), `[x.pdf](media:${pdf.id})`);
      await cms.media.delete(pdf.id);
    });
  });
}
