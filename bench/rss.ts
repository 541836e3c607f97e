// Where the product's RSS goes, and what a change does to it: A/B runs of the built server under the
// core benchmark's load, interleaved (A, B, A, B, ...) so that other work on the machine hits every
// variant alike. Each run: a fresh copy of one seeded DATA_DIR, the server started with the variant's
// Node flags and environment, its RSS idle (anonymous vs file-backed, and the JS heap's own view),
// then list, list filtered, get one, create and update for --duration seconds each, then the kernel's
// high-water mark, the heap after the load, and the server's CPU per request.
//
//   npx tsx bench/rss.ts [--rounds 2] [--duration 5 (0: idle only)] [--no-build] \
//     --variant 'base|' --variant 'semi4|--max-semi-space-size=4' --variant 'nocache|ENV:LIST_CACHE_ENTRIES=0'
//
// A variant is `name|item item ...`: an item `--flag` is a Node flag put before those of `npm start`
// (a later flag wins), `ENV:NAME=value` an environment variable, `-flag` drops that flag of `npm start`,
// `MAIN:path` runs another build's main.js (a copy of dist/ inside the repository, e.g. .bench/).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cleanEnv, cpuTimeMs, freePort, productArgs, REPO_ROOT, RssSampler, startChild, waitUntilReady } from './processes.js';
import { measure, productScenarios } from './scenarios.js';
import { createAccount, seedContent } from './seed.js';

const { values } = parseArgs({
  options: {
    variant: { type: 'string', multiple: true, default: ['base|'] },
    rounds: { type: 'string', default: '2' },
    duration: { type: 'string', default: '5' },
    'no-build': { type: 'boolean', default: false },
  },
  strict: true,
});

interface Variant {
  name: string;
  flags: string[];
  drop: string[];
  env: Record<string, string>;
  /** Another build's main.js instead of dist/main.js (e.g. a copy of the build before a change). */
  main?: string;
}

function variant(spec: string): Variant {
  const [name = '', items = ''] = spec.split('|', 2);
  const v: Variant = { name, flags: [], drop: [], env: {} };
  for (const item of items.split(/\s+/).filter(Boolean)) {
    if (item.startsWith('ENV:')) {
      const [k, ...rest] = item.slice(4).split('=');
      v.env[k!] = rest.join('=');
    } else if (item.startsWith('MAIN:')) v.main = item.slice(5);
    else if (item.startsWith('--')) v.flags.push(item);
    else if (item.startsWith('-')) v.drop.push(item.slice(1));
    else throw new Error(`variant ${name}: cannot read "${item}"`);
  }
  return v;
}

const MB = 1024 * 1024;
const kb = (text: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;

/** RSS split by the kernel: anonymous (heaps, buffers) and file-backed (the binary, libraries, mapped files). */
async function status(pid: number) {
  const text = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  return { rss: kb(text, 'VmRSS'), anon: kb(text, 'RssAnon'), file: kb(text, 'RssFile'), hwm: kb(text, 'VmHWM') };
}

/**
 * The server's own view, through a preloaded module: on SIGUSR2 it writes process.memoryUsage() and
 * V8's heap spaces to a file. Nothing else in the server changes.
 */
const PROBE = `
import fs from 'node:fs'; import v8 from 'node:v8';
process.on('SIGUSR2', () => {
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, { size: s.space_size, used: s.space_used_size }]));
  const usage = process.memoryUsage();
  globalThis.gc?.();
  fs.writeFileSync(process.env.RSS_PROBE_FILE, JSON.stringify({ usage, spaces, liveAfterGc: globalThis.gc ? process.memoryUsage().heapUsed : undefined }));
});`;

interface Probe {
  usage: NodeJS.MemoryUsage;
  spaces: Record<string, { size: number; used: number }>;
  /** With --expose-gc among the variant's flags: the heap in use after a full collection. */
  liveAfterGc?: number;
}

async function probe(pid: number, file: string): Promise<Probe> {
  await fs.rm(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 50));
    try {
      return JSON.parse(await fs.readFile(file, 'utf8')) as Probe;
    } catch {
      // not written yet
    }
  }
  throw new Error('the probe did not answer');
}

const heapLine = (p: Probe) => {
  const u = p.usage;
  const young = (p.spaces.new_space?.size ?? 0) + (p.spaces.new_large_object_space?.size ?? 0);
  const old = (p.spaces.old_space?.size ?? 0) + (p.spaces.large_object_space?.size ?? 0);
  return `heap total ${(u.heapTotal / MB).toFixed(1)} (used ${(u.heapUsed / MB).toFixed(1)}; young ${(young / MB).toFixed(1)}, old+large ${(old / MB).toFixed(1)}, ` +
    `code ${((p.spaces.code_space?.size ?? 0) / MB).toFixed(1)}${p.liveAfterGc ? `; live after full GC ${(p.liveAfterGc / MB).toFixed(1)}` : ''}), external ${(u.external / MB).toFixed(1)} (array buffers ${(u.arrayBuffers / MB).toFixed(1)})`;
};

async function main(): Promise<void> {
  const variants = values.variant.map(variant);
  const duration = Number(values.duration);
  if (!values['no-build']) execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-rss-'));
  const probeModule = path.join(root, 'probe.mjs');
  await fs.writeFile(probeModule, PROBE);
  try {
    const seeded = path.join(root, 'seeded');
    const env = cleanEnv({ DATA_DIR: seeded, HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
    const big = await createAccount(env, 'rss-big@example.com');
    const small = await createAccount(env, 'rss-small@example.com');
    const ids = await seedContent(path.join(seeded, 'cms.sqlite'), big, 10_000);
    await seedContent(path.join(seeded, 'cms.sqlite'), small, 1_000);
    const results = new Map<string, { idle: number; hwm: number; cpu: number; rps: number[] }[]>();
    for (let round = 1; round <= Number(values.rounds); round++) {
      const order = round % 2 ? variants : [...variants].reverse();
      for (const v of order) {
        const dataDir = path.join(root, `run-${round}-${v.name}`);
        await fs.cp(seeded, dataDir, { recursive: true });
        const port = await freePort();
        const base = productArgs().filter((a) => !v.drop.some((d) => a.startsWith(d)));
        const args = [`--import=${probeModule}`, ...base.slice(0, -1), ...v.flags, v.main ?? base[base.length - 1]!];
        const child = startChild(`product (${v.name})`, args, { ...env, DATA_DIR: dataDir, PORT: String(port), RSS_PROBE_FILE: path.join(root, 'probe.json'), ...v.env });
        const sampler = new RssSampler(child.pid);
        try {
          const url = `https://127.0.0.1:${port}`;
          await waitUntilReady(child, `${url}/readyz`);
          await new Promise((r) => setTimeout(r, 1000));
          const idle = await status(child.pid);
          const idleProbe = await probe(child.pid, path.join(root, 'probe.json'));
          const ca = await fs.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8');
          const cpu0 = cpuTimeMs(child.pid);
          let requests = 0;
          const rps: number[] = [];
          const peaks: string[] = [];
          for (const scenario of duration > 0 ? productScenarios(ids) : []) {
            let top = { rss: 0, anon: 0, file: 0, hwm: 0 };
            const timer = setInterval(() => void status(child.pid).then((s) => { if (s.rss > top.rss) top = s; }, () => {}), 100);
            const m = await measure(scenario, 'product', { url, pid: child.pid, key: big.key, ca, sampler, duration });
            clearInterval(timer);
            if (m.failures) throw new Error(`${v.name} ${scenario.name}: ${m.failures} failures`);
            requests += m.total;
            rps.push(Math.round(m.rps));
            peaks.push(`${scenario.name} ${(top.rss / MB).toFixed(0)} (anon ${(top.anon / MB).toFixed(0)})`);
          }
          console.log(`  peak RSS sampled per scenario, MB: ${peaks.join(', ')}`);
          const cpu = (cpuTimeMs(child.pid) - cpu0) / Math.max(requests, 1);
          const after = await status(child.pid);
          const afterProbe = await probe(child.pid, path.join(root, 'probe.json'));
          const load = os.loadavg()[0]!.toFixed(2);
          console.log(`round ${round} ${v.name}: idle RSS ${(idle.rss / MB).toFixed(1)} MB (anon ${(idle.anon / MB).toFixed(1)}, file ${(idle.file / MB).toFixed(1)}); ${heapLine(idleProbe)}`);
          console.log(`  after load: HWM ${(after.hwm / MB).toFixed(1)} MB, RSS ${(after.rss / MB).toFixed(1)} (anon ${(after.anon / MB).toFixed(1)}); ${heapLine(afterProbe)}`);
          console.log(`  CPU ${cpu.toFixed(3)} ms/req over all scenarios; req/s list/filtered/get/create/update ${rps.join(' / ')}; load ${load}`);
          const list = results.get(v.name) ?? [];
          list.push({ idle: idle.rss, hwm: after.hwm, cpu, rps });
          results.set(v.name, list);
        } finally {
          sampler.stop();
          await child.stop();
          await fs.rm(dataDir, { recursive: true, force: true });
        }
      }
    }
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
    };
    console.log('\nvariant | idle RSS MB | peak RSS (VmHWM) MB | CPU ms/req | runs');
    for (const [name, runs] of results) {
      console.log(`${name} | ${(median(runs.map((r) => r.idle)) / MB).toFixed(1)} | ${(median(runs.map((r) => r.hwm)) / MB).toFixed(1)} | ` +
        `${median(runs.map((r) => r.cpu)).toFixed(3)} | ${runs.length} (HWM ${runs.map((r) => (r.hwm / MB).toFixed(0)).join(', ')})`);
    }
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`rss: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
