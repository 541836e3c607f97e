// A cluster worker: the whole server (app, listener, background workers) on the port the primary
// shares, with a Coordinator to the primary for event wake-ups, cache invalidations, rate-limit
// counters and metrics. Migrations and the first-start bootstrap were run by the start-up process.
// On SQLite, worker 1 is the one writer: the others hand it every request that may write over a
// local socket (src/http/write-forwarding.ts, docs/cluster.md "One writer").
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config.js';
import { serve } from '../serve.js';
import { Coordinator } from '../cluster/coordinator.js';
import { ipcLink } from '../cluster/links.js';

/** The writer's local socket: one per primary (its pid), in the temporary directory (socket paths are short). */
export function writerSocketPath(primaryPid: number): string {
  return path.join(os.tmpdir(), `cms-writer-${primaryPid}.sock`);
}

export async function runWorker(config: Config): Promise<void> {
  const slot = Number(process.env.CMS_WORKER_SLOT ?? '1');
  const writer =
    config.store.kind === 'sqlite' && config.sqliteWriter === 'one'
      ? { role: slot === 1 ? ('writer' as const) : ('forwarder' as const), socketPath: writerSocketPath(process.ppid) }
      : undefined;
  await serve(config, { coordinator: new Coordinator(ipcLink(), slot), writer }, { worker: slot, ...(writer ? { role: writer.role } : {}) });
}
