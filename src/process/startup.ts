// The start-up process (WORKERS > 1): forked once by the primary before any worker, it applies the
// migrations, runs the first-start bootstrap and makes the self-signed certificate when there is
// none, tells the primary what the bootstrap created (for the banner), and exits. The primary itself
// never loads the store, the domain services or the HTTP stack, so it stays small for the service's
// whole life (docs/cluster.md "Memory").
import type { Bootstrapped } from '../banner.js';
import type { Config } from '../config.js';
import { loadCertificate } from '../http/certificate.js';
import { openServices } from '../services.js';

export interface StartupDone {
  cms: 'started-up';
  created: Bootstrapped | null;
}

export async function runStartup(config: Config): Promise<void> {
  const services = await openServices(config);
  let created: Bootstrapped | undefined;
  try {
    created = await services.accounts.bootstrap(config.bootstrap.plan, config.bootstrap.email);
  } finally {
    await services.close();
  }
  // Made once, here: workers making their own at once would each serve a different one.
  if (config.tls.mode === 'on') await loadCertificate(config.tls, config.dataDir);
  const done: StartupDone = { cms: 'started-up', created: created ?? null };
  await new Promise<void>((resolve, reject) => process.send!(done, undefined, {}, (error) => (error ? reject(error) : resolve())));
  process.exit(0);
}
