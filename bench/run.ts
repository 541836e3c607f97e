// `npm run bench`: build, seed, load-test the product and a bare Fastify baseline, report against targets.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startBareServer } from './bare.js';
import { seedPeer, startPeerServer } from './peer.js';
import { cleanEnv, freePort, httpsGet, httpsRequest, perProcessRss, REPO_ROOT, RssSampler, startChild, waitUntilReady, type Child, productArgs } from './processes.js';
import { bareScenario, measure, productScenarios, WARMUP_SECONDS, type Measurement } from './scenarios.js';
import { contentRows, createAccount, seedContent, type SeedAccount } from './seed.js';
import { markdown, targets, writeDoc, type Run } from './report.js';

const MB = 1024 * 1024;

/** Everything the run started or created, undone in reverse by `close()`, whatever happened. */
class Session {
  private readonly undo: (() => Promise<void> | void)[] = [];

  constructor(readonly dataDir: string) {
    this.undo.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  }

  child(child: Child): Child {
    this.undo.push(() => child.stop());
    return child;
  }

  sampler(pid: number): RssSampler {
    const sampler = new RssSampler(pid);
    this.undo.push(() => sampler.stop());
    return sampler;
  }

  onClose(step: () => Promise<void>): void {
    this.undo.push(step);
  }

  async close(): Promise<void> {
    for (const step of this.undo.splice(0).reverse()) await Promise.resolve(step()).catch((e: unknown) => console.error('cleanup:', e));
  }
}

function options(): { duration: number; peer: boolean; workers: number[]; doc: boolean } {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      peer: { type: 'boolean', default: false },
      workers: { type: 'string', default: '1' },
      'no-doc': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const duration = Number(values.duration);
  if (!Number.isInteger(duration) || duration < 1) throw new Error('--duration must be a whole number of seconds (1 or more)');
  // WORKERS is always passed to the product explicitly (its default is the number of cores).
  // `--workers 1,2`: one product run per figure, one after another on the same rows, side by side.
  const workers = values.workers.split(',').map(Number);
  if (workers.some((w) => !Number.isInteger(w) || w < 1 || w > 64)) throw new Error('--workers must be whole numbers from 1 to 64, separated by commas');
  return { duration, peer: values.peer, workers, doc: !values['no-doc'] };
}

function line(m: Measurement): string {
  const bad = m.failures > 0 ? `  !! ${m.failures} non-2xx/errors` : '';
  return `  ${m.server === 'peer' ? '  peer ' : ''}${m.scenario.name.padEnd(14)} ${Math.round(m.rps).toString().padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms` +
    `  CPU ${m.cpuMsPerRequest.toFixed(2)} ms/req  peak RSS ${(m.peakRss / MB).toFixed(1)} MB  (load ${m.load.toFixed(2)})${bad}`;
}

/**
 * Two accounts made with the CLI, then 10,000 and 1,000 items; with `peer`, the same rows into the
 * peer's own file too. Returns the big account and its ids.
 */
async function seed(env: Record<string, string>, dataDir: string, peer: boolean) {
  const started = Date.now();
  const big = await createAccount(env, 'bench-big@example.com');
  const small = await createAccount(env, 'bench-small@example.com');
  const bigRows = contentRows(big, 10_000);
  const smallRows = contentRows(small, 1_000);
  const ids = await seedContent(path.join(dataDir, 'cms.sqlite'), big, bigRows);
  await seedContent(path.join(dataDir, 'cms.sqlite'), small, smallRows);
  if (peer) seedPeer(path.join(dataDir, 'peer.sqlite'), [{ account: big, rows: bigRows }, { account: small, rows: smallRows }]);
  const publishedIds = bigRows.filter((row) => row.status === 'published').map((row) => row.id);
  return { big, small, ids, publishedIds, seconds: (Date.now() - started) / 1000 };
}

/** The peer server on the product's certificate and a copy of its data; the key of each account maps to it. */
async function startPeer(session: Session, env: Record<string, string>, accounts: SeedAccount[]): Promise<Target> {
  const port = await freePort();
  const keys = Object.fromEntries(accounts.map((a) => [a.key, { account: a.accountId, user: a.userId }]));
  const { child, cleanUp } = await startPeerServer({
    ...env,
    PORT: String(port),
    PEER_DB_FILE: path.join(session.dataDir, 'peer.sqlite'),
    PEER_CERT_FILE: path.join(session.dataDir, 'tls-cert.pem'),
    PEER_KEY_FILE: path.join(session.dataDir, 'tls-key.pem'),
    PEER_KEYS: JSON.stringify(keys),
  });
  session.onClose(cleanUp);
  const peer = session.child(child);
  const url = `https://127.0.0.1:${port}`;
  await waitUntilReady(peer, `${url}/readyz`);
  return { child: peer, url, sampler: session.sampler(peer.pid) };
}

interface Target {
  child: Child;
  url: string;
  sampler: RssSampler;
}

type Baseline = (ca: string, bodyFile: string) => Promise<Measurement>;

/** The product's scenarios, with the bare baseline run right after the list it is compared with. */
async function benchProduct(
  session: Session, env: Record<string, string>, big: SeedAccount, ids: string[], publishedIds: string[], duration: number, baseline: Baseline, workers: number, startPeer?: () => Promise<Target>,
) {
  const port = await freePort();
  const url = `https://127.0.0.1:${port}`;
  const product = session.child(startChild('product server', productArgs(), { ...env, PORT: String(port), WORKERS: String(workers) }));
  // Several workers start after the start-up process, each loading the whole server: slower on a busy machine.
  await waitUntilReady(product, `${url}/readyz`, workers > 1 ? 90_000 : 30_000);
  const sampler = session.sampler(product.pid);
  const idleRss = sampler.peak();
  const idleProcesses = perProcessRss(product.pid);
  const ca = await fs.readFile(path.join(session.dataDir, 'tls-cert.pem'), 'utf8');

  // The exact body the product answers for the list (checked against its certificate), for the bare server.
  const listed = await httpsGet(`${url}/v1/content?limit=10`, { ca, headers: { authorization: `Bearer ${big.key}` } });
  if (listed.status !== 200) throw new Error(`list answered ${listed.status}: ${listed.body}`);
  const bodyFile = path.join(session.dataDir, 'list-body.json');
  await fs.writeFile(bodyFile, listed.body);
  // A delivery key of the same account, for the delivery scenarios (compared with the management key's in the same run).
  const minted = await httpsRequest(`${url}/v1/api-keys`, { ca, method: 'POST', headers: { authorization: `Bearer ${big.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Benchmark site', kind: 'delivery' }) });
  if (minted.status !== 201) throw new Error(`delivery key: ${minted.status} ${minted.body}`);
  const delivery = { key: (JSON.parse(minted.body) as { data: { key: string } }).data.key, publishedIds };

  // Started after the product, whose certificate it shares; it idles while the product is measured and back.
  const peer = startPeer ? await startPeer() : undefined;
  const peerIdleRss = peer?.sampler.peak() ?? 0;
  if (peer) console.log(`Peer server (plain Fastify + better-sqlite3, pid ${peer.child.pid}) at ${peer.url}, same certificate and rows.`);

  // With WORKERS > 1, CPU and RSS are the primary's and its workers' together.
  console.log(`Product server (node ${productArgs().join(" ")}, pid ${product.pid}, WORKERS=${workers}, LOG_LEVEL=warn) at ${url}; ${WARMUP_SECONDS} s warm-up + ${duration} s per scenario:`);
  const results: Measurement[] = [];
  const peers: Measurement[] = [];
  let bare: Measurement | undefined;
  for (const scenario of productScenarios(ids, delivery)) {
    results.push(await measure(scenario, 'product', { url, pid: product.pid, key: big.key, ca, sampler, duration }));
    console.log(line(results[results.length - 1]!));
    if (peer && !scenario.productOnly) {
      // Right after the product's run of the same scenario, on the same rows: the two halves of a ratio.
      peers.push(await measure(scenario, 'peer', { url: peer.url, pid: peer.child.pid, key: big.key, ca, sampler: peer.sampler, duration }));
      console.log(line(peers[peers.length - 1]!));
    }
    if (bare) continue;
    // Adjacent in time, so that both figures of the overhead ratio see the same machine.
    bare = await baseline(ca, bodyFile);
    console.log(`Product server again (pid ${product.pid}):`);
  }
  const hwm = sampler.highWaterMark();
  const peerHwm = peer?.sampler.highWaterMark() ?? 0;
  // Per process: the primary first, then each worker; the peak is each one's own high-water mark.
  const processes = perProcessRss(product.pid).map((p) => ({ ...p, idle: idleProcesses.find((i) => i.pid === p.pid)?.rss }));
  await product.stop();
  await peer?.child.stop();
  return { results, peers, bare: bare!, idleRss, hwm, processes, peer: peer ? { idleRss: peerIdleRss, hwm: peerHwm } : undefined };
}

/** The runs with different WORKERS side by side (Markdown): req/s and p99 per scenario, memory per process. */
function sideBySide(runs: { workers: number; product: Awaited<ReturnType<typeof benchProduct>> }[]): string {
  const head = `| scenario | ${runs.map((r) => `WORKERS=${r.workers} req/s (p99 ms)`).join(' | ')} |`;
  const rule = `|---|${runs.map(() => '---:').join('|')}|`;
  const rows = runs[0]!.product.results.map(
    (m, i) => `| ${m.scenario.name} | ${runs.map((r) => { const x = r.product.results[i]!; return `${Math.round(x.rps)} (${x.p99})`; }).join(' | ')} |`,
  );
  const mb = (bytes: number | undefined) => (bytes === undefined ? '?' : (bytes / MB).toFixed(0));
  const memory = runs.map(
    (r) =>
      `- WORKERS=${r.workers}: ${r.product.processes.map((p, i) => `${i === 0 ? (r.workers > 1 ? 'primary' : 'process') : `worker`} ${mb(p.idle)} idle / ${mb(p.hwm)} peak MB`).join('; ')}; ` +
      `in all ${mb(r.product.idleRss)} idle, ${mb(r.product.hwm)} peak MB`,
  );
  return [head, rule, ...rows, '', 'RSS per process (idle after start; peak over the run):', ...memory].join('\n');
}

async function benchBare(session: Session, env: Record<string, string>, ca: string, bodyFile: string, duration: number) {
  const port = await freePort();
  const { child, cleanUp } = await startBareServer({
    ...env,
    PORT: String(port),
    BARE_CERT_FILE: path.join(session.dataDir, 'tls-cert.pem'),
    BARE_KEY_FILE: path.join(session.dataDir, 'tls-key.pem'),
    BARE_BODY_FILE: bodyFile,
  });
  session.onClose(cleanUp);
  const bare = session.child(child);
  const url = `https://127.0.0.1:${port}`;
  await waitUntilReady(bare, `${url}/v1/content`);
  console.log(`Bare Fastify server (pid ${bare.pid}) at ${url}, same certificate:`);
  const result = await measure(bareScenario, 'bare', { url, pid: bare.pid, ca, sampler: session.sampler(bare.pid), duration });
  console.log(line(result));
  await bare.stop();
  return result;
}

async function main(): Promise<void> {
  const { duration, peer, workers, doc } = options();
  const started = Date.now();
  const loadBefore = os.loadavg()[0] ?? 0;
  if (loadBefore > 0.5) console.log(`Note: the 1-minute load average is ${loadBefore.toFixed(2)}; other work on this machine skews every figure.`);
  console.log('Building (npm run build)...');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });

  const session = new Session(await fs.mkdtemp(path.join(os.tmpdir(), 'cms-bench-')));
  const onSignal = () => void session.close().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const env = cleanEnv({ DATA_DIR: session.dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
    console.log(`Seeding SQLite in ${session.dataDir} ...`);
    const { big, small, ids, publishedIds, seconds } = await seed(env, session.dataDir, peer);
    console.log(`  10,000 + 1,000 items in ${seconds.toFixed(1)} s${peer ? ' (the same rows again into the peer\'s file)' : ''}`);
    const baseline: Baseline = (ca, bodyFile) => benchBare(session, env, ca, bodyFile, duration);
    const peerStarter = peer ? () => startPeer(session, env, [big, small]) : undefined;
    const runs: { workers: number; product: Awaited<ReturnType<typeof benchProduct>> }[] = [];
    for (const [i, w] of workers.entries()) {
      // The bare baseline and the peer once, with the first run; the later runs compare with the first.
      const first = runs[0]?.product.bare;
      runs.push({ workers: w, product: await benchProduct(session, env, big, ids, publishedIds, duration, first ? async () => first : baseline, w, i === 0 ? peerStarter : undefined) });
    }
    const product = runs[0]!.product;
    if (runs.length > 1) console.log(`\n${sideBySide(runs)}\n`);

    const dataDirFs = execFileSync('df', ['--output=fstype', session.dataDir], { encoding: 'utf8' }).trim().split('\n').pop() ?? '?';
    const results = [...product.results, product.bare, ...product.peers];
    const run: Run = { date: new Date(), duration, seedSeconds: seconds, idleRss: product.idleRss, productHwm: product.hwm, dataDirFs, loadBefore, results, peer: product.peer };
    console.log('\nTargets:');
    for (const t of targets(run)) console.log(`  ${t.pass ? 'PASS' : 'MISS'}  ${t.name}: ${t.measured} (goal ${t.goal})`);
    console.log(`\n${markdown(run)}\n`);
    // --no-doc: a one-off comparison (WORKERS=2, say) that must not replace the generated figures.
    if (doc) writeDoc(run);
    const invalid = [...results, ...runs.slice(1).flatMap((r) => r.product.results)].filter((r) => r.failures > 0);
    if (invalid.length) throw new Error(`scenarios with non-2xx responses or errors: ${invalid.map((r) => r.scenario.name).join(', ')}`);
    console.log(`${doc ? 'Wrote docs/benchmarks.md; d' : 'D'}one in ${Math.round((Date.now() - started) / 1000)} s.`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await session.close();
  }
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
