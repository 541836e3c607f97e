// `npx tsx bench/pipeline.ts [--requests 5000] [--rounds 5] [--env NAME=VALUE ...]`: the CPU the
// request pipeline costs per request, in process and without TLS or sockets (Fastify's inject),
// for the cached list and a cached single item. Prints the median and the smallest of the rounds.
// For an A/B comparison, run it in two checkouts one after the other, twice, and compare medians:
// CPU time is steadier than throughput on a shared machine, but still moves with its load.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '5000' }, rounds: { type: 'string', default: '5' }, env: { type: 'string', multiple: true, default: [] } },
  strict: true,
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const extraEnv = Object.fromEntries(values.env.map((pair) => pair.split('=', 2) as [string, string]));

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-pipeline-'));
const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extraEnv });
const app = await createApp(config, { logStream: new Writable({ write: (_chunk, _encoding, done) => done() }) });
try {
  await app.http.ready();
  const account = await app.accounts.createAccount({ email: 'bench@example.com', plan: 'enterprise', rateLimit: 1e9, quota: 1e9 });
  const headers = { authorization: `Bearer ${account.api_key}` };
  let id = '';
  for (let i = 0; i < 50; i++) {
    const body = JSON.stringify({ title: `Item ${i}`, type: 'blog', status: 'published', content: `# Item ${i}\n\n${'word '.repeat(200)}` });
    const res = await app.http.inject({ method: 'POST', url: '/v1/content', headers: { ...headers, 'content-type': 'application/json' }, payload: body });
    if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode}: ${res.body}`);
    id = (JSON.parse(res.body) as { data: { id: string } }).data.id;
  }
  console.log(`load average ${os.loadavg()[0]!.toFixed(2)}; ${rounds} rounds of ${requests} requests each; ${Object.keys(extraEnv).length ? JSON.stringify(extraEnv) : 'defaults'}`);
  for (const [name, url] of [['list', '/v1/content?limit=10'], ['get one', `/v1/content/${id}`]] as const) {
    const perRequest: number[] = [];
    for (let round = -1; round < rounds; round++) {
      const started = process.cpuUsage();
      for (let i = 0; i < requests; i++) {
        const res = await app.http.inject({ method: 'GET', url, headers });
        if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
      }
      const used = process.cpuUsage(started);
      if (round >= 0) perRequest.push((used.user + used.system) / requests); // round -1 warms up
    }
    perRequest.sort((a, b) => a - b);
    console.log(`${name.padEnd(8)} median ${perRequest[Math.floor(rounds / 2)]!.toFixed(1)} µs CPU/request, min ${perRequest[0]!.toFixed(1)} µs`);
  }
} finally {
  await app.shutdown();
  await fs.rm(dataDir, { recursive: true, force: true });
}
