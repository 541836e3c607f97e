// `npm run bench [-- --peer] [-- --duration N]`: every benchmark in order, each as its own process.
// The flags given go to the first step (bench/run.ts, the core load test) only: npm appends them to
// the script's command, and in a `&&` chain that would be the last step.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './processes.js';

const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');

const STEPS: string[][] = [
  ['bench/run.ts', ...process.argv.slice(2)],
  ['bench/auth-cost.ts'],
  ['bench/oauth.ts', '--no-build'],
  ['bench/limits.ts'],
  ['bench/webhooks.ts'],
  ['bench/scheduler.ts', '--no-build'],
  ['bench/realtime.ts'],
  ['bench/realtime.ts', '--tls', 'off', '--no-build'],
  ['bench/scale.ts', '--no-build'],
  ['bench/bulk.ts'],
  ['bench/import.ts', '--no-build'],
  ['bench/media.ts'],
];

for (const step of STEPS) {
  console.log(`\n=== tsx ${step.join(' ')}`);
  const { status, signal } = spawnSync(TSX, step, { cwd: REPO_ROOT, stdio: 'inherit' });
  if (status !== 0) {
    console.error(`bench: ${step[0]} ${signal ? `was ended by ${signal}` : `exited with ${status}`}; the remaining steps were not run.`);
    process.exit(status ?? 1);
  }
}
