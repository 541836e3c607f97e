// WAL checkpoints on their own thread (storage/dialect/sqlite-checkpointer.ts): after a burst of
// writes through the API, the WAL is copied back into the database file by the checkpointer a
// moment later, well below the writing connection's own threshold (which would otherwise leave it
// all in the WAL); a thread that cannot work hands checkpoints back to the writing connection.
// What the checkpoint has done is read from the WAL index (the -shm file, its layout as
// https://sqlite.org/walformat.html gives it): mxFrame, the frames in the WAL, and nBackfill,
// those copied back.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { WAL_SIZE_LIMIT } from '../src/storage/dialect/sqlite.js';
import { Checkpointer, SAFETY_NET_PAGES } from '../src/storage/dialect/sqlite-checkpointer.js';
import { startServer, type TestServer } from './helpers/server.js';

function walIndex(file: string): { mxFrame: number; nBackfill: number } {
  const shm = fs.readFileSync(`${file}-shm`);
  const u32 = (offset: number) => (os.endianness() === 'LE' ? shm.readUInt32LE(offset) : shm.readUInt32BE(offset));
  return { mxFrame: u32(16), nBackfill: u32(96) };
}

async function until<T>(what: string, read: () => T, done: (value: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (done(value)) return value;
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(value)} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('WAL checkpoints (sqlite)', () => {
  let server: TestServer;
  let file: string;

  before(async () => {
    server = await startServer('sqlite');
    const store = server.app.config.store;
    assert.equal(store.kind, 'sqlite');
    file = store.kind === 'sqlite' ? store.file : '';
  });
  after(() => server.close());

  it('copies a burst of writes back into the database file a moment later, on its own thread', async () => {
    const { key } = await server.account();
    for (let b = 0; b < 3; b++) {
      const operations = Array.from({ length: 100 }, (_, i) => ({ op: 'create', data: { title: `Checkpointed ${b}-${i}`, type: 'blog', content: 'Words. '.repeat(200) } }));
      const res = await server.client.post('/v1/content/batch', { key, json: { operations } });
      assert.equal(res.status, 200, res.text);
    }
    // The 300 items are some 1,000 pages, far below the writing connection's own threshold: without
    // the thread nothing would be copied back (nBackfill 0) however long one waits. With it, every
    // frame in the WAL is copied back a moment after the last commit (the thread may already have
    // done so for the first batches, and SQLite then begins the WAL again).
    assert.ok(walIndex(file).mxFrame < SAFETY_NET_PAGES, 'below the writing connection’s own threshold');
    await until('the checkpoint', () => walIndex(file), (index) => index.mxFrame > 0 && index.nBackfill === index.mxFrame);
    const list = await server.client.get('/v1/content?q=checkpointed&limit=1', { key });
    assert.equal(list.body.pagination.total, 300);
  });

  it('cuts the WAL file back to its limit once a burst that outgrew it is checkpointed', async () => {
    const { key } = await server.account();
    // A reader holding its snapshot keeps every frame of the burst in the WAL (none can be reused).
    const reader = new SQLite(file, { readonly: true });
    reader.exec('begin');
    reader.prepare('select count(*) from content').get();
    for (let b = 0; b < 15; b++) {
      const operations = Array.from({ length: 100 }, (_, i) => ({ op: 'create', data: { title: `Burst ${b}-${i}`, type: 'blog', content: 'Words. '.repeat(200) } }));
      assert.equal((await server.client.post('/v1/content/batch', { key, json: { operations } })).status, 200);
    }
    const burst = fs.statSync(`${file}-wal`).size;
    assert.ok(burst > 1.25 * WAL_SIZE_LIMIT, `the burst's WAL: ${burst} bytes`);
    reader.exec('commit');
    reader.close();
    // A write now asks for a checkpoint (the last one may have run while the reader still held it),
    // which copies every frame back; the write after it begins the WAL again, and the file is cut
    // back (without the limit it stays at `burst`).
    const write = async (title: string) => assert.equal((await server.client.post('/v1/content', { key, json: { title, type: 'blog', content: 'x' } })).status, 201);
    await write('After the burst');
    await until('the checkpoint', () => walIndex(file), (index) => index.mxFrame > 0 && index.nBackfill === index.mxFrame);
    await write('After the checkpoint');
    const after = fs.statSync(`${file}-wal`).size;
    assert.ok(after <= WAL_SIZE_LIMIT, `the WAL after the burst: ${after} bytes`);
  });

  it('hands checkpoints back to the writing connection when its thread cannot open the file', async () => {
    let fellBack = 0;
    const reasons: string[] = [];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-checkpoint-'));
    const checkpointer = new Checkpointer(path.join(dir, 'no-such-dir', 'db.sqlite'), (reason) => {
      fellBack++;
      reasons.push(reason);
    });
    checkpointer.committed();
    await until('the fallback', () => fellBack, (n) => n > 0);
    checkpointer.committed();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(fellBack, 1);
    // Why, for the log line the server writes (app.ts): the thread could not open the file.
    assert.match(reasons[0]!, /^the thread failed: .*(directory does not exist|unable to open)/i);
    await checkpointer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
