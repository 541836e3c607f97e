// `cms content …` as a person runs it: a child process talking HTTPS to a real server with CMS_URL
// and CMS_API_KEY (trusting the server's self-signed certificate through NODE_EXTRA_CA_CERTS), JSON
// on stdout, exit 1 with a clear message on error, and a Markdown round trip of 1,000 items.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseContentFile } from '../src/cli/content-files.js';
import { killChildren, runCli, type Finished } from './helpers/process.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

after(killChildren);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function assertFailed(result: Finished, message: RegExp): void {
  assert.equal(result.code, 1, `exit code; stdout: ${result.stdout} stderr: ${result.stderr}`);
  assert.match(result.stderr, message);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'a stack trace');
}

/** Creates `n` items through the API, a few at a time. */
async function seed(server: TestServer, key: string, n: number): Promise<void> {
  const statuses = ['draft', 'published'];
  for (let i = 0; i < n; i += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, n - i) }, (_, j) =>
        server.content(key, {
          title: `Item ${i + j}: "quoted", colon: and # hash`,
          type: ['blog', 'manual', 'whitepaper', 'strategy'][(i + j) % 4],
          status: statuses[(i + j) % 2],
          content: `# Item ${i + j}\n\n---\nNot front matter.\r\nCRLF kept, unicode kept: café ✓\n${'x'.repeat((i + j) % 7)}`,
        }),
      ),
    );
  }
}

/** Every item of the account as `id@updated_at`, sorted. */
async function snapshot(server: TestServer, key: string): Promise<string[]> {
  const all: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = (await server.client.get(`/v1/content?limit=100&offset=${offset}`, { key })).body;
    all.push(...(page.data as Json[]).map((i) => `${i.id}@${i.updated_at}`));
    if (!page.pagination.has_more) return all.sort();
  }
}

for (const store of testStores()) {
  describe(`cms content (${store})`, { timeout: 600_000 }, () => {
    let server: TestServer;
    let owner: TestAccount;
    let env: Record<string, string>;
    let work: string;
    const cms = (args: string[], input?: string, extra: Record<string, string> = {}) => runCli(['content', ...args], { ...env, ...extra }, input, 120_000);

    before(async () => {
      server = await startServer(store);
      owner = await server.account();
      env = { CMS_URL: server.baseUrl, CMS_API_KEY: owner.key, NODE_EXTRA_CA_CERTS: path.join(server.dataDir, 'tls-cert.pem') };
      work = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-content-cli-'));
    });
    after(async () => {
      await server.close();
      await fs.rm(work, { recursive: true, force: true });
    });

    it('creates (body from stdin), gets, updates, publishes, archives, lists and deletes, printing JSON', async () => {
      const created = await cms(['create', '--title', 'From the shell', '--type', 'manual'], '# Body\nfrom stdin');
      assert.equal(created.code, 0, created.stderr);
      const item = created.json as Json;
      assert.deepEqual([item.title, item.type, item.status, item.version, item.content], ['From the shell', 'manual', 'draft', 1, '# Body\nfrom stdin']);
      const got = await cms(['get', item.id]);
      assert.equal((got.json as Json).id, item.id);
      const updated = await cms(['update', item.id, '--title', 'Renamed', '--if-match', '1']);
      assert.deepEqual([(updated.json as Json).title, (updated.json as Json).version], ['Renamed', 2]);
      const published = await cms(['publish', item.id]);
      assert.equal((published.json as Json).status, 'published');
      const archived = await cms(['archive', item.id]);
      assert.equal((archived.json as Json).status, 'archived');
      const listed = await cms(['list', '--status', 'archived']);
      assert.deepEqual(((listed.json as Json).data as Json[]).map((i) => i.id), [item.id]);
      const deleted = await cms(['delete', item.id]);
      assert.deepEqual(deleted.json, { deleted: item.id });
      const stored = await server.client.get(`/v1/content/${item.id}`, { key: owner.key });
      assert.equal(stored.status, 404);
    });

    it('exits 1 with the reason in words: a stale If-Match, a validation error, an unknown id, a missing key', async () => {
      const item = await server.content(owner.key);
      await server.client.put(`/v1/content/${item.id}`, { key: owner.key, json: { title: 'Changed elsewhere' } });
      assertFailed(await cms(['update', String(item.id), '--title', 'Mine', '--if-match', '1']), /412 precondition_failed/);
      assert.equal((await server.client.get(`/v1/content/${item.id}`, { key: owner.key })).body.data.title, 'Changed elsewhere');
      assertFailed(await cms(['create', '--title', '', '--type', 'novel', '--content', 'x']), /title: .*type: |type: .*title: /);
      assertFailed(await cms(['get', 'content_01jd2x3m4n5p6q7r8s9t0v1w2x']), /404 not_found/);
      assertFailed(await cms(['list'], undefined, { CMS_API_KEY: '' }), /CMS_API_KEY must be set/);
      assertFailed(await cms(['list'], undefined, { NODE_EXTRA_CA_CERTS: '' }), /certificate is not trusted.*NODE_EXTRA_CA_CERTS/);
      assertFailed(await cms(['frobnicate']), /unknown content command/);
    });

    it('round-trips 1,000 items through export and import with nothing lost or changed, and imports idempotently', async () => {
      const source = await server.account();
      const target = await server.account();
      await seed(server, source.key, 1000);
      const first = path.join(work, 'first');
      const exported = await cms(['export', '--dir', first], undefined, { CMS_API_KEY: source.key });
      assert.equal(exported.code, 0, exported.stderr);
      assert.equal((exported.json as Json).exported, 1000);
      const files = (await fs.readdir(first)).filter((f) => f.endsWith('.md'));
      assert.equal(files.length, 1000);

      // Into another account: every item is created there, and each file now names its new id.
      const copy = path.join(work, 'copy');
      await fs.cp(first, copy, { recursive: true });
      const imported = await cms(['import', '--dir', copy], undefined, { CMS_API_KEY: target.key });
      assert.equal(imported.code, 0, imported.stderr);
      assert.deepEqual(imported.json, { created: 1000, updated: 0, unchanged: 0, failed: [] });
      const second = path.join(work, 'second');
      assert.equal((await cms(['export', '--dir', second], undefined, { CMS_API_KEY: target.key })).code, 0);
      const fields = async (dir: string) =>
        (await Promise.all((await fs.readdir(dir)).map(async (f) => parseContentFile(await fs.readFile(path.join(dir, f), 'utf8')))))
          .map(({ title, type, status, content }) => JSON.stringify([title, type, status, content]))
          .sort();
      assert.deepEqual(await fields(second), await fields(first), 'the same titles, types, statuses and bodies, byte for byte');

      // The same files again: nothing changes on the service (no item added, none given a new version).
      const before = await snapshot(server, target.key);
      const again = await cms(['import', '--dir', copy], undefined, { CMS_API_KEY: target.key });
      assert.deepEqual(again.json, { created: 0, updated: 0, unchanged: 1000, failed: [] });
      assert.deepEqual(await snapshot(server, target.key), before);
    });

    it('updates changed files by id with If-Match, refuses one edited on the service meanwhile, and creates new files', async () => {
      const account = await server.account();
      const env2 = { CMS_API_KEY: account.key };
      const dir = path.join(work, 'edits');
      await seed(server, account.key, 3);
      assert.equal((await cms(['export', '--dir', dir], undefined, env2)).code, 0);
      const [a, b] = (await fs.readdir(dir)).sort();
      const fileA = path.join(dir, a!);
      const fileB = path.join(dir, b!);
      await fs.writeFile(fileA, (await fs.readFile(fileA, 'utf8')).replace(/\n---\n/, '\n---\nEdited locally.\n'));
      await fs.writeFile(fileB, (await fs.readFile(fileB, 'utf8')).replace(/\n---\n/, '\n---\nAlso edited locally.\n'));
      const idB = path.basename(b!, '.md');
      await server.client.put(`/v1/content/${idB}`, { key: account.key, json: { title: 'Edited on the service' } });
      await fs.writeFile(path.join(dir, 'new-note.md'), '---\ntitle: A new note\ntype: blog\nstatus: archived\n---\nWritten by hand.');

      const result = await cms(['import', '--dir', dir], undefined, env2);
      assert.equal(result.code, 1, 'a file failed');
      const summary = result.json as Json;
      assert.deepEqual([summary.created, summary.updated, summary.unchanged], [1, 1, 1]);
      assert.deepEqual(summary.failed.map((f: Json) => f.file), [b]);
      assert.match(summary.failed[0].error, /changed on the service/);
      assert.equal((await server.client.get(`/v1/content/${idB}`, { key: account.key })).body.data.title, 'Edited on the service', 'their edit stands');

      const rewrittenA = parseContentFile(await fs.readFile(fileA, 'utf8'));
      const storedA = (await server.client.get(`/v1/content/${rewrittenA.id}`, { key: account.key })).body.data;
      assert.ok(storedA.content.startsWith('Edited locally.\n'));
      assert.equal(rewrittenA.version, storedA.version, 'the file now carries the new version');
      const note = parseContentFile(await fs.readFile(path.join(dir, 'new-note.md'), 'utf8'));
      assert.match(note.id ?? '', /^content_/);
      const storedNote = (await server.client.get(`/v1/content/${note.id}`, { key: account.key })).body.data;
      assert.deepEqual([storedNote.title, storedNote.status, storedNote.content], ['A new note', 'archived', 'Written by hand.']);
      const twice = await cms(['import', '--dir', dir], undefined, env2);
      assert.deepEqual([(twice.json as Json).created, (twice.json as Json).updated, (twice.json as Json).unchanged], [0, 0, 3]);
    });
  });
}
