// Typed fields in the Markdown front matter of `cms content export` and `import` (docs/content-model.md):
// exported as a `fields` mapping, imported as the whole truth (names left out are removed), and a
// new file's fields validated by the service like any write.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseContentFile } from '../src/cli/content-files.js';
import { killChildren, runCli } from './helpers/process.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

after(killChildren);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

for (const store of testStores()) {
  describe(`cms and typed fields (${store})`, { timeout: 480_000 }, () => {
    let server: TestServer;
    let owner: TestAccount;
    let work: string;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
      work = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-model-cli-'));
    });
    after(async () => {
      await server.close();
      await fs.rm(work, { recursive: true, force: true });
    });

    it('carries fields through export and import front matter', async () => {
      const env = { CMS_URL: server.baseUrl, CMS_API_KEY: owner.key, NODE_EXTRA_CA_CERTS: path.join(server.dataDir, 'tls-cert.pem') };
      const cms = (args: string[]) => runCli(['content', ...args], env, undefined, 120_000);
      const model = [{ name: 'product', kind: 'enum', values: ['cms', 'crm'] }, { name: 'version', kind: 'string', indexed: true }, { name: 'pages', kind: 'integer' }, { name: 'tags', kind: 'list', of: 'string' }];
      assert.equal((await server.client.put('/v1/content-types/manual', { key: owner.key, json: { fields: model } })).status, 200);
      const item = await server.content(owner.key, { title: 'Guide', type: 'manual', fields: { product: 'cms', version: '2.1', pages: 40, tags: ['a'] } });
      const dir = path.join(work, 'fields');
      assert.equal((await cms(['export', '--dir', dir])).code, 0);
      const file = path.join(dir, `${item.id}.md`);
      const text = await fs.readFile(file, 'utf8');
      assert.deepEqual(parseContentFile(text).fields, { product: 'cms', version: '2.1', pages: 40, tags: ['a'] });
      assert.deepEqual((await cms(['import', '--dir', dir])).json, { created: 0, updated: 0, unchanged: 1, failed: [] });

      // Edited: pages changed, tags taken out (removed on the service).
      await fs.writeFile(file, text.replace(/pages: 40/, 'pages: 41').replace(/ {2}tags:\n {4}- a\n/, ''));
      await fs.writeFile(path.join(dir, 'new.md'), '---\ntitle: New manual\ntype: manual\nfields:\n  product: crm\n  version: "3.0"\n---\nHello.');
      assert.deepEqual((await cms(['import', '--dir', dir])).json, { created: 1, updated: 1, unchanged: 0, failed: [] });
      const stored = (await server.client.get(`/v1/content/${item.id}`, { key: owner.key })).body.data;
      assert.deepEqual(stored.fields, { product: 'cms', version: '2.1', pages: 41 });
      const created = (await server.client.get('/v1/content?type=manual&fields.version=3.0', { key: owner.key })).body.data;
      assert.deepEqual(created.map((i: Json) => i.fields), [{ product: 'crm', version: '3.0' }]);

      await fs.writeFile(path.join(dir, 'bad.md'), '---\ntitle: Bad\ntype: manual\nfields:\n  product: erp\n---\nx');
      const bad = await cms(['import', '--dir', dir]);
      assert.equal(bad.code, 1);
      assert.match((bad.json as Json).failed[0].error, /fields\.product/);
    });
    it('generates TypeScript types of the items from the models (cms types generate)', async () => {
      const env = { CMS_URL: server.baseUrl, CMS_API_KEY: owner.key, NODE_EXTRA_CA_CERTS: path.join(server.dataDir, 'tls-cert.pem') };
      const model = [{ name: 'quarter', kind: 'enum', values: ['Q1', 'Q2'], required: true, default: 'Q1' }, { name: 'owner', kind: 'string' }, { name: 'budget', kind: 'number' }, { name: 'links', kind: 'list', of: 'url' }];
      assert.equal((await server.client.put('/v1/content-types/strategy', { key: owner.key, json: { fields: model } })).status, 200);
      const out = path.join(work, 'types.ts');
      const generated = await runCli(['types', 'generate', '--type', 'strategy', '--type', 'blog', '--out', out], env, undefined, 120_000);
      assert.equal(generated.code, 0, generated.stderr);
      assert.deepEqual((generated.json as Json).types.map((t: Json) => t.type), ['strategy', 'blog']);
      const ts = await fs.readFile(out, 'utf8');
      assert.match(ts, /export interface StrategyItem \{/);
      assert.match(ts, /export interface StrategyFields \{/);
      assert.match(ts, /quarter: \(?"Q1" \| "Q2"\)?;?\n/);
      assert.match(ts, /owner\?: string;?\n/);
      assert.match(ts, /budget\?: number;?\n/);
      assert.match(ts, /links\?: string\[\];?\n/);
      assert.match(ts, /export interface BlogItem \{/);
      const bad = await runCli(['types', 'generate', '--type', 'recipe'], env, undefined, 120_000);
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /unknown content type/);
    });
  });
}
