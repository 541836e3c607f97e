// What rate limiting costs the list endpoint: GET /v1/content?limit=10 on the 10,000-item account,
// with limits off (RATE_LIMITS=off, the operator setting), counted in memory, and counted in Redis,
// in one run. Rounds interleave the three so that drift on the machine hits all of them alike; the
// figure per setting is its median round. Targets (issue): ≤ 5 % overhead in memory, ≤ 15 % with Redis.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { cleanEnv, freePort, REPO_ROOT, RssSampler, startChild, waitUntilReady, productArgs } from './processes.js';
import { measure, productScenarios, type Measurement } from './scenarios.js';
import { createAccount, seedContent } from './seed.js';

type Setting = 'off' | 'memory' | 'redis';
const SETTINGS: Setting[] = ['off', 'memory', 'redis'];
const TARGET: Record<Exclude<Setting, 'off'>, number> = { memory: 0.05, redis: 0.15 };

function options() {
  const { values } = parseArgs({
    options: { duration: { type: 'string', default: '10' }, rounds: { type: 'string', default: '3' }, workers: { type: 'string', default: '1' } },
    strict: true,
  });
  const duration = Number(values.duration);
  const rounds = Number(values.rounds);
  // --workers 2: every setting runs WORKERS=2, and "memory" then means the counters in the cluster primary (one IPC round trip per step).
  const workers = Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) throw new Error('--workers must be a whole number from 1 to 64');
  if (!Number.isInteger(duration) || duration < 1) throw new Error('--duration must be a whole number of seconds (1 or more)');
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a whole number (1 or more)');
  return { duration, rounds, workers };
}

/** The rate-limit headers of one list answer, checked against the certificate. */
function limitHeaders(url: string, key: string, ca: string): Promise<{ status: number; limit?: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, headers: { authorization: `Bearer ${key}` }, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, limit: res.headers['x-ratelimit-limit'] as string | undefined }));
      })
      .on('error', reject);
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const { duration, rounds, workers } = options();
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `cms-bench-${randomBytes(6).toString('hex')}:`;
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect().catch((error: unknown) => {
    throw new Error(`Redis at ${redisUrl} does not answer (${String(error)}); the Redis setting needs it`);
  });
  console.log('Building (npm run build)...');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-bench-limits-'));
  try {
    const env = cleanEnv({ DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', WORKERS: String(workers) });
    // Limits far above what the benchmark sends, so no measured request is a 429.
    const account = await createAccount(env, 'bench-limits@example.com');
    await seedContent(path.join(dataDir, 'cms.sqlite'), account, 10_000);
    const list = productScenarios([]).find((s) => s.name === 'list')!;
    const extra: Record<Setting, Record<string, string>> = {
      off: { RATE_LIMITS: 'off' },
      memory: {},
      redis: { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix },
    };

    const results: Record<Setting, Measurement[]> = { off: [], memory: [], redis: [] };
    console.log(`List on 10,000 items, WORKERS=${workers}, ${rounds} round(s) of off → memory${workers > 1 ? ' (in the primary)' : ''} → Redis, ${duration} s each after warm-up (1-min load ${os.loadavg()[0]!.toFixed(2)}):`);
    for (let round = 1; round <= rounds; round++) {
      for (const setting of SETTINGS) {
        const port = await freePort();
        const url = `https://127.0.0.1:${port}`;
        const child = startChild(`product (${setting})`, productArgs(), { ...env, ...extra[setting], PORT: String(port) });
        const sampler = new RssSampler(child.pid);
        try {
          await waitUntilReady(child, `${url}/readyz`);
          const ca = await fs.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8');
          const probe = await limitHeaders(`${url}/v1/content?limit=10`, account.key, ca);
          if (probe.status !== 200 || (setting === 'off') !== (probe.limit === undefined)) {
            throw new Error(`${setting}: list answered ${probe.status} with X-RateLimit-Limit ${probe.limit ?? 'absent'}`);
          }
          const m = await measure(list, 'product', { url, pid: child.pid, key: account.key, ca, sampler, duration });
          if (m.failures > 0) throw new Error(`${setting}: ${m.failures} non-2xx answers or errors`);
          results[setting].push(m);
          console.log(`  round ${round} ${setting.padEnd(6)} ${Math.round(m.rps).toString().padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  CPU ${m.cpuMsPerRequest.toFixed(3)} ms/req`);
        } finally {
          sampler.stop();
          await child.stop();
        }
        // A Redis run that quietly failed open would measure memory: make sure Redis did count.
        if (setting === 'redis' && (await redis.keys(`${prefix}*`)).length === 0) throw new Error('the Redis run left no counters in Redis');
      }
    }

    const off = median(results.off.map((m) => m.rps));
    console.log('\n| setting | median req/s | overhead vs off | median CPU ms/req | target | result |');
    console.log('|---|---:|---:|---:|---|---|');
    for (const setting of SETTINGS) {
      const rps = median(results[setting].map((m) => m.rps));
      const cpu = median(results[setting].map((m) => m.cpuMsPerRequest));
      const overhead = 1 - rps / off;
      const target = setting === 'off' ? undefined : TARGET[setting];
      const verdict = target === undefined ? '' : overhead <= target ? 'PASS' : 'MISS';
      console.log(`| ${setting} | ${Math.round(rps)} | ${setting === 'off' ? '—' : `${(overhead * 100).toFixed(1)} %`} | ${cpu.toFixed(3)} | ${target === undefined ? '—' : `≤ ${target * 100} %`} | ${verdict} |`);
    }
  } finally {
    const keys = await redis.keys(`${prefix}*`).catch(() => []);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench limits: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
