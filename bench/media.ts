// Media (issue 23) against the product as `npm start` runs it (its own process, SQLite, disk store,
// RATE_LIMITS=off), so its RSS is the server's alone:
// 1. upload throughput (MiB/s) of 1 MiB and 20 MiB files, each streamed from disk with --upload-
//    connections in flight, and the server's RSS peak while they arrive;
// 2. a 2000 × 1500 JPEG at w=400: the first request (the variant is made) against the same variant
//    once stored (req/s and p99 at --connections, for --seconds);
// 3. public file serving (/media/{id}/{filename}) beside GET /v1/content/{id}: req/s and p99.
// Usage: tsx bench/media.ts [--seconds 10] [--connections 20] [--upload-connections 4]
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { Agent, fetch } from 'undici';
import { cleanEnv, freePort, productArgs, RssSampler, startChild, waitUntilReady } from './processes.js';
import { createAccount } from './seed.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    'upload-connections': { type: 'string', default: '4' },
  },
  strict: true,
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const UPLOADERS = Number(values['upload-connections']);
const MIB = 1024 * 1024;

const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'cms-media-bench-'));
const dataDir = path.join(root, 'data');
const port = await freePort();
const env = cleanEnv({ HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMITS: 'off', WORKERS: '1', PLAN_STORAGE: `enterprise=${1024 ** 4}` });
const server = startChild('product', productArgs(), env);
const sampler = new RssSampler(server.pid);
const p = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

try {
  const baseUrl = `https://127.0.0.1:${port}`;
  await waitUntilReady(server, `${baseUrl}/healthz`, 60_000);
  const dispatcher = new Agent({ connections: CONNECTIONS + UPLOADERS, connect: { ca: await fsp.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8') } });
  const account = await createAccount(env, `media-bench-${Date.now()}@example.com`);
  const auth = { authorization: `Bearer ${account.key}` };
  const machine = `${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(2)} at the start`;
  console.log(`media benchmark: product pid ${server.pid}, ${machine}; RSS idle ${(sampler.peak() / MIB).toFixed(1)} MB`);

  /** Uploads one file from disk as multipart/form-data, streamed (the body is never held whole). */
  const upload = async (file: string, filename: string, type: string): Promise<Record<string, unknown>> => {
    const boundary = `bench${Math.random().toString(36).slice(2)}`;
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Readable.from((async function* () {
      yield head;
      for await (const chunk of fs.createReadStream(file, { highWaterMark: 256 * 1024 })) yield chunk as Buffer;
      yield tail;
    })());
    const res = await fetch(`${baseUrl}/v1/media`, {
      method: 'POST', dispatcher, duplex: 'half', body,
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + fs.statSync(file).size + tail.length) },
    });
    const json = (await res.json()) as { data: Record<string, unknown> };
    if (res.status !== 201) throw new Error(`upload ${filename}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };

  // 1. Upload throughput: distinct files (the store dedupes equal bytes), text so no decoding costs.
  for (const [label, size, count] of [['1 MiB', MIB, 64], ['20 MiB', 20 * MIB, 8]] as const) {
    const files = Array.from({ length: count }, (_, i) => path.join(root, `upload-${label.replace(' ', '')}-${i}.txt`));
    for (const [i, file] of files.entries()) {
      const line = `file ${i} of ${label}: a line of a long manual that repeats.\n`;
      await fsp.writeFile(file, Buffer.from(line.repeat(Math.ceil(size / line.length))).subarray(0, size));
    }
    sampler.reset();
    const started = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: UPLOADERS }, async () => {
      while (next < files.length) {
        const i = next++;
        await upload(files[i]!, `f${i}.txt`, 'text/plain');
      }
    }));
    const seconds = (performance.now() - started) / 1000;
    console.log(`upload ${label} × ${count}, ${UPLOADERS} at a time: ${((size * count) / MIB / seconds).toFixed(1)} MiB/s (${(count / seconds).toFixed(1)} files/s); server RSS peak while uploading ${(sampler.peak() / MIB).toFixed(1)} MB`);
    await Promise.all(files.map((f) => fsp.rm(f)));
  }

  /** GETs `url` at CONNECTIONS for SECONDS; req/s and latency percentiles. */
  const load = async (label: string, url: string, headers: Record<string, string>) => {
    const latencies: number[] = [];
    const until = performance.now() + SECONDS * 1000;
    await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        const res = await fetch(url, { dispatcher, headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${label}: ${res.status}`);
        latencies.push(performance.now() - t);
      }
    }));
    latencies.sort((a, b) => a - b);
    console.log(`${label}: ${(latencies.length / SECONDS).toFixed(0)} req/s, p50 ${p(latencies, 0.5).toFixed(1)} ms, p99 ${p(latencies, 0.99).toFixed(1)} ms (${CONNECTIONS} connections, ${SECONDS} s)`);
  };

  // 2. A variant: made on the first request, then served as stored.
  const photo = path.join(root, 'photo.jpg');
  await sharp({ create: { width: 2000, height: 1500, channels: 3, background: { r: 40, g: 90, b: 160 } } })
    .composite([{ input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="1500"><circle cx="1000" cy="750" r="600" fill="#e80"/></svg>') }])
    .jpeg({ quality: 90 })
    .toFile(photo);
  const image = await upload(photo, 'photo.jpg', 'image/jpeg');
  const variant = `${baseUrl}/v1/media/${String(image.id)}/file?w=400`;
  const firstStarted = performance.now();
  const first = await fetch(variant, { dispatcher, headers: auth });
  await first.arrayBuffer();
  console.log(`variant w=400 of a 2000 × 1500 JPEG, first request (made): ${(performance.now() - firstStarted).toFixed(1)} ms (${first.status})`);
  await load('variant w=400, stored', variant, auth);

  // 3. Public file serving beside a content read.
  await fetch(`${baseUrl}/v1/media/${String(image.id)}`, { method: 'PUT', dispatcher, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ public: true }) });
  const item = (await (await fetch(`${baseUrl}/v1/content`, { method: 'POST', dispatcher, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Bench', type: 'blog', content: `![photo](media:${String(image.id)})` }) })).json()) as { data: { id: string } };
  await load('public file /media/{id}/photo.jpg (the 2000 × 1500 JPEG)', `${baseUrl}/media/${String(image.id)}/photo.jpg`, {});
  await load('GET /v1/content/{id}', `${baseUrl}/v1/content/${item.data.id}`, auth);
  console.log(`server RSS peak over the run ${(sampler.highWaterMark() / MIB).toFixed(1)} MB (VmHWM); load ${os.loadavg()[0]!.toFixed(2)} at the end`);
  await dispatcher.close();
} finally {
  sampler.stop();
  await server.stop();
  await fsp.rm(root, { recursive: true, force: true });
}
