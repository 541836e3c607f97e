// What the shared rate-limit counters of WORKERS > 1 (no Redis) cost per step: a cluster primary
// running the Hub and one worker sending `hit` steps through its Coordinator over the real IPC
// channel, `--in-flight` at a time (as that many connections would), against the same steps on a
// MemoryRateStore in the worker itself. Prints CPU µs per step of the worker and of the primary
// (process.cpuUsage), the wall time, and the 1-minute load average.
//   npx tsx bench/coordinator.ts [--steps 20000] [--in-flight 50]
import cluster from 'node:cluster';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Coordinator } from '../src/cluster/coordinator.js';
import { CoordinatedRateStore } from '../src/storage/coordinated-rate-store.js';
import { Hub } from '../src/cluster/hub.js';
import { attachWorker, ipcLink } from '../src/cluster/links.js';
import { MemoryRateStore, type RateStore } from '../src/storage/rate-store.js';

const { values } = parseArgs({ options: { steps: { type: 'string', default: '20000' }, 'in-flight': { type: 'string', default: '50' } }, strict: true });
const steps = Number(values.steps);
const inFlight = Number(values['in-flight']);
const cpuUs = (usage: NodeJS.CpuUsage) => usage.user + usage.system;

/** `steps` hits on `store`, `inFlight` at a time, over 100 account windows; CPU µs and wall ms. */
async function run(store: RateStore): Promise<{ cpu: number; wall: number }> {
  const quota = { key: 'usage', quota: Number.MAX_SAFE_INTEGER, reserve: true };
  await store.seed(quota, 0, Date.now(), 3_600_000);
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < steps) {
        const i = next++;
        await store.hit(`hour:acct${i % 100}`, Date.now(), 3_600_000, Number.MAX_SAFE_INTEGER, quota);
      }
    }),
  );
  return { cpu: cpuUs(process.cpuUsage(cpu)), wall: performance.now() - started };
}

if (cluster.isPrimary) {
  const hub = new Hub();
  const worker = cluster.fork();
  attachWorker(hub, worker, 1);
  let primaryCpu: NodeJS.CpuUsage | undefined;
  worker.on('message', (message: { bench?: string; local?: { cpu: number; wall: number }; shared?: { cpu: number; wall: number } }) => {
    if (message.bench === 'start') primaryCpu = process.cpuUsage();
    if (message.bench !== 'done') return;
    const primary = cpuUs(process.cpuUsage(primaryCpu));
    const { local, shared } = message as { local: { cpu: number; wall: number }; shared: { cpu: number; wall: number } };
    console.log(`${steps} hit steps, ${inFlight} in flight, 1-minute load ${os.loadavg()[0]!.toFixed(2)} (2 cores; the primary and the worker share them):`);
    console.log(`  in the worker (MemoryRateStore):    ${(local.cpu / steps).toFixed(1)} µs CPU/step, ${Math.round(steps / (local.wall / 1000))} steps/s`);
    console.log(`  through the primary (IPC + Hub):    worker ${(shared.cpu / steps).toFixed(1)} + primary ${(primary / steps).toFixed(1)} = ${((shared.cpu + primary) / steps).toFixed(1)} µs CPU/step, ${Math.round(steps / (shared.wall / 1000))} steps/s`);
    worker.kill();
  });
} else {
  const local = await run(new MemoryRateStore());
  const coordinator = new Coordinator(ipcLink(), 1);
  const shared = new CoordinatedRateStore(coordinator);
  // Warm-up, then measure (the primary counts its CPU from "start").
  await run(shared);
  process.send!({ bench: 'start' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const measured = await run(shared);
  process.send!({ bench: 'done', local, shared: measured });
}
