// Benchmark child processes: start on loopback, wait for readiness, sample RSS/CPU, stop by PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  readonly pid: number;
  /** The last few KiB the child wrote to stderr, for error messages. */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * The product server's arguments exactly as `npm start` runs it (its Node flags included), read from
 * package.json so that the benchmark can never measure a differently tuned process.
 */
export function productArgs(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  const match = /\bnode((?: --[\w-]+(?:=\S+)?)*) dist\/main\.js\b/.exec(pkg.scripts.start);
  if (!match) throw new Error(`cannot find "node … dist/main.js" in the start script: ${pkg.scripts.start}`);
  return [...match[1]!.trim().split(/\s+/).filter(Boolean), 'dist/main.js'];
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Only PATH from our environment, so no DATABASE_URL, TLS_* or the like leaks into a child. WORKERS
 * is always explicit (1 unless `vars` says otherwise): its default is the number of cores, which
 * would make a figure depend on the machine rather than on the command.
 */
export function cleanEnv(vars: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', WORKERS: '1', ...vars };
}

/** `pid` and its direct children (a WORKERS > 1 product's cluster workers), as alive now. */
export function processTree(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 (ppid), counted after the command name in parentheses.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return [pid, ...children];
}

export function startChild(name: string, args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (child.pid === undefined) throw new Error(`${name}: could not start`);
  let stderr = '';
  child.once('error', (error) => (stderr += `\n${error.message}`));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4096);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pid = child.pid;
  return {
    name,
    process: child,
    pid,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** GETs an HTTPS URL; without `ca` the certificate is not checked (used only to poll for readiness). */
export function httpsGet(url: string, options: { ca?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: string }> {
  return httpsRequest(url, options);
}

/** One HTTPS request (GET unless `method` says otherwise) with an optional body. */
export function httpsRequest(
  url: string,
  options: { ca?: string; headers?: Record<string, string>; method?: string; body?: string; timeoutMs?: number } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const tls = options.ca ? { ca: options.ca } : { rejectUnauthorized: false };
    const req = https.request(url, { ...tls, method: options.method ?? 'GET', headers: options.headers, agent: false, timeout: options.timeoutMs ?? 5000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Polls `url` until it answers 200; fails early if the child exits. */
export async function waitUntilReady(child: Child, url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.process.exitCode !== null) throw new Error(`${child.name} exited with code ${child.process.exitCode}: ${child.stderr()}`);
    try {
      if ((await httpsGet(url)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${child.name} did not answer ${url} within ${timeoutMs} ms: ${child.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The process's resident set size now, in bytes. */
export function rssBytes(pid: number): number {
  return statusField(pid, 'VmRSS');
}

/** Each process of the tree (the primary first, then its workers) with its resident set now and its peak, in bytes. */
export function perProcessRss(pid: number): { pid: number; rss: number; hwm: number }[] {
  return processTree(pid).flatMap((p) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
      return [{ pid: p, rss: field('VmRSS'), hwm: field('VmHWM') }];
    } catch {
      return [];
    }
  });
}

/** The field summed over the process and its children (a cluster's workers); the parent must be alive. */
function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  let sum = 0;
  for (const p of processTree(pid)) {
    let status: string;
    try {
      status = readFileSync(`/proc/${p}/status`, 'utf8');
    } catch (error) {
      if (p === pid) throw error;
      continue;
    }
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    sum += match ? Number(match[1]) * 1024 : 0;
  }
  return sum;
}

/**
 * CPU time (user + system) the process and its live children (a WORKERS > 1 product's workers) have
 * used so far, in milliseconds (Linux clock ticks are 10 ms). A child that exits between two readings
 * takes its time with it: compare readings over a period in which no worker dies.
 */
export function cpuTimeMs(pid: number): number {
  let sum = 0;
  for (const p of processTree(pid)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${p}/stat`, 'utf8');
    } catch (error) {
      if (p === pid) throw error;
      continue;
    }
    // Fields 14 and 15 of /proc/<pid>/stat, counted after the command name in parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    sum += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return sum;
}

/** Samples a process's resident set size every 100 ms; `peak()` is the largest sample since `reset()`. */
export class RssSampler {
  private max = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), 100);
    this.sample();
  }

  private sample(): void {
    try {
      this.max = Math.max(this.max, statusField(this.pid, 'VmRSS'));
    } catch {
      // The process has gone; keep what we have.
    }
  }

  reset(): void {
    this.max = 0;
    this.sample();
  }

  peak(): number {
    this.sample();
    return this.max;
  }

  /** The kernel's own high-water mark of RSS since the process started (catches peaks between samples). */
  highWaterMark(): number {
    try {
      return statusField(this.pid, 'VmHWM');
    } catch {
      return 0;
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/**
 * A PostgreSQL database of a benchmark run's own (`<prefix>_<random>`), made beside
 * BENCH_DATABASE_URL's (default: the local server's `postgres` database); `drop` removes it.
 */
export async function benchDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = `${prefix}_${randomBytes(4).toString('hex')}`;
  const adminQuery = async (text: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await adminQuery(`CREATE DATABASE ${database}`);
  const url = new URL(admin);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch((e: unknown) => console.error('cleanup:', e)),
  };
}
