// What loading a library costs a process: each module imported in turn into a bare Node, with a full
// garbage collection before and after, printing the growth of the JS heap in use and of RSS. Order
// matters (a later module reuses what an earlier one loaded), so read the figures as sizes.
//
//   node --expose-gc bench/module-cost.mjs fastify kysely oidc-provider pg ioredis nodemailer ...
/* global console, process */
const gc = globalThis.gc;
if (!gc) throw new Error('run with node --expose-gc');
const measure = () => {
  gc();
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
};
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1).padStart(5);
const start = measure();
let previous = start;
for (const name of process.argv.slice(2)) {
  await import(name);
  const now = measure();
  console.log(`${name.padEnd(28)} heap +${mb(now.heapUsed - previous.heapUsed)} MB   RSS +${mb(now.rss - previous.rss)} MB`);
  previous = now;
}
console.log(`${'all'.padEnd(28)} heap +${mb(previous.heapUsed - start.heapUsed)} MB   RSS +${mb(previous.rss - start.rss)} MB`);
