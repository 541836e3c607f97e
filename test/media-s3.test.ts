// The S3 store, against a real S3-compatible server process (s3rver, started here in a child
// process): upload, serving, a variant beside the original, the sweep — the same routes as on disk,
// with the bytes in the bucket; a file over the 8 MiB part size goes up as an S3 multipart upload.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { jpeg, multipart } from './helpers/multipart.js';
import { startS3, type S3Server } from './helpers/s3.js';

for (const store of testStores()) {
  describe(`media on S3 (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    let s3: S3Server;
    let client: S3Client;
    const keys = async () => ((await client.send(new ListObjectsV2Command({ Bucket: 'media' }))).Contents ?? []).map((o) => o.Key!);
    before(async () => {
      s3 = await startS3();
      server = await startServer(store, { env: s3.env });
      owner = await server.account();
      client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    });
    after(async () => {
      await server.close();
      client.destroy();
      await s3.close();
    });

    const upload = (value: Buffer, filename: string, key = owner.key) => {
      const { body, headers } = multipart([{ name: 'file', value, filename }]);
      return server.client.post('/v1/media', { key, raw: body, headers });
    };

    it('stores the bytes content-addressed in the bucket and serves them, with a variant beside them', async () => {
      const bytes = await jpeg(640, 480);
      const res = await upload(bytes, 'shot.jpg');
      assert.equal(res.status, 201, res.text);
      const { id, sha256 } = res.body.data;
      assert.ok((await keys()).includes(`blobs/${String(sha256)}`));
      const file = await server.client.get(`/v1/media/${String(id)}/file`, { key: owner.key, headers: { range: 'bytes=0-3' } });
      assert.equal(file.status, 206);
      assert.equal(file.headers['content-range'], `bytes 0-3/${bytes.length}`);
      const variant = await server.client.get(`/v1/media/${String(id)}/file?w=100`, { key: owner.key });
      assert.equal(variant.status, 200);
      assert.ok((await keys()).some((k) => k.startsWith(`variants/${String(sha256)}/`)));
      assert.equal((await keys()).filter((k) => k.startsWith('tmp/')).length, 0);
    });

    it('uploads a 20 MiB file as an S3 multipart upload, whole and content-addressed', async () => {
      const line = 'A manual is long, and this line repeats until the file is twenty mebibytes.\n';
      const bytes = Buffer.from(line.repeat(Math.ceil((20 * 1024 * 1024) / line.length))).subarray(0, 20 * 1024 * 1024);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const res = await upload(bytes, 'manual.txt');
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.data.size, bytes.length);
      assert.equal(res.body.data.sha256, sha256);
      assert.ok((await keys()).includes(`blobs/${sha256}`));
      assert.equal((await keys()).filter((k) => k.startsWith('tmp/')).length, 0, 'the staged object is gone');
      const file = await server.client.get(`/v1/media/${String(res.body.data.id)}/file`, { key: owner.key });
      assert.equal(file.status, 200);
      assert.equal(createHash('sha256').update(Buffer.from(file.text)).digest('hex'), sha256, 'the same bytes come back (ASCII text: the text is the bytes)');
    });

    it('sweeps the bytes of deleted media and their variants', async () => {
      const account = await server.account();
      const res = await upload(await jpeg(300, 200), 'gone.jpg', account.key);
      const { id, sha256 } = res.body.data;
      await server.client.get(`/v1/media/${String(id)}/file?w=50`, { key: account.key });
      assert.equal((await server.client.delete(`/v1/media/${String(id)}`, { key: account.key })).status, 204);
      await server.app.sweepMedia(0);
      const left = await keys();
      assert.ok(!left.some((k) => k.includes(String(sha256))), left.join(', '));
    });
  });
}
