// The event-loop delay a benchmark run caused, read from the product's /metrics
// (cms_event_loop_delay_seconds, summed over workers): scrape before and after a scenario, and the
// difference of the two histograms gives the run's own samples.
import https from 'node:https';

/** Cumulative bucket counts by upper bound (seconds; Infinity for +Inf). */
export type Buckets = Map<number, number>;

export function scrapeLoopDelay(url: string, ca: string): Promise<Buckets> {
  return new Promise((resolve, reject) => {
    https
      .get(`${url}/metrics`, { ca }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const buckets: Buckets = new Map();
          for (const match of text.matchAll(/^cms_event_loop_delay_seconds_bucket\{le="([^"]+)"\} (\d+)/gm)) {
            buckets.set(match[1] === '+Inf' ? Infinity : Number(match[1]), Number(match[2]));
          }
          resolve(buckets);
        });
      })
      .on('error', reject);
  });
}

/** The bucket bound (ms) at or under which 99 % of the samples taken between the two scrapes fell; Infinity past the last bucket; 0 with no samples. */
export function loopDelayP99(before: Buckets, after: Buckets): number {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
  if (total <= 0) return 0;
  for (const bound of bounds) {
    if ((after.get(bound) ?? 0) - (before.get(bound) ?? 0) >= total * 0.99) return bound * 1000;
  }
  return Infinity;
}

export const formatBound = (ms: number) => (ms === Infinity ? '> 1000' : `≤ ${ms}`);
