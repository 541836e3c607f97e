// Fan-out of the real-time channel: 1,000 WebSocket subscribers on one instance (the built server,
// SQLite), 100 changes a second for 10 s. Reports delivery latency (commit → client receipt, from
// the event's created_at, stamped in the writing transaction, to the moment a client reads it; same
// machine, same clock), events lost (each client must get every event, once, in order) and the
// server's RSS per idle connection. Targets (issue): p99 ≤ 50 ms, ≤ 20 KB per idle connection,
// zero events lost.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { cleanEnv, cpuTimeMs, freePort, REPO_ROOT, startChild, waitUntilReady, productArgs, rssBytes } from './processes.js';
import { createAccount } from './seed.js';

const MB = 1024 * 1024;

function options() {
  const { values } = parseArgs({
    options: {
      clients: { type: 'string', default: '1000' },
      rate: { type: 'string', default: '100' },
      duration: { type: 'string', default: '10' },
      // off: the server behind a TLS-terminating proxy (TLS=off, TRUST_PROXY), spared the encryption.
      tls: { type: 'string', default: 'on' },
      'no-build': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const n = (name: string, v: string) => {
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new Error(`--${name} must be a whole number of 1 or more`);
    return Number(v);
  };
  if (values.tls !== 'on' && values.tls !== 'off') throw new Error('--tls must be on or off');
  return {
    clients: n('clients', values.clients),
    rate: n('rate', values.rate),
    duration: n('duration', values.duration),
    tls: values.tls === 'on',
    build: !values['no-build'],
  };
}


interface Subscriber {
  socket: WebSocket;
  ids: string[];
  latencies: number[];
}

/** Behind a proxy the service wants to be told the client spoke https. */
const PROXIED = { 'x-forwarded-proto': 'https' };

function subscribe(url: string, ca: string | undefined): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, ca ? { ca } : { headers: PROXIED });
    const sub: Subscriber = { socket, ids: [], latencies: [] };
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify({ type: 'subscribe', event: 'content.created' })));
    socket.on('message', (data) => {
      const received = Date.now();
      const text = data.toString();
      // Events lead with "id" and "type", then "created_at": read them without parsing the item.
      if (text.startsWith('{"id":"evt_')) {
        sub.ids.push(text.slice(7, 37));
        const at = text.indexOf('"created_at":"');
        sub.latencies.push(received - Date.parse(text.slice(at + 14, at + 38)));
      } else if ((JSON.parse(text) as { type: string }).type === 'subscribed') resolve(sub);
    });
  });
}

function post(agent: http.Agent, url: string, key: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const transport = url.startsWith('https:') ? https : http;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...PROXIED };
    const req = transport.request(url, { method: 'POST', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function waitForPlainHttp(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      http.get(url, { headers: PROXIED }, (res) => resolve(res.statusCode === 200)).on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  const { clients, rate, duration, tls, build } = options();
  if (build) console.log('Building (npm run build)...');
  if (build) execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-bench-ws-'));
  const env = cleanEnv({ DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  const account = await createAccount(env, 'bench-ws@example.com');
  const port = await freePort();
  const server = startChild('product server', productArgs(), { ...env, PORT: String(port), ...(tls ? {} : { TLS: 'off', TRUST_PROXY: '127.0.0.1' }) });
  const subscribers: Subscriber[] = [];
  try {
    const base = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
    if (tls) await waitUntilReady(server, `${base}/readyz`);
    else await waitForPlainHttp(`${base}/readyz`);
    const ca = tls ? await fs.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8') : undefined;
    let before = Infinity;
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 500));
      before = Math.min(before, rssBytes(server.pid));
    }

    const url = `${tls ? 'wss' : 'ws'}://127.0.0.1:${port}/v1/ws?token=${account.key}`;
    for (let i = 0; i < clients; i += 50) {
      subscribers.push(...(await Promise.all(Array.from({ length: Math.min(50, clients - i) }, () => subscribe(url, ca)))));
    }
    // Idle means settled: give V8's memory reducer time to collect the handshakes' garbage, and
    // take the lowest reading of the last few seconds.
    let idle = Infinity;
    for (let i = 0; i < 24; i++) {
      await new Promise((r) => setTimeout(r, 500));
      if (i >= 12) idle = Math.min(idle, rssBytes(server.pid));
    }
    console.log(`${clients} subscribers connected; server RSS ${(before / MB).toFixed(1)} MB before, ${(idle / MB).toFixed(1)} MB with them idle`);

    const agent = tls ? new https.Agent({ ca, keepAlive: true, maxSockets: 8 }) : new http.Agent({ keepAlive: true, maxSockets: 8 });
    const body = JSON.stringify({ title: 'Fan-out', type: 'blog', content: '# Hello\n\nA change for the subscribers.', status: 'published' });
    const total = rate * duration;
    const serverCpu = cpuTimeMs(server.pid);
    const clientCpu = process.cpuUsage().user + process.cpuUsage().system;
    const started = Date.now();
    const writes: Promise<number>[] = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      writes.push(post(agent, `${base}/v1/content`, account.key, body));
    }
    const statuses = await Promise.all(writes);
    const elapsed = (Date.now() - started) / 1000;
    console.log(`  CPU while writing: server ${((cpuTimeMs(server.pid) - serverCpu) / 1000 / elapsed * 100).toFixed(0)} %, this client process ${((process.cpuUsage().user + process.cpuUsage().system - clientCpu) / 1e6 / elapsed * 100).toFixed(0)} %`);
    const failed = statuses.filter((s) => s !== 201).length;
    // Let the last events arrive.
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && subscribers.some((s) => s.ids.length < total)) await new Promise((r) => setTimeout(r, 50));
    agent.destroy();

    const latencies = subscribers.flatMap((s) => s.latencies).sort((a, b) => a - b);
    const reference = subscribers[0]!.ids;
    const lost = subscribers.reduce((n, s) => n + Math.max(0, total - s.ids.length), 0);
    const unordered = subscribers.filter((s) => s.ids.join() !== reference.join()).length;
    const duplicated = subscribers.filter((s) => new Set(s.ids).size !== s.ids.length).length;
    const perConnection = (idle - before) / clients;
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    console.log(`\nResults (TLS ${tls ? 'on' : 'off, behind a proxy'}, ${clients} subscribers, ${rate} changes/s for ${duration} s, ${total} events, ${latencies.length} deliveries):`);
    console.log(`  writes failed: ${failed}`);
    console.log(`  delivery latency, commit → receipt: p50 ${p50} ms, p99 ${p99} ms, max ${latencies.at(-1)} ms`);
    console.log(`  events lost: ${lost}; subscribers with a different order: ${unordered}; with duplicates: ${duplicated}`);
    console.log(`  server RSS per idle connection: ${(perConnection / 1024).toFixed(1)} KB`);
    console.log('\nTargets:');
    const line = (pass: boolean, text: string) => console.log(`  ${pass ? 'PASS' : 'MISS'}  ${text}`);
    line(p99 <= 50, `delivery p99 ${p99} ms (goal <= 50 ms)`);
    line(perConnection <= 20 * 1024, `${(perConnection / 1024).toFixed(1)} KB per idle connection (goal <= 20 KB)`);
    line(lost === 0 && unordered === 0 && duplicated === 0 && failed === 0, `${lost} events lost (goal 0)`);
  } finally {
    for (const s of subscribers) s.socket.terminate();
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
