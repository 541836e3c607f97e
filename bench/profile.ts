// `npx tsx bench/profile.ts --scenario list|"list filtered"|"get one"|create|update [--duration 8]`:
// where a request's CPU goes. Builds, seeds like `npm run bench`, runs the product (as `npm start`
// runs it) under V8's CPU profiler and one scenario's load, then prints the functions with the most
// self time and the same time summed per source file (dist/ paths; node_modules by package).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cleanEnv, freePort, productArgs, REPO_ROOT, RssSampler, startChild, waitUntilReady } from './processes.js';
import { measure, productScenarios } from './scenarios.js';
import { createAccount, seedContent } from './seed.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values } = parseArgs({
  options: { scenario: { type: 'string', default: 'list' }, duration: { type: 'string', default: '8' }, top: { type: 'string', default: '30' }, 'no-build': { type: 'boolean', default: false } },
});

/** A readable place: the file under dist/, or the package under node_modules, or Node's own. */
function place(url: string): string {
  if (url === '') return '(native/VM)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return `pkg:${modules[1]}`;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '').replace(REPO_ROOT, '');
}

function summarise(profile: CpuProfile, top: number): void {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    if (!us) continue;
    const where = place(node.callFrame.url);
    const name = `${node.callFrame.functionName || '(anonymous)'}  ${where}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    byPlace.set(where, (byPlace.get(where) ?? 0) + us);
  }
  const print = (title: string, map: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`);
  };
  print('Self time by function:', byFunction);
  print('Self time by file or package:', byPlace);
}

async function main(): Promise<void> {
  if (!values['no-build']) execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-profile-'));
  const profileDir = path.join(dataDir, 'profile');
  const env = cleanEnv({ DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  try {
    const account = await createAccount(env, 'profile@example.com');
    const ids = await seedContent(path.join(dataDir, 'cms.sqlite'), account, 10_000);
    const scenario = productScenarios(ids).find((s) => s.name === values.scenario);
    if (!scenario) throw new Error(`--scenario must be one of: ${productScenarios(ids).map((s) => s.name).join(', ')}`);
    const port = await freePort();
    const url = `https://127.0.0.1:${port}`;
    const product = startChild('product server', [`--cpu-prof`, `--cpu-prof-dir=${profileDir}`, ...productArgs()], { ...env, PORT: String(port) });
    try {
      await waitUntilReady(product, `${url}/readyz`);
      const ca = await fs.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8');
      const sampler = new RssSampler(product.pid);
      const m = await measure(scenario, 'product', { url, pid: product.pid, key: account.key, ca, sampler, duration: Number(values.duration) });
      sampler.stop();
      console.log(`${scenario.request}: ${Math.round(m.rps)} req/s, p99 ${m.p99} ms, ${m.cpuMsPerRequest.toFixed(3)} ms CPU per request (under the profiler)`);
    } finally {
      await product.stop();
    }
    const [file] = await fs.readdir(profileDir);
    if (!file) throw new Error('the product wrote no profile');
    summarise(JSON.parse(await fs.readFile(path.join(profileDir, file), 'utf8')) as CpuProfile, Number(values.top));
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`profile: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
