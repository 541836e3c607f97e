// What OAuth costs (issue 12): GET /v1/content?limit=10 on the 10,000-item account with an OAuth
// access token against the same request with an API key (target: the token ≤ 5 % slower), and the
// token endpoint's throughput for client credentials (each answer stores one hashed token). Rounds
// interleave key and token on one server, alternating which goes first, so drift on the machine hits
// both alike; the figure per credential is its median round.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cleanEnv, freePort, httpsRequest, REPO_ROOT, RssSampler, startChild, waitUntilReady, productArgs } from './processes.js';
import { measure, productScenarios, type Measurement, type Scenario } from './scenarios.js';
import { createAccount, seedContent } from './seed.js';

const TARGET = 0.05;

function options() {
  const { values } = parseArgs({
    options: { duration: { type: 'string', default: '10' }, rounds: { type: 'string', default: '3' }, 'no-build': { type: 'boolean', default: false } },
    strict: true,
  });
  const duration = Number(values.duration);
  const rounds = Number(values.rounds);
  if (!Number.isInteger(duration) || duration < 1) throw new Error('--duration must be a whole number of seconds (1 or more)');
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a whole number (1 or more)');
  return { duration, rounds, build: !values['no-build'] };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A JSON or form request to the server, checked against its certificate; throws unless it answers `expected`. */
async function call(url: string, ca: string, expected: number, init: { method: string; headers: Record<string, string>; body: string }) {
  const res = await httpsRequest(url, { ca, ...init, headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) } });
  if (res.status !== expected) throw new Error(`${init.method} ${url} answered ${res.status}: ${res.body}`);
  return JSON.parse(res.body) as Record<string, unknown>;
}

async function main(): Promise<void> {
  const { duration, rounds, build } = options();
  if (build) {
    console.log('Building (npm run build)...');
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-bench-oauth-'));
  const port = await freePort();
  const url = `https://127.0.0.1:${port}`;
  const env = cleanEnv({ DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', PORT: String(port) });
  let stop = async () => {};
  try {
    const account = await createAccount(env, 'bench-oauth@example.com');
    await seedContent(path.join(dataDir, 'cms.sqlite'), account, 10_000);
    const child = startChild('product', productArgs(), env);
    const sampler = new RssSampler(child.pid);
    stop = async () => {
      sampler.stop();
      await child.stop();
    };
    await waitUntilReady(child, `${url}/readyz`);
    const ca = await fs.readFile(path.join(dataDir, 'tls-cert.pem'), 'utf8');

    // An app of the account, and a client-credentials token acting as its owner (valid for an hour).
    const app = (await call(`${url}/v1/oauth/apps`, ca, 201, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Benchmark', redirect_uris: ['https://bench.example/cb'] }),
    })).data as { id: string; client_secret: string };
    const basic = `Basic ${Buffer.from(`${app.id}:${app.client_secret}`).toString('base64')}`;
    const form = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' };
    const token = (await call(`${url}/oauth/token`, ca, 200, { method: 'POST', headers: form, body: 'grant_type=client_credentials&scope=content:read' }))
      .access_token as string;

    const list = productScenarios([]).find((s) => s.name === 'list')!;
    const credentials = { key: account.key, token };
    const results: Record<keyof typeof credentials, Measurement[]> = { key: [], token: [] };
    // One unrecorded pass of each first: the first minutes of a fresh process (JIT, caches) would weigh on round 1 alone.
    for (const credential of [account.key, token]) await measure(list, 'product', { url, pid: child.pid, key: credential, ca, sampler, duration: 2 });
    console.log(`List on 10,000 items, ${rounds} round(s) of API key and OAuth token (order alternating), ${duration} s each after warm-up:`);
    for (let round = 1; round <= rounds; round++) {
      const order: (keyof typeof credentials)[] = round % 2 === 1 ? ['key', 'token'] : ['token', 'key'];
      for (const kind of order) {
        const m = await measure(list, 'product', { url, pid: child.pid, key: credentials[kind], ca, sampler, duration });
        if (m.failures > 0) throw new Error(`${kind}: ${m.failures} non-2xx answers or errors`);
        results[kind].push(m);
        console.log(`  round ${round} ${kind.padEnd(5)} ${Math.round(m.rps).toString().padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  CPU ${m.cpuMsPerRequest.toFixed(3)} ms/req`);
      }
    }

    const endpoint: Scenario = {
      name: 'token endpoint',
      request: 'POST /oauth/token grant_type=client_credentials',
      requests: [{ method: 'POST', path: '/oauth/token', headers: form, body: 'grant_type=client_credentials&scope=content:read' }],
    };
    const issued = await measure(endpoint, 'product', { url, pid: child.pid, ca, sampler, duration });
    if (issued.failures > 0) throw new Error(`token endpoint: ${issued.failures} non-2xx answers or errors`);

    const keyRps = median(results.key.map((m) => m.rps));
    const tokenRps = median(results.token.map((m) => m.rps));
    const keyCpu = median(results.key.map((m) => m.cpuMsPerRequest));
    const tokenCpu = median(results.token.map((m) => m.cpuMsPerRequest));
    const slower = 1 - tokenRps / keyRps;
    console.log('\n| credential | median req/s | median CPU ms/req | token vs key | target | result |');
    console.log('|---|---:|---:|---:|---|---|');
    console.log(`| API key | ${Math.round(keyRps)} | ${keyCpu.toFixed(3)} | — | — | |`);
    console.log(
      `| OAuth access token | ${Math.round(tokenRps)} | ${tokenCpu.toFixed(3)} | ${Math.abs(slower * 100).toFixed(1)} % ${slower >= 0 ? 'slower' : 'faster'} (CPU ${tokenCpu >= keyCpu ? '+' : ''}${(((tokenCpu / keyCpu) - 1) * 100).toFixed(1)} %) | ≤ ${TARGET * 100} % | ${slower <= TARGET ? 'PASS' : 'MISS'} |`,
    );
    console.log(
      `\nToken endpoint (client credentials, 50 connections, ${duration} s): ${Math.round(issued.rps)} tokens/s, p50 ${issued.p50} ms, p99 ${issued.p99} ms, CPU ${issued.cpuMsPerRequest.toFixed(3)} ms/token (${issued.total} issued).`,
    );
  } finally {
    await stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench oauth: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
