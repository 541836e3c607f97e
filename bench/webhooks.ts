// Webhook delivery benchmark: the built server (node dist/main.js, SQLite) with 10 endpoints
// subscribed to content.created, all pointing at a plain-HTTP receiver in this process on
// 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE=true). Two phases:
//   1. delay: content created at a steady pace; for each delivery, the time from the event's
//      created_at (stamped just before its transaction commits) to the receiver having the request,
//      so an upper bound of "commit to first attempt". Target: p99 ≤ 1 s with a healthy receiver.
//   2. throughput: a burst of content created as fast as a few clients can; deliveries per second
//      from the first delivery of the burst to the last.
// Everything runs on loopback and stops by itself. Usage: tsx bench/webhooks.ts [--duration s] [--burst n]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cleanEnv, freePort, REPO_ROOT, startChild, waitUntilReady, productArgs } from './processes.js';
import { createAccount } from './seed.js';

const ENDPOINTS = 10;
const PACE_PER_SECOND = 20;
const BURST_CLIENTS = 8;

function options(): { duration: number; burst: number } {
  const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, burst: { type: 'string', default: '500' } }, strict: true });
  const duration = Number(values.duration);
  const burst = Number(values.burst);
  if (!Number.isInteger(duration) || duration < 1) throw new Error('--duration must be a whole number of seconds (1 or more)');
  if (!Number.isInteger(burst) || burst < 1) throw new Error('--burst must be a whole number of items (1 or more)');
  return { duration, burst };
}

/** Receives deliveries; remembers, per event, when each arrived and the event's own created_at. */
class Receiver {
  readonly arrivals: { eventId: string; createdAt: number; at: number }[] = [];
  private readonly server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; created_at: string };
      this.arrivals.push({ eventId: event.id, createdAt: Date.parse(event.created_at), at });
      res.writeHead(204).end();
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async waitFor(count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.arrivals.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${this.arrivals.length} of ${count} deliveries arrived within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function post(agent: https.Agent, url: string, key: string, body: unknown): Promise<{ status: number; body: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = https.request(url, {
      method: 'POST',
      agent,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function main(): Promise<void> {
  const { duration, burst } = options();
  console.log('Building (npm run build)...');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-bench-webhooks-'));
  const receiver = new Receiver();
  const receiverUrl = await receiver.start();
  const env = cleanEnv({ DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE: 'true' });
  const port = await freePort();
  const base = `https://127.0.0.1:${port}`;
  const account = await createAccount(env, 'bench-webhooks@example.com');
  const server = startChild('product server', productArgs(), { ...env, PORT: String(port) });
  let agent: https.Agent | undefined;
  try {
    await waitUntilReady(server, `${base}/readyz`);
    const client = new https.Agent({ keepAlive: true, ca: await fs.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8') });
    agent = client;
    for (let i = 0; i < ENDPOINTS; i++) {
      const res = await post(client, `${base}/v1/webhooks`, account.key, { url: `${receiverUrl}/hook/${i}`, events: ['content.created'] });
      if (res.status !== 201) throw new Error(`creating an endpoint answered ${res.status}: ${res.body}`);
    }
    const create = async (n: number) => {
      const res = await post(client, `${base}/v1/content`, account.key, { title: `Item ${n}`, type: 'blog', content: '# Body\n\nSome text.' });
      if (res.status !== 201) throw new Error(`creating content answered ${res.status}: ${res.body}`);
    };

    // Phase 1: steady pace, delay from commit to first attempt.
    const paced = duration * PACE_PER_SECOND;
    console.log(`Delay: ${paced} changes at ${PACE_PER_SECOND}/s for ${duration} s, ${ENDPOINTS} endpoints (${paced * ENDPOINTS} deliveries)...`);
    const started = Date.now();
    for (let n = 0; n < paced; n++) {
      const due = started + (n * 1000) / PACE_PER_SECOND;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      await create(n);
    }
    await receiver.waitFor(paced * ENDPOINTS, 30_000);
    const delays = receiver.arrivals.map((a) => a.at - a.createdAt).sort((a, b) => a - b);
    const p99 = percentile(delays, 99);
    console.log(`  delay ms: p50 ${percentile(delays, 50)}, p90 ${percentile(delays, 90)}, p99 ${p99}, max ${delays.at(-1)}`);
    console.log(`  ${p99 <= 1000 ? 'PASS' : 'MISS'}  p99 commit-to-first-attempt ≤ 1000 ms: ${p99} ms`);

    // Phase 2: a burst, deliveries per second.
    const before = receiver.arrivals.length;
    console.log(`Throughput: ${burst} changes from ${BURST_CLIENTS} clients at once (${burst * ENDPOINTS} deliveries)...`);
    let next = paced;
    const end = paced + burst;
    const burstStarted = Date.now();
    await Promise.all(Array.from({ length: BURST_CLIENTS }, async () => {
      while (next < end) await create(next++);
    }));
    const createdIn = (Date.now() - burstStarted) / 1000;
    await receiver.waitFor(before + burst * ENDPOINTS, 120_000);
    const window = receiver.arrivals.slice(before);
    const seconds = (window.at(-1)!.at - window[0]!.at) / 1000;
    const ids = new Set(window.map((a) => a.eventId));
    console.log(`  ${burst} changes accepted in ${createdIn.toFixed(2)} s (${Math.round(burst / createdIn)}/s)`);
    console.log(`  ${window.length} deliveries of ${ids.size} events in ${seconds.toFixed(2)} s: ${Math.round(window.length / seconds)} deliveries/s`);
    const burstDelays = window.map((a) => a.at - a.createdAt).sort((a, b) => a - b);
    console.log(`  delay under the burst ms: p50 ${percentile(burstDelays, 50)}, p99 ${percentile(burstDelays, 99)}, max ${burstDelays.at(-1)}`);
  } finally {
    agent?.destroy();
    await server.stop();
    await receiver.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench/webhooks: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
