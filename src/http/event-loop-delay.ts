// The event loop's delay as a Prometheus histogram (cms_event_loop_delay_seconds), measured by
// perf_hooks.monitorEventLoopDelay in this process. At each scrape the samples taken since the
// last one are moved into the histogram: each percentile step of the monitor's own histogram is
// observed at that step's upper value, so every sample lands in the bucket it belongs to (within
// the monitor's precision), and the monitor starts afresh. With WORKERS > 1 each worker samples
// its own loop and a scrape sums the workers' buckets.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Histogram, type Registry } from 'prom-client';

/** 1 ms .. 1 s: a loop held past 50 ms is what this is meant to show. */
export const EVENT_LOOP_DELAY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** Starts sampling; returns what stops it (on app close). */
export function registerEventLoopDelay(registry: Registry): () => void {
  const monitor = monitorEventLoopDelay({ resolution: 10 });
  monitor.enable();
  new Histogram({
    name: 'cms_event_loop_delay_seconds',
    help: 'How late the event loop ran a timer due every 10 ms (perf_hooks.monitorEventLoopDelay), per sample; a delay is how long something held the loop.',
    buckets: EVENT_LOOP_DELAY_BUCKETS,
    registers: [registry],
    collect() {
      const total = monitor.count;
      if (total === 0) return;
      let before = 0;
      for (const [percentile, nanoseconds] of [...monitor.percentiles.entries()].sort((a, b) => a[0] - b[0])) {
        const upTo = Math.round((total * percentile) / 100);
        for (; before < upTo; before++) this.observe(nanoseconds / 1e9);
      }
      monitor.reset();
    },
  });
  return () => monitor.disable();
}
