// Publishing from the command line: `cms content schedule <id> <time>` (with --unpublish-at, and
// --clear), `--slug` on create and update, slug and schedule in the front matter of export/import,
// and `cms accounts plan --delivery-cache-seconds` — each as a child process against a real server.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseContentFile } from '../src/cli/content-files.js';
import { Client } from './helpers/client.js';
import { addKey } from './helpers/people.js';
import { killChildren, runCli } from './helpers/process.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

after(killChildren);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const inMinutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();

for (const store of testStores()) {
  describe(`cms and publishing (${store})`, { timeout: 480_000 }, () => {
    let server: TestServer;
    let owner: TestAccount;
    let env: Record<string, string>;
    let work: string;
    const cms = (args: string[], extra: Record<string, string> = {}) => runCli(['content', ...args], { ...env, ...extra }, undefined, 120_000);

    before(async () => {
      server = await startServer(store);
      owner = await server.account();
      env = { CMS_URL: server.baseUrl, CMS_API_KEY: owner.key, NODE_EXTRA_CA_CERTS: path.join(server.dataDir, 'tls-cert.pem') };
      work = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-publishing-cli-'));
    });
    after(async () => {
      await server.close();
      await fs.rm(work, { recursive: true, force: true });
    });

    it('schedules, reschedules with an end, and clears', async () => {
      const created = await cms(['create', '--title', 'From the shell', '--type', 'blog', '--slug', 'from-the-shell', '--content', 'Body']);
      assert.equal(created.code, 0, created.stderr);
      const item = created.json as Json;
      assert.equal(item.slug, 'from-the-shell');
      const publishAt = inMinutes(30);
      const scheduled = await cms(['schedule', item.id, publishAt]);
      assert.equal(scheduled.code, 0, scheduled.stderr);
      assert.equal((scheduled.json as Json).publish_at, publishAt);
      const unpublishAt = inMinutes(90);
      const ended = await cms(['schedule', item.id, '--unpublish-at', unpublishAt, '--if-match', '2']);
      assert.deepEqual([(ended.json as Json).publish_at, (ended.json as Json).unpublish_at], [publishAt, unpublishAt]);
      const listed = await server.client.get('/v1/content?scheduled=true', { key: owner.key });
      assert.deepEqual(listed.body.data.map((i: Json) => i.id), [item.id]);
      const cleared = await cms(['schedule', item.id, '--clear']);
      assert.deepEqual([(cleared.json as Json).publish_at, (cleared.json as Json).unpublish_at], [null, null]);
      const renamed = await cms(['update', item.id, '--slug', 'renamed-in-the-shell']);
      assert.equal((renamed.json as Json).slug, 'renamed-in-the-shell');

      const past = await cms(['schedule', item.id, '2001-01-01T00:00:00Z']);
      assert.equal(past.code, 1);
      assert.match(past.stderr, /publish_at: publish_at must lie in the future.*422 validation_failed/);
      const none = await cms(['schedule', item.id]);
      assert.equal(none.code, 1);
      assert.match(none.stderr, /give the time to publish at, --unpublish-at, or --clear/);
    });

    it('carries slug and schedule through export and import front matter', async () => {
      const account = await server.account();
      const extra = { CMS_API_KEY: account.key };
      const publishAt = inMinutes(60);
      const scheduled = await server.content(account.key, { title: 'Scheduled post', slug: 'scheduled-post', publish_at: publishAt });
      const plain = await server.content(account.key, { title: 'Plain post', status: 'published' });
      const dir = path.join(work, 'front-matter');
      assert.equal((await cms(['export', '--dir', dir], extra)).code, 0);
      const fileOf = (id: unknown) => path.join(dir, `${id}.md`);
      const text = await fs.readFile(fileOf(scheduled.id), 'utf8');
      assert.match(text, /^slug: scheduled-post$/m);
      assert.match(text, new RegExp(`^publish_at: ["']?${publishAt.replace(/[.]/g, '\\.')}["']?$`, 'm'));
      const parsed = parseContentFile(text);
      assert.deepEqual([parsed.slug, parsed.publish_at, parsed.unpublish_at], ['scheduled-post', publishAt, undefined]);
      assert.doesNotMatch(await fs.readFile(fileOf(plain.id), 'utf8'), /publish_at/);

      // Imported as it is, nothing changes; edited, the service follows the file.
      assert.deepEqual((await cms(['import', '--dir', dir], extra)).json, { created: 0, updated: 0, unchanged: 2, failed: [] });
      const later = inMinutes(120);
      const end = inMinutes(180);
      await fs.writeFile(fileOf(scheduled.id), text.replace('slug: scheduled-post', 'slug: moved-post').replace(/^publish_at: .*$/m, `publish_at: ${later}\nunpublish_at: ${end}`));
      const imported = await cms(['import', '--dir', dir], extra);
      assert.deepEqual(imported.json, { created: 0, updated: 1, unchanged: 1, failed: [] });
      const stored = (await server.client.get(`/v1/content/${scheduled.id}`, { key: account.key })).body.data;
      assert.deepEqual([stored.slug, stored.publish_at, stored.unpublish_at], ['moved-post', later, end]);
      // The old slug still finds it.
      assert.equal((await server.client.get('/v1/content?slug=scheduled-post', { key: account.key })).body.data[0].id, scheduled.id);

      // A schedule taken out of the file is cleared on the service; a new file with one is created scheduled.
      const current = await fs.readFile(fileOf(scheduled.id), 'utf8');
      await fs.writeFile(fileOf(scheduled.id), current.replace(/^(un)?publish_at: .*\n/gm, ''));
      await fs.writeFile(path.join(dir, 'new.md'), `---\ntitle: New and scheduled\ntype: blog\nslug: new-and-scheduled\npublish_at: ${later}\n---\nHello.`);
      assert.deepEqual((await cms(['import', '--dir', dir], extra)).json, { created: 1, updated: 1, unchanged: 1, failed: [] });
      const clearedItem = (await server.client.get(`/v1/content/${scheduled.id}`, { key: account.key })).body.data;
      assert.deepEqual([clearedItem.publish_at, clearedItem.unpublish_at], [null, null]);
      const created = (await server.client.get('/v1/content?slug=new-and-scheduled', { key: account.key })).body.data[0];
      assert.equal((await server.client.get(`/v1/content/${created.id}`, { key: account.key })).body.data.publish_at, later);

      await fs.writeFile(path.join(dir, 'bad.md'), '---\ntitle: Bad\ntype: blog\npublish_at: soon\n---\nx');
      const bad = await cms(['import', '--dir', dir], extra);
      assert.equal(bad.code, 1);
      assert.match((bad.json as Json).failed[0].error, /publish_at.*ISO 8601/);
    });

    it('sets how long public caches keep delivery answers with cms accounts plan --delivery-cache-seconds', async () => {
      const account = await server.account();
      const delivery = await addKey(server, account.key, { kind: 'delivery' });
      await server.content(account.key, { status: 'published' });
      const storeEnv: Record<string, string> = server.databaseUrl ? { DATABASE_URL: server.databaseUrl, DATA_DIR: work } : { DATA_DIR: server.dataDir };
      const plan = await runCli(['accounts', 'plan', '--account', account.accountId, '--delivery-cache-seconds', '300'], storeEnv);
      assert.equal(plan.code, 0, plan.stderr);
      assert.deepEqual(plan.json, { account_id: account.accountId, delivery_cache_seconds: 300 });
      await new Promise((resolve) => setTimeout(resolve, 1100));
      // A connection of its own: the shared one may have idled past the server's keep-alive while the CLI ran.
      const fresh = new Client(server.baseUrl, await fs.readFile(path.join(server.dataDir, 'tls-cert.pem'), 'utf8'));
      try {
        assert.equal((await fresh.get('/v1/content', { key: delivery.key })).headers['cache-control'], 'public, max-age=300, stale-while-revalidate=600');
      } finally {
        fresh.close();
      }
      const back = await runCli(['accounts', 'plan', '--account', account.accountId, '--delivery-cache-seconds', 'default'], storeEnv);
      assert.deepEqual(back.json, { account_id: account.accountId, delivery_cache_seconds: 60 });
      const wrong = await runCli(['accounts', 'plan', '--account', account.accountId, '--delivery-cache-seconds', '1.5'], storeEnv);
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /--delivery-cache-seconds must be a whole number from 0 to 86400/);
    });
  });
}
