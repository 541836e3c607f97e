// `npx tsx bench/profile.ts --scenario list|"list filtered"|"get one"|create|update [--duration 8]`:
// where a request's CPU goes. Builds, seeds like `npm run bench`, runs the product (as `npm start`
// runs it) under V8's CPU profiler and one scenario's load, then prints the functions with the most
// self time and the same time summed per source file (dist/ paths; node_modules by package).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { summarise, type CpuProfile } from './cpu-profile.js';
import { cleanEnv, freePort, productArgs, REPO_ROOT, RssSampler, startChild, waitUntilReady } from './processes.js';
import { measure, productScenarios } from './scenarios.js';
import { createAccount, seedContent } from './seed.js';

const { values } = parseArgs({
  options: { scenario: { type: 'string', default: 'list' }, duration: { type: 'string', default: '8' }, top: { type: 'string', default: '30' }, 'no-build': { type: 'boolean', default: false } },
});

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
