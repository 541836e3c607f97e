// Runs the real server (src/main.ts) and the `cms` command (src/cli/main.ts) as child processes,
// for tests of start-up, configuration errors, signals and the CLI. Children are killed by PID.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from './client.js';
import { createPostgresDatabase, type StoreKind } from './stores.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const running = new Set<ChildProcess>();

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Child {
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout; rejects on exit or after `timeoutMs`. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves when the process has exited (and its output has been read). */
  exited: Promise<Finished>;
  signal(name: NodeJS.Signals): void;
  /** SIGKILL, when still running. */
  kill(): void;
}

/**
 * A minimal environment, so the runner's own PORT or DATABASE_URL never leaks into a child. One
 * process (WORKERS=1) unless a test asks for more: these tests read one process's log lines, kill
 * "the" server with SIGKILL, or count what one process does (test/cluster.test.ts runs WORKERS=2).
 */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME ?? os.tmpdir(), HOST: '127.0.0.1', LOG_LEVEL: 'info', WORKERS: '1', ...extra };
}

export function spawnTs(script: 'src/main.ts' | 'src/cli/main.ts', args: string[], env: Record<string, string>, input?: string): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: childEnv(env), stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  if (input !== undefined) child.stdin!.end(input);
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<Finished>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return {
    pid: child.pid!,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    signal: (name) => process.kill(child.pid!, name),
    kill: () => killChild(child),
    waitForStdout(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(stdout);
          if (!match) return false;
          done();
          resolve(match);
          return true;
        };
        const onExit = () => check() || (done(), reject(new Error(`exited before ${pattern}; stderr: ${stderr}`)));
        const timer = setTimeout(() => (done(), reject(new Error(`no ${pattern} within ${timeoutMs} ms; stdout: ${stdout}`))), timeoutMs);
        const done = () => {
          clearTimeout(timer);
          child.stdout!.off('data', check);
          child.off('close', onExit);
        };
        if (check()) return;
        child.stdout!.on('data', check);
        child.once('close', onExit);
      });
    },
  };
}

function killChild(child: ChildProcess): void {
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
}

/** SIGKILL (no shutdown, no flush, nothing given back) and waits for the exit; fails unless that killed it. */
export async function killHard(child: Child): Promise<void> {
  child.kill();
  const finished = await exitOf(child);
  if (finished.signal !== 'SIGKILL') throw new Error(`pid ${child.pid} exited with ${finished.code ?? finished.signal}, not by SIGKILL`);
}

/** Kills every child still running, by PID; for `after` hooks. */
export function killChildren(): void {
  for (const child of running) killChild(child);
}

/** Waits for a process to exit, failing after `timeoutMs`. */
export async function exitOf(child: Child, timeoutMs = 15_000): Promise<Finished> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`pid ${child.pid} still running after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([child.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `cms <args>` to completion; `json` is stdout parsed, when it parses. */
/** Runs the `cms` command; `input` is piped to its standard input (otherwise it has none). */
export async function runCli(args: string[], env: Record<string, string>, input?: string, timeoutMs = 30_000): Promise<Finished & { json: unknown }> {
  const result = await exitOf(spawnTs('src/cli/main.ts', args, env, input), timeoutMs);
  let json: unknown;
  try {
    json = JSON.parse(result.stdout);
  } catch {
    json = undefined;
  }
  return { ...result, json };
}

export interface ServerProcess extends Child {
  port: number;
  baseUrl: string;
  /** Its DATA_DIR, which holds its certificate. */
  dataDir: string;
  /** An HTTPS client that trusts the certificate in DATA_DIR. */
  client: Client;
  /** Sends SIGTERM and waits for the exit. */
  stop(): Promise<Finished>;
}

/** Starts src/main.ts on a free port and waits for its "listening" log line. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawnTs('src/main.ts', [], { PORT: '0', ...env });
  try {
    // Several workers (a start-up process, then a primary's forks, each loading the code) take longer on a busy machine: 30–35 s at load 17.
    const [line] = await child.waitForStdout(/^\{.*"msg":"listening".*\}$/m, Number(env.WORKERS ?? '1') > 1 ? 90_000 : 60_000);
    const baseUrl = (JSON.parse(line) as { base_url: string }).base_url;
    const ca = await fs.readFile(path.join(env.DATA_DIR!, 'tls-cert.pem'), 'utf8');
    const client = new Client(baseUrl, ca);
    return {
      ...child,
      port: Number(new URL(baseUrl).port),
      baseUrl,
      dataDir: env.DATA_DIR!,
      client,
      async stop() {
        client.close();
        child.signal('SIGTERM');
        return exitOf(child);
      },
    };
  } catch (error) {
    child.kill();
    throw error;
  }
}

/** A fresh DATA_DIR, plus a fresh PostgreSQL database for `postgres`; `cleanup` removes both. */
export async function storeEnv(store: StoreKind): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-proc-'));
  const pg = store === 'postgres' ? await createPostgresDatabase() : undefined;
  return {
    env: { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) },
    async cleanup() {
      await pg?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Processes {
  /** DATA_DIR (and DATABASE_URL on PostgreSQL) of the scenario's own store. */
  env: Record<string, string>;
  /** Starts the server; on the first start of the store, also returns the API key it printed. */
  start(env: Record<string, string>, first?: boolean): Promise<{ server: ServerProcess; key: string }>;
}

/** Runs `work` on a fresh store with a way to start server processes, each killed (by PID) and the store removed afterwards. */
export async function withServerProcesses(store: StoreKind, work: (processes: Processes) => Promise<void>): Promise<void> {
  const stored = await storeEnv(store);
  const servers: ServerProcess[] = [];
  try {
    await work({
      env: stored.env,
      async start(env, first = false) {
        const server = await startServerProcess(env);
        servers.push(server);
        const key = first ? (await server.waitForStdout(/API key: +(cms_live_\w+)/))[1]! : '';
        return { server, key };
      },
    });
  } finally {
    for (const server of servers) {
      server.client.close();
      server.kill();
      await exitOf(server).catch(() => {});
    }
    await stored.cleanup();
  }
}
