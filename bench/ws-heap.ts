// `npx tsx bench/ws-heap.ts [--clients 1000] [--tls on|off] [--no-build] [--retainers Timeout]
// [--scopes request]`: what an idle WebSocket
// connection keeps alive on the server's JS heap. Starts the built server, takes a heap snapshot
// (SIGUSR2, --heapsnapshot-signal), connects the subscribers, lets them idle, takes another, and
// prints the objects that grew, by constructor, per connection. Memory outside the JS heap (OpenSSL
// buffers, kernel socket buffers) does not show here: compare with bench/realtime.ts's RSS figure.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cleanEnv, freePort, productArgs, REPO_ROOT, startChild, waitUntilReady } from './processes.js';
import { subscribeMany, waitForPlainHttp } from './realtime-clients.js';
import { createAccount } from './seed.js';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    // Also print what holds the objects of this constructor (e.g. --retainers Timeout).
    retainers: { type: 'string', multiple: true, default: [] },
    // Also print the functions whose scope holds a variable of this name (e.g. --scopes request).
    scopes: { type: 'string', multiple: true, default: [] },
    tls: { type: 'string', default: 'on' },
    top: { type: 'string', default: '25' },
    'no-build': { type: 'boolean', default: false },
  },
});

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** Bytes and counts per "type:name" (the constructor's name for objects). */
async function tally(file: string): Promise<Map<string, { count: number; bytes: number }>> {
  const snap = JSON.parse(await fs.readFile(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const result = new Map<string, { count: number; bytes: number }>();
  const edgeFields = snap.snapshot.meta.edge_fields;
  const edgeTypes = snap.snapshot.meta.edge_types[0];
  const wanted = new Set(values.retainers);
  const nameOf = (i: number) => `${types[snap.nodes[i + typeAt]!]}:${snap.strings[snap.nodes[i + nameAt]!]!.slice(0, 50)}`;
  let edge = 0;
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const edges = snap.nodes[i + fields.indexOf('edge_count')]!;
    for (let e = 0; e < edges; e++, edge += edgeFields.length) {
      const to = snap.nodes[snap.edges[edge + 2]! + nameAt]!;
      if (!wanted.has(snap.strings[to]!)) continue;
      const edgeType = edgeTypes[snap.edges[edge]!]!;
      const label = edgeType === 'element' || edgeType === 'hidden' ? `[${edgeType}]` : snap.strings[snap.edges[edge + 1]!];
      const key = `retainer of ${snap.strings[to]}: ${nameOf(i)} .${label}`;
      const entry = result.get(key) ?? { count: 0, bytes: 0 };
      entry.count++;
      result.set(key, entry);
    }
  }
  // Scopes (V8 contexts) holding a variable of a wanted name, then the closures holding those scopes.
  const scopeNames = new Set(values.scopes);
  const scopes = new Map<number, string>();
  edge = 0;
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const edges = snap.nodes[i + fields.indexOf('edge_count')]!;
    for (let e = 0; e < edges; e++, edge += edgeFields.length) {
      if (edgeTypes[snap.edges[edge]!] === 'context' && scopeNames.has(snap.strings[snap.edges[edge + 1]!]!)) scopes.set(i, snap.strings[snap.edges[edge + 1]!]!);
    }
  }
  edge = 0;
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const edges = snap.nodes[i + fields.indexOf('edge_count')]!;
    for (let e = 0; e < edges; e++, edge += edgeFields.length) {
      const variable = scopes.get(snap.edges[edge + 2]!);
      if (variable === undefined || types[snap.nodes[i + typeAt]!] !== 'closure') continue;
      const key = `retainer of a scope with ${variable}: closure ${snap.strings[snap.nodes[i + nameAt]!]}`;
      const entry = result.get(key) ?? { count: 0, bytes: 0 };
      entry.count++;
      result.set(key, entry);
    }
  }
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const name = type === 'object' || type === 'native' || type === 'closure' ? snap.strings[snap.nodes[i + nameAt]!]! : '';
    const key = `${type}${name ? `:${name.slice(0, 60)}` : ''}`;
    const entry = result.get(key) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += snap.nodes[i + sizeAt]!;
    result.set(key, entry);
  }
  return result;
}

/** Asks the server for a heap snapshot and tallies it once it is completely written. */
async function snapshot(pid: number, dir: string): Promise<Map<string, { count: number; bytes: number }>> {
  const before = new Set(await fs.readdir(dir));
  process.kill(pid, 'SIGUSR2');
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const file = (await fs.readdir(dir)).find((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
    if (!file) continue;
    try {
      const result = await tally(path.join(dir, file));
      await fs.rm(path.join(dir, file));
      return result;
    } catch {
      // Still being written.
    }
  }
}

async function main(): Promise<void> {
  const clients = Number(values.clients);
  const tls = values.tls !== 'off';
  if (!values['no-build']) execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-ws-heap-'));
  const env = cleanEnv({ DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  const account = await createAccount(env, 'heap@example.com');
  const port = await freePort();
  const serverEnv = { ...env, PORT: String(port), MAX_CONNECTIONS_PER_ADDRESS: '0', ...(tls ? {} : { TLS: 'off', TRUST_PROXY: '127.0.0.1' }) };
  const server = startChild('product server', ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dataDir}`, ...productArgs()], { ...serverEnv });
  try {
    if (tls) await waitUntilReady(server, `https://127.0.0.1:${port}/readyz`);
    else await waitForPlainHttp(`http://127.0.0.1:${port}/readyz`);
    const ca = tls ? await fs.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8') : undefined;
    // Snapshots go to the data directory (--diagnostic-dir), each removed once read.
    // (RSS is not read here: taking a snapshot itself grows it by far more than the connections.)
    const before = await snapshot(server.pid, dataDir);
    const subs = await subscribeMany(`${tls ? 'wss' : 'ws'}://127.0.0.1:${port}/v1/ws?token=${account.key}`, ca, clients);
    await new Promise((r) => setTimeout(r, 3000));
    const after = await snapshot(server.pid, dataDir);
    subs.forEach((s) => s.socket.terminate());
    const grown = [...after]
      .map(([key, a]) => ({ key, count: a.count - (before.get(key)?.count ?? 0), bytes: a.bytes - (before.get(key)?.bytes ?? 0) }))
      .sort((x, y) => y.bytes - x.bytes);
    const total = grown.reduce((n, g) => n + g.bytes, 0);
    console.log(`1-minute load average ${os.loadavg()[0]!.toFixed(2)}; ${clients} idle connections, TLS ${tls ? 'on' : 'off'}`);
    console.log(`JS heap grew by ${(total / 1024 / clients).toFixed(2)} KB per idle connection`);
    for (const g of grown.filter((g) => !g.key.startsWith('retainer')).slice(0, Number(values.top))) {
      console.log(`  ${(g.bytes / clients).toFixed(0).padStart(6)} B  ${(g.count / clients).toFixed(2).padStart(6)} per connection  ${g.key}`);
    }
    for (const g of grown.filter((g) => g.key.startsWith('retainer') && g.count >= clients / 2).sort((x, y) => y.count - x.count)) {
      console.log(`  ${(g.count / clients).toFixed(2).padStart(6)} per connection  ${g.key}`);
    }
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`ws-heap: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
