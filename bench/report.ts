// Benchmark output: PASS/MISS per target, the markdown table, and the generated part of docs/benchmarks.md.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONNECTIONS, WARMUP_SECONDS, type Measurement } from './scenarios.js';
import { productArgs, REPO_ROOT } from './processes.js';

const START = '<!-- bench:generated:start -->';
const END = '<!-- bench:generated:end -->';
const DOC = path.join(REPO_ROOT, 'docs', 'benchmarks.md');
const MB = 1024 * 1024;

export interface Run {
  date: Date;
  duration: number;
  seedSeconds: number;
  idleRss: number;
  /** The kernel's high-water mark of the product server's RSS over the whole run. */
  productHwm: number;
  dataDirFs: string;
  /** 1-minute load average before the run: other work on the machine skews req/s and latency. */
  loadBefore: number;
  results: Measurement[];
  /** With `--peer`: the peer server's RSS idle after start and its high-water mark over the run. */
  peer?: { idleRss: number; hwm: number };
}

export interface Target {
  name: string;
  goal: string;
  measured: string;
  pass: boolean;
}

const mb = (bytes: number) => (bytes / MB).toFixed(1);
const find = (run: Run, name: string, server: Measurement['server'] = 'product') =>
  run.results.find((r) => r.scenario.name === name && (r.server === server || (server === 'product' && r.server === 'bare')));

export function overheadRatio(run: Run): number {
  return (find(run, 'list')?.rps ?? 0) / (find(run, 'bare Fastify')?.rps || 1);
}

export function targets(run: Run): Target[] {
  const list = find(run, 'list');
  const create = find(run, 'create');
  const ratio = overheadRatio(run);
  const peak = Math.max(run.productHwm, ...run.results.filter((r) => r.server === 'product').map((r) => r.peakRss));
  const p99 = list?.p99 ?? Infinity;
  const creates = create?.rps ?? 0;
  return [
    { name: 'list limit=10 throughput vs bare Fastify', goal: '>= 40 %', measured: `${(ratio * 100).toFixed(1)} %`, pass: ratio >= 0.4 },
    { name: `list limit=10 p99 at ${CONNECTIONS} connections`, goal: '<= 20 ms', measured: `${p99} ms`, pass: p99 <= 20 },
    { name: 'create throughput (synchronous=FULL)', goal: '>= 2,000 req/s', measured: `${Math.round(creates)} req/s`, pass: creates >= 2000 },
    { name: 'server peak RSS', goal: '<= 150 MB', measured: `${mb(peak)} MB`, pass: peak <= 150 * MB },
  ];
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  return `${nproc} CPUs (\`nproc\`), ${cpu}, ${mb(os.totalmem())} MB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

/** Command, date, machine and settings: what a reader needs to compare two runs. */
function header(run: Run): string[] {
  const busy = run.loadBefore > 0.5 ? ' (other work was running: every figure is pessimistic)' : '';
  return [
    `Command: \`npm run bench${run.peer ? ' -- --peer' : ''}\`${run.duration !== 10 ? ` (run with \`--duration ${run.duration}\`)` : ''}`,
    `Date: ${run.date.toISOString()}`,
    `Machine: ${machine()}; 1-minute load average before the run: ${run.loadBefore.toFixed(2)}${busy}`,
    `Settings: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up (not counted) then ${run.duration} s measured per scenario; ` +
      `product = \`node ${productArgs().join(" ")}\` (as \`npm start\` runs it), SQLite (WAL, synchronous=FULL) in a fresh temp DATA_DIR on ${run.dataDirFs}, LOG_LEVEL=warn.`,
    `Seeding 10,000 + 1,000 items took ${run.seedSeconds.toFixed(1)} s. Product RSS: ${mb(run.idleRss)} MB idle after start, ` +
      `${mb(run.productHwm)} MB kernel high-water mark (VmHWM) over the run.`,
  ];
}

export function markdown(run: Run): string {
  const rows = run.results.filter((r) => r.server !== 'peer').map((r) =>
    [r.scenario.name, `\`${r.scenario.request}\``, Math.round(r.rps), r.p50, r.p99, r.cpuMsPerRequest.toFixed(2), mb(r.peakRss), r.load.toFixed(2), `${r.failures} / ${r.total}`],
  );
  const goals = targets(run).map((t) => [t.name, t.goal, t.measured, t.pass ? 'PASS' : 'MISS']);
  const table = (rows: unknown[][]) => rows.map((cells) => `| ${cells.join(' | ')} |`);
  return [
    ...header(run),
    '',
    '| scenario | request | req/s | p50 ms | p99 ms | server CPU ms/req | server peak RSS MB | load after | non-2xx+errors / requests |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...table(rows),
    '',
    `Overhead ratio (product list req/s / bare req/s, same run): ${overheadRatio(run).toFixed(3)}`,
    '',
    '| target | goal | measured | result |',
    '|---|---|---|---|',
    ...table(goals),
    ...peerSection(run),
  ].join('\n');
}

const ratio = (ours: number, theirs: number, digits = 2) => (theirs > 0 ? `${(ours / theirs).toFixed(digits)}×` : '—');

/**
 * With `--peer`: each scenario on the product and, right after, on the lean peer (plain Fastify +
 * better-sqlite3, bench/peer-server.ts), and product ÷ peer for every figure.
 */
function peerSection(run: Run): string[] {
  const pairs = run.results
    .filter((r) => r.server === 'product')
    .map((ours) => ({ ours, peer: find(run, ours.scenario.name, 'peer') }))
    .filter((p): p is { ours: Measurement; peer: Measurement } => p.peer !== undefined);
  if (!pairs.length || !run.peer) return [];
  const rows = pairs.map(({ ours, peer }) => [
    ours.scenario.name,
    `${Math.round(ours.rps)} / ${Math.round(peer.rps)} = ${ratio(ours.rps, peer.rps)}`,
    `${ours.p99} / ${peer.p99} = ${ratio(ours.p99, peer.p99, 1)}`,
    `${ours.cpuMsPerRequest.toFixed(3)} / ${peer.cpuMsPerRequest.toFixed(3)} = ${ratio(ours.cpuMsPerRequest, peer.cpuMsPerRequest, 1)}`,
    `${mb(ours.peakRss)} / ${mb(peer.peakRss)} = ${ratio(ours.peakRss, peer.peakRss)}`,
    `${ours.load.toFixed(2)} / ${peer.load.toFixed(2)}`,
    `${ours.failures + peer.failures} / ${ours.total + peer.total}`,
  ]);
  const productPeak = Math.max(run.productHwm, ...pairs.map((p) => p.ours.peakRss));
  const peerPeak = Math.max(run.peer.hwm, ...pairs.map((p) => p.peer.peakRss));
  return [
    '',
    '**Against the lean peer** (`--peer`: plain Fastify + better-sqlite3 over HTTPS, same certificate, same rows, same Node flags; ' +
      'each scenario on the product, then at once on the peer). Each cell: product / peer = ratio.',
    '',
    '| scenario | req/s | p99 ms | server CPU ms/req | peak RSS MB | load after | non-2xx+errors / requests |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
    `RSS idle after start: product ${mb(run.idleRss)} MB, peer ${mb(run.peer.idleRss)} MB (${ratio(run.idleRss, run.peer.idleRss)}); ` +
      `over the run (VmHWM and samples): product ${mb(productPeak)} MB, peer ${mb(peerPeak)} MB (${ratio(productPeak, peerPeak)}).`,
  ];
}

/** Replaces the generated section of docs/benchmarks.md, keeping the hand-written text around it. */
export function writeDoc(run: Run): void {
  writeSection(START, END, markdown(run));
}

/**
 * Replaces what lies between `start` and `end` in docs/benchmarks.md with `body` (the rest of the
 * file is maintained by hand); without the markers, the section is added at the end.
 */
export function writeSection(start: string, end: string, body: string): void {
  const section = `${start}\n${body}\n${end}`;
  const current = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n\n';
  if (!current.includes(start)) return writeFileSync(DOC, `${current.trimEnd()}\n\n${section}\n`);
  const [before, rest] = current.split(start, 2) as [string, string];
  const after = rest.includes(end) ? rest.slice(rest.indexOf(end) + end.length) : '\n';
  writeFileSync(DOC, `${before}${section}${after}`);
}
