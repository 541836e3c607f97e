// Does memory grow under a long abusive run, and is it a leak (docs/reliability.md, D9)? Rounds of
// the fuzz suite's generated requests (test/helpers/fuzz.ts) plus malformed and abandoned
// connections, against the app in this process; after each round a full garbage collection, then
// the heap in use and the resident set. A leak keeps growing the heap after collection round after
// round; an allocator that keeps freed pages shows in RSS alone and levels off.
//
//   node --expose-gc --import tsx bench/memory.ts [--rounds 12] [--requests 2000] [--store sqlite|postgres]
import fc from 'fast-check';
import fs from 'node:fs/promises';
import path from 'node:path';
import tls from 'node:tls';
import { parseArgs } from 'node:util';
import { operationsOf, requestsFor, resourceOf, type KnownIds } from '../test/helpers/fuzz.js';
import { startServer } from '../test/helpers/server.js';

const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '12' }, requests: { type: 'string', default: '2000' }, store: { type: 'string', default: 'sqlite' } },
});
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const server = await startServer(args.store as 'sqlite' | 'postgres', {
  env: { WEBHOOK_ALLOW_PRIVATE: 'true', IP_RATE_LIMIT: '1000000', LOG_LEVEL: 'warn' },
  resolver: async () => [{ address: '127.0.0.1', family: 4 }],
});
const owner = await server.account({ plan: 'enterprise', rateLimit: 100_000_000, quota: 1_000_000_000 });
const key = owner.key;
const ca = await fs.readFile(path.join(server.dataDir, 'tls-cert.pem'), 'utf8');
const ids: KnownIds = { content: [(await server.content(key)).id as string], users: [], 'api-keys': [], webhooks: [] };
const operations = operationsOf(server.app.http.swagger());

/** Connections that send garbage, or half a request, and vanish. */
async function abandon(count: number): Promise<void> {
  const heads = ['FOO / HTTP/1.1\r\n\r\n', 'POST /v1/content HTTP/1.1\r\nHost: x\r\nContent-Length: 90\r\n\r\n{"t', `GET /v1/content HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`];
  await Promise.all(
    Array.from({ length: count }, (_, i) => new Promise<void>((resolve) => {
      const socket = tls.connect({ host: '127.0.0.1', port: server.port, ca, servername: 'localhost' }, () => socket.write(heads[i % heads.length]!, () => setTimeout(() => socket.destroy(), 5)));
      socket.on('error', () => {});
      socket.once('close', () => resolve());
    })),
  );
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log('round  requests  heap used after GC (MB)  external (MB)  RSS (MB)');
for (let round = 0; round <= Number(args.rounds); round++) {
  if (round > 0) {
    for (const request of fc.sample(requestsFor(operations, key, ids), Number(args.requests))) {
      const res = await server.client.request(request.method, request.path, { headers: request.headers, ...(request.body === undefined ? {} : { raw: request.body }) });
      if (request.method === 'DELETE' && res.status === 204 && resourceOf(request.path) === 'content') ids.content = [(await server.content(key)).id as string];
    }
    await abandon(200);
  }
  gc();
  gc();
  const usage = process.memoryUsage();
  console.log(`${String(round).padStart(5)}  ${String(round * Number(args.requests)).padStart(8)}  ${mb(usage.heapUsed).padStart(23)}  ${mb(usage.external).padStart(13)}  ${mb(usage.rss).padStart(8)}`);
}
await server.close();
