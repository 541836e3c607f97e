#!/usr/bin/env node
// Start: config → (WORKERS > 1: the cluster primary, which forks the workers) → createApp → listen →
// bootstrap on an empty store → graceful close on SIGTERM.
import cluster from 'node:cluster';
import { printBanner } from './banner.js';
import { ConfigError, loadConfig } from './config.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  // Loaded on demand: the primary never loads the store, the services or the HTTP stack (Fastify, the
  // OAuth provider, the dashboard); its start-up process (CMS_STARTUP) does the migrations and bootstrap.
  if (cluster.isWorker && process.env.CMS_STARTUP === '1') return (await import('./process/startup.js')).runStartup(config);
  if (cluster.isWorker) return (await import('./process/worker.js')).runWorker(config);
  if (config.workers > 1) return (await import('./process/primary.js')).runPrimary(config);

  // WORKERS=1: the whole server in this one process.
  const { serve } = await import('./serve.js');
  const { app, baseUrl } = await serve(config);
  const created = await app.accounts.bootstrap(config.bootstrap.plan, config.bootstrap.email);
  if (created) printBanner(config, baseUrl, created);
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
