// Runs one app until SIGTERM or SIGINT (or, in a cluster worker, until the primary is gone), then
// shuts it down gracefully and exits 0 — or 1 when shutting down failed.
import cluster from 'node:cluster';
import { createApp, type App, type AppOptions } from './app.js';
import { publicUrlOf, type Config } from './config.js';

export async function serve(config: Config, options: AppOptions = {}, fields: Record<string, unknown> = {}): Promise<{ app: App; baseUrl: string }> {
  const app = await createApp(config, options);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.http.log.info({ signal, ...fields }, 'shutting down');
    app.shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // A cluster worker whose primary is gone (killed outright) drains and exits rather than serve on alone.
  if (cluster.isWorker) process.on('disconnect', () => stop('primary gone'));

  const listener = await app.listen();
  const baseUrl = publicUrlOf(config, listener.address.port);
  app.http.log.info({ base_url: baseUrl, store: config.store.kind, ...fields }, 'listening');
  return { app, baseUrl };
}
