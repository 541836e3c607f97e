// The cluster primary (WORKERS > 1): applies migrations and the first-start bootstrap once, forks
// WORKERS server processes that share the port (node:cluster hands connections out in turn), runs
// the hub they coordinate through, replaces a worker that dies (with back-off), and on SIGTERM lets
// every worker drain as a single process would, then exits 0.
import cluster, { type Worker } from 'node:cluster';
import { pino } from 'pino';
import { printBanner, type Bootstrapped } from '../banner.js';
import { publicUrlOf, type Config } from '../config.js';
import { Hub } from '../cluster/hub.js';
import { attachWorker } from '../cluster/links.js';
import { closeUnacknowledgedHandoffs } from './handoffs.js';
import type { StartupDone } from './startup.js';

/** A worker that lived this long before dying starts its back-off afresh. */
const STABLE_MS = 30_000;
const MAX_BACK_OFF_MS = 10_000;

interface Slot {
  worker: Worker;
  startedAt: number;
  /** Deaths in a row without a stable run, for the back-off. */
  failures: number;
  listening: boolean;
}

export async function runPrimary(config: Config): Promise<void> {
  const log = pino({ level: config.logLevel });
  // Once, before any worker exists, in a process of its own: workers never race to migrate or to
  // bootstrap, and the primary never loads the store, the services or the HTTP stack.
  const started = await startUp();
  if (started === 'failed') {
    log.error('the start-up process failed (migrations, bootstrap or certificate); stopping');
    process.exit(1);
  }
  let created: Bootstrapped | null = started;

  const hub = new Hub();
  const slots = new Map<number, Slot>();
  const restarts = new Set<NodeJS.Timeout>();
  let stopping = false;
  let everListened = false;
  let failedExit = false;

  const fork = (slot: number, failures: number) => {
    const worker = cluster.fork({ CMS_WORKER_SLOT: String(slot) });
    const state: Slot = { worker, startedAt: Date.now(), failures, listening: false };
    slots.set(slot, state);
    attachWorker(hub, worker, slot);
    closeUnacknowledgedHandoffs(worker);
    worker.once('listening', (address) => {
      state.listening = true;
      const baseUrl = publicUrlOf(config, address.port);
      if (!everListened) {
        everListened = true;
        if (created) printBanner(config, baseUrl, created);
        created = null;
      }
      if ([...slots.values()].every((s) => s.listening)) {
        log.info({ base_url: baseUrl, workers: slots.size, store: config.store.kind }, 'all workers listening');
      }
    });
    worker.once('exit', (code, signal) => exited(slot, state, code, signal));
  };

  const exited = (slot: number, state: Slot, code: number | null, signal: string | null) => {
    if (slots.get(slot) === state) slots.delete(slot);
    if (stopping) {
      if (code !== 0) failedExit = true;
      if (slots.size === 0) process.exit(failedExit ? 1 : 0);
      return;
    }
    if (!everListened) {
      // Not one worker came up (the port is taken, the store refuses): the worker said why on stderr.
      log.error({ worker: slot, code, signal }, 'a worker failed to start; stopping');
      stop('start-up failure', 1);
      return;
    }
    const failures = Date.now() - state.startedAt >= STABLE_MS ? 0 : state.failures + 1;
    const delay = Math.min(100 * 2 ** failures, MAX_BACK_OFF_MS);
    log.warn({ worker: slot, pid: state.worker.process.pid, code, signal, restart_in_ms: delay }, 'a worker exited unexpectedly; starting a new one');
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) fork(slot, failures);
    }, delay);
    restarts.add(timer);
  };

  const stop = (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    if (exitCode !== 0) failedExit = true;
    log.info({ signal, workers: slots.size }, 'shutting down');
    for (const timer of restarts) clearTimeout(timer);
    if (slots.size === 0) process.exit(failedExit ? 1 : 0);
    // Each worker drains as a single process does: requests in flight finish, kept-alive
    // connections are answered 503 and closed, WebSockets are told to go.
    for (const { worker } of slots.values()) worker.process.kill('SIGTERM');
    // A worker that hangs past its grace period is killed, and the exit says so.
    setTimeout(() => {
      for (const { worker } of slots.values()) worker.process.kill('SIGKILL');
    }, (config.shutdownGraceSeconds + 15) * 1000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  for (let slot = 1; slot <= config.workers; slot++) fork(slot, 0);
}

/** Forks the start-up process (src/process/startup.ts) and waits for it: what it created, or 'failed'. */
function startUp(): Promise<Bootstrapped | null | 'failed'> {
  return new Promise((resolve) => {
    const child = cluster.fork({ CMS_STARTUP: '1' });
    let created: Bootstrapped | null | 'failed' = 'failed';
    child.on('message', (message: unknown) => {
      if ((message as StartupDone | undefined)?.cms === 'started-up') created = (message as StartupDone).created;
    });
    // Its own `Start-up failed: …` line on stderr says why, when it fails.
    child.once('exit', (code) => resolve(code === 0 ? created : 'failed'));
  });
}
