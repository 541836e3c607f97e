// Fan-out of the real-time channel: 1,000 WebSocket subscribers on one instance (the built server,
// SQLite), 100 changes a second for 10 s. Reports delivery latency (commit → client receipt, from
// the event's created_at, stamped in the writing transaction, to the moment a client reads it; same
// machine, same clock), events lost (each client must get every event, once, in order), the
// server's RSS per idle connection (marginal: from half the subscribers to all of them) and the
// server's CPU per event (less that of the write alone, measured first with nobody subscribed: the
// fan-out's own cost, visible even when latency is queueing). Targets (issue): p99 ≤ 50 ms, ≤ 20 KB
// per idle connection, zero events lost. --client-processes N spreads the subscribers over N child
// processes (bench/realtime-clients.ts); --cpu-prof profiles the server.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { summarise, type CpuProfile } from './cpu-profile.js';
import { collect, PROXIED, subscribeMany, waitForPlainHttp, type Seen, type Subscriber } from './realtime-clients.js';
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
      // The subscribers in this process (0) or spread over N child processes (so they use both cores).
      'client-processes': { type: 'string', default: '0' },
      // Runs the server under V8's CPU profiler and prints where its time went.
      'cpu-prof': { type: 'boolean', default: false },
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
    clientProcesses: values['client-processes'] === '0' ? 0 : n('client-processes', values['client-processes']),
    cpuProf: values['cpu-prof'],
    build: !values['no-build'],
  };
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

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** The subscribers, in this process or in child processes, behind one interface. */
interface Clients {
  pids: number[];
  /** Opens `count` more subscribers. */
  add(count: number): Promise<void>;
  collect(total: number, ms: number): Promise<Seen[]>;
  close(): void;
}

async function inProcess(url: string, ca: string | undefined, count: number): Promise<Clients> {
  const subscribers: Subscriber[] = await subscribeMany(url, ca, count);
  return {
    pids: [process.pid],
    add: async (more) => void subscribers.push(...(await subscribeMany(url, ca, more))),
    collect: async (total, ms) => [await collect(subscribers, total, ms)],
    close: () => subscribers.forEach((s) => s.socket.terminate()),
  };
}

async function inChildren(url: string, ca: string | undefined, count: number, processes: number): Promise<Clients> {
  const children: ChildProcess[] = [];
  const reply = <T>(child: ChildProcess) =>
    new Promise<T>((resolve, reject) => {
      child.once('message', (m: T & { error?: string }) => (m.error ? reject(new Error(m.error)) : resolve(m)));
      child.once('exit', () => reject(new Error('a client process exited')));
    });
  const connect = async (total: number) => {
    for (const [i, child] of children.entries()) {
      const share = Math.floor(total / processes) + (i < total % processes ? 1 : 0);
      const connected = reply<{ connected: number }>(child);
      child.send({ do: 'connect', url, ca, count: share });
      await connected;
    }
  };
  try {
    for (let i = 0; i < processes; i++) {
      children.push(fork(path.join(REPO_ROOT, 'bench/realtime-clients.ts'), ['--child'], { execArgv: ['--import', 'tsx'], cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    }
    await connect(count);
  } catch (error) {
    children.forEach((c) => c.kill());
    throw error;
  }
  return {
    pids: children.map((c) => c.pid!),
    add: connect,
    async collect(total, ms) {
      return Promise.all(
        children.map((child) => {
          const seen = reply<{ seen: Seen }>(child).then((m) => m.seen);
          child.send({ do: 'collect', total, ms });
          return seen;
        }),
      );
    },
    close: () => children.forEach((c) => c.connected && c.send({ do: 'exit' })),
  };
}

const loadAverage = () => os.loadavg()[0]!.toFixed(2);

/** Posts `total` changes at `rate` a second; resolves with the response statuses. */
async function write(agent: http.Agent, url: string, key: string, total: number, rate: number): Promise<number[]> {
  const body = JSON.stringify({ title: 'Fan-out', type: 'blog', content: '# Hello\n\nA change for the subscribers.', status: 'published' });
  const started = Date.now();
  const writes: Promise<number>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    writes.push(post(agent, url, key, body));
  }
  return Promise.all(writes);
}

async function main(): Promise<void> {
  const { clients, rate, duration, tls, build, clientProcesses, cpuProf } = options();
  if (build) console.log('Building (npm run build)...');
  if (build) execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
  console.log(`1-minute load average at the start: ${loadAverage()} (${os.cpus().length} CPUs)`);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-bench-ws-'));
  const profileDir = path.join(dataDir, 'profile');
  const env = cleanEnv({ DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  const account = await createAccount(env, 'bench-ws@example.com');
  const port = await freePort();
  const args = [...(cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...productArgs()];
  // All the subscribers come from 127.0.0.1, standing in for 1,000 client addresses: no per-address cap.
  const serverEnv = { ...env, PORT: String(port), MAX_CONNECTIONS_PER_ADDRESS: '0', ...(tls ? {} : { TLS: 'off', TRUST_PROXY: '127.0.0.1' }) };
  const server = startChild('product server', args, serverEnv);
  let subscribers: Clients | undefined;
  try {
    const base = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
    if (tls) await waitUntilReady(server, `${base}/readyz`);
    else await waitForPlainHttp(`${base}/readyz`);
    const ca = tls ? await fs.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8') : undefined;
    const agent = tls ? new https.Agent({ ca, keepAlive: true, maxSockets: 8 }) : new http.Agent({ keepAlive: true, maxSockets: 8 });

    // The writes alone, with nobody subscribed, at the same rate: what an event costs the server
    // before any fan-out (subtracted below to give the fan-out's own CPU per event).
    const reference = Math.min(rate * 3, rate * duration);
    await write(agent, `${base}/v1/content`, account.key, rate, rate); // warm-up
    const referenceCpu = cpuTimeMs(server.pid);
    await write(agent, `${base}/v1/content`, account.key, reference, rate);
    await new Promise((r) => setTimeout(r, 200));
    const writeMsPerEvent = (cpuTimeMs(server.pid) - referenceCpu) / reference;

    let before = Infinity;
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 500));
      before = Math.min(before, rssBytes(server.pid));
    }

    // Idle means settled: give V8's memory reducer time to collect the handshakes' garbage, and
    // take the lowest reading of the last few seconds.
    const settled = async () => {
      let low = Infinity;
      for (let i = 0; i < 24; i++) {
        await new Promise((r) => setTimeout(r, 500));
        if (i >= 12) low = Math.min(low, rssBytes(server.pid));
      }
      return low;
    };
    // Half the subscribers, then the rest: the second half's cost is the marginal cost of a
    // connection, free of what grows once whatever the number (V8's young generation grows to its
    // --max-semi-space-size with the handshakes' garbage, pools, code).
    const url = `${tls ? 'wss' : 'ws'}://127.0.0.1:${port}/v1/ws?token=${account.key}`;
    const half = Math.floor(clients / 2);
    subscribers = clientProcesses === 0 ? await inProcess(url, ca, half) : await inChildren(url, ca, half, clientProcesses);
    const halfIdle = await settled();
    await subscribers.add(clients - half);
    const idle = await settled();
    console.log(`${clients} subscribers connected; server RSS ${(before / MB).toFixed(1)} MB before, ${(halfIdle / MB).toFixed(1)} MB with ${half} idle, ${(idle / MB).toFixed(1)} MB with ${clients} idle`);

    const total = rate * duration;
    const clientPids = subscribers.pids;
    const clientCpuOf = () => clientPids.reduce((sum, pid) => sum + cpuTimeMs(pid), 0);
    const serverCpu = cpuTimeMs(server.pid);
    const clientCpu = clientCpuOf();
    const loadBefore = loadAverage();
    const started = Date.now();
    const statuses = await write(agent, `${base}/v1/content`, account.key, total, rate);
    // Let the last events arrive (each group of subscribers waits until it has them all, up to 5 s).
    const seen = await subscribers.collect(total, 5000);
    const elapsed = (Date.now() - started) / 1000;
    const serverMs = cpuTimeMs(server.pid) - serverCpu;
    const clientMs = clientCpuOf() - clientCpu;
    const loadAfter = loadAverage();
    agent.destroy();

    const latencies = seen.flatMap((s) => s.latencies).sort((a, b) => a - b);
    const orders = new Map<string, number>();
    for (const s of seen) for (const [digest, n] of Object.entries(s.orders)) orders.set(digest, (orders.get(digest) ?? 0) + n);
    const lost = seen.reduce((n, s) => n + s.lost, 0);
    const unordered = clients - Math.max(...orders.values());
    const duplicated = seen.reduce((n, s) => n + s.duplicated, 0);
    const failed = statuses.filter((s) => s !== 201).length;
    const perConnection = (idle - before) / clients;
    const marginal = (idle - halfIdle) / (clients - half);
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const msPerEvent = serverMs / total;
    const where = clientProcesses === 0 ? 'in the bench process' : `in ${clientProcesses} child process${clientProcesses > 1 ? 'es' : ''}`;
    console.log(`\nResults (TLS ${tls ? 'on' : 'off, behind a proxy'}, ${clients} subscribers ${where}, ${rate} changes/s for ${duration} s, ${total} events, ${latencies.length} deliveries):`);
    console.log(`  1-minute load average: ${loadBefore} before the writes, ${loadAfter} after`);
    console.log(`  writes failed: ${failed}`);
    console.log(`  delivery latency, commit → receipt: p50 ${p50} ms, p99 ${p99} ms, max ${latencies.at(-1)} ms`);
    console.log(`  events lost: ${lost}; subscribers with a different order: ${unordered}; with duplicates: ${duplicated}`);
    console.log(`  server RSS per idle connection: ${(perConnection / 1024).toFixed(1)} KB on average (0 → ${clients}), ${(marginal / 1024).toFixed(1)} KB marginal (${half} → ${clients})`);
    console.log(`  CPU over ${elapsed.toFixed(1)} s (writes + delivery): server ${((serverMs / 1000 / elapsed) * 100).toFixed(0)} %, subscriber process(es) ${((clientMs / 1000 / elapsed) * 100).toFixed(0)} %`);
    console.log(
      `  server CPU per event: ${msPerEvent.toFixed(2)} ms, of which the write alone ${writeMsPerEvent.toFixed(2)} ms (measured with no subscribers), ` +
        `so fan-out to ${clients} ≈ ${(msPerEvent - writeMsPerEvent).toFixed(2)} ms (${(((msPerEvent - writeMsPerEvent) * 1000) / clients).toFixed(1)} µs per delivery)`,
    );
    console.log('\nTargets:');
    const line = (pass: boolean, text: string) => console.log(`  ${pass ? 'PASS' : 'MISS'}  ${text}`);
    line(p99 <= 50, `delivery p99 ${p99} ms (goal <= 50 ms)`);
    line(marginal <= 20 * 1024, `${(marginal / 1024).toFixed(1)} KB per idle connection, marginal (goal <= 20 KB)`);
    line(lost === 0 && unordered === 0 && duplicated === 0 && failed === 0, `${lost} events lost (goal 0)`);
  } finally {
    subscribers?.close();
    await server.stop();
    if (cpuProf) {
      const [file] = await fs.readdir(profileDir).catch(() => []);
      if (file) summarise(JSON.parse(await fs.readFile(path.join(profileDir, file), 'utf8')) as CpuProfile, 30);
      else console.log('the server wrote no CPU profile');
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
