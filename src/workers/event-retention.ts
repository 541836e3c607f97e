// Background pruning of the event log: events older than the retention period (7 days by
// default) are deleted in small batches, at start and then every hour, so no single statement
// holds the store for long.
import type { EventLog } from '../domain/events/event-log.js';
import type { Clock } from '../domain/ids.js';

const EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface Retention {
  /** Prunes now; resolves when done. */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

export function startEventRetention(events: EventLog, days: number, clock: Clock, onError: (error: unknown) => void): Retention {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    return (running = running
      .then(async () => {
        const before = new Date(clock().getTime() - days * DAY_MS).toISOString();
        while (!stopped && (await events.prune(before, 1000)) === 1000);
      })
      .catch(onError));
  };
  void run();
  const timer = setInterval(() => void run(), EVERY_MS);
  timer.unref();
  return {
    runNow: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
