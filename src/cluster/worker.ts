// A cluster worker: the whole server (app, listener, background workers) on the port the primary
// shares, with a Coordinator to the primary for event wake-ups, cache invalidations, rate-limit
// counters and metrics. Migrations and the first-start bootstrap were run by the primary.
import type { Config } from '../config.js';
import { serve } from '../serve.js';
import { Coordinator } from './coordinator.js';
import { ipcLink } from './links.js';

export async function runWorker(config: Config): Promise<void> {
  const slot = Number(process.env.CMS_WORKER_SLOT ?? '1');
  await serve(config, { coordinator: new Coordinator(ipcLink(), slot) }, { worker: slot });
}
