// `cms content import` stopped after the service answered a batch but before the files were
// rewritten (a crash, a kill): the batches in flight stay written down in the directory, one journal
// file each; the next run replays them under their keys (the service answers again, creates nothing
// twice), rewrites the files with their ids (a file whose rewrite was cut short included: the files
// are rewritten in place, the journal covering them), counts each file once and removes the journals.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Agent, setGlobalDispatcher } from 'undici';
import { createCmsClient, type CmsClient } from '@cms-service/client';
import { formatContentFile, parseContentFile } from '../src/cli/content-files.js';
import { importContent } from '../src/cli/content-sync.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const FILES = 250; // three batches: 100, 100 and 50, all in flight at once

/** The client, except that every batch is sent and answered, then the importer "dies" before using the answer. */
function dyingAfterBatches(cms: CmsClient): CmsClient {
  const content = new Proxy(cms.content, {
    get(target, name) {
      if (name === 'batch') {
        return async (...args: Parameters<CmsClient['content']['batch']>) => {
          await target.batch(...args);
          throw new Error('killed after the answer');
        };
      }
      const value = Reflect.get(target, name) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ...cms, content };
}

for (const store of testStores()) {
  describe(`cms content import: batches replayed after a crash (${store})`, () => {
    let server: TestServer;
    let cms: CmsClient;
    let dir: string;
    before(async () => {
      server = await startServer(store);
      setGlobalDispatcher(new Agent({ connect: { ca: fs.readFileSync(path.join(server.dataDir, 'tls-cert.pem'), 'utf8') } }));
      cms = createCmsClient({ baseUrl: server.baseUrl, token: (await server.account()).key });
      dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cms-import-journal-'));
      for (let i = 0; i < FILES; i++) {
        await fsp.writeFile(path.join(dir, `note-${String(i).padStart(3, '0')}.md`), formatContentFile({ title: `Note ${i}`, type: 'blog', status: i % 2 ? 'published' : 'draft', content: `Body ${i}` }));
      }
    });
    after(async () => {
      await server.close();
      await fsp.rm(dir, { recursive: true, force: true });
    });

    const journals = async () => (await fsp.readdir(dir)).filter((name) => name.startsWith('.cms-import-pending'));
    const total = async () => (await cms.content.list({ limit: 1 })).pagination.total;

    it('leaves a journal per batch in flight, then replays them: every file created once, each counted once', async () => {
      await assert.rejects(importContent(dyingAfterBatches(cms), dir), /killed after the answer/);
      assert.equal((await journals()).length, 3, 'one journal per batch that was answered but not finished');
      assert.equal(await total(), FILES, 'the service did create them');
      const unwritten = parseContentFile(await fsp.readFile(path.join(dir, 'note-000.md'), 'utf8'));
      assert.equal(unwritten.id, undefined, 'no file was rewritten');
      // Two rewrites cut short: one file emptied, one torn in its front matter.
      await fsp.writeFile(path.join(dir, 'note-001.md'), '');
      const torn = await fsp.readFile(path.join(dir, 'note-002.md'), 'utf8');
      await fsp.writeFile(path.join(dir, 'note-002.md'), torn.slice(0, 12));

      const summary = await importContent(cms, dir);
      assert.deepEqual(summary, { created: FILES, updated: 0, unchanged: 0, failed: [] });
      assert.deepEqual(await journals(), []);
      assert.equal(await total(), FILES, 'nothing created twice');
      const ids = new Set<string>();
      for (const name of (await fsp.readdir(dir)).filter((n) => n.endsWith('.md'))) {
        const file = parseContentFile(await fsp.readFile(path.join(dir, name), 'utf8'));
        assert.ok(file.id, `${name} names its item`);
        ids.add(file.id);
        const item = await cms.content.get(file.id);
        assert.equal(item.title, file.title);
        assert.equal(item.status, file.status);
      }
      assert.equal(ids.size, FILES);
      for (const [name, title] of [['note-001.md', 'Note 1'], ['note-002.md', 'Note 2']] as const) {
        assert.equal(parseContentFile(await fsp.readFile(path.join(dir, name), 'utf8')).title, title, `${name} written whole again`);
      }

      assert.deepEqual(await importContent(cms, dir), { created: 0, updated: 0, unchanged: FILES, failed: [] });
    });
  });
}
