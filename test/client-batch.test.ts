// The client's batch and jobs helpers (packages/client/src/batch.ts, jobs.ts) against a real server.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Agent, setGlobalDispatcher } from 'undici';
import { CmsApiError, createCmsClient, type CmsClient, type Job } from '@cms-service/client';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

for (const store of testStores()) {
  describe(`client batch and jobs (${store})`, () => {
    let server: TestServer;
    let cms: CmsClient;
    before(async () => {
      server = await startServer(store);
      setGlobalDispatcher(new Agent({ connect: { ca: fs.readFileSync(path.join(server.dataDir, 'tls-cert.pem'), 'utf8') } }));
      cms = createCmsClient({ baseUrl: server.baseUrl, token: (await server.account()).key });
    });
    after(() => server.close());

    it('content.batch sends the operations and returns a result per operation', async () => {
      const results = await cms.content.batch([
        { op: 'create', data: { title: 'One', type: 'blog', content: '# 1' } },
        { op: 'create', data: { title: 'Two', type: 'blog', content: '# 2' } },
      ]);
      assert.deepEqual(results.map((r) => r.status), [201, 201]);
      const [first] = results;
      const mixed = await cms.content.batch([{ op: 'publish', id: first!.data!.id }, { op: 'archive', id: 'content_01jd2x3m4n5p6q7r8s9t0v1w2x' }], { atomic: false });
      assert.deepEqual(mixed.map((r) => r.status), [200, 404]);
      await assert.rejects(cms.content.batch([]), (e: unknown) => e instanceof CmsApiError && e.status === 422);
    });

    it('jobs.wait follows a job to its end, reporting progress', async () => {
      const job = await cms.jobs.start({ action: 'archive', filter: { status: 'draft' } });
      assert.equal(job.status, 'queued');
      const seen: Job[] = [];
      const done = await cms.jobs.wait(job.id, { intervalMs: 50, timeoutMs: 30_000, onProgress: (j) => seen.push(j) });
      assert.equal(done.status, 'succeeded');
      assert.equal(done.done, 1);
      assert.ok(seen.length >= 1);
      await assert.rejects(cms.jobs.cancel(job.id), (e: unknown) => e instanceof CmsApiError && e.status === 409);
      assert.equal((await cms.jobs.list()).data[0]!.id, job.id);
    });
  });
}
