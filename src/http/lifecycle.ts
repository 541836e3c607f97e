// Tracks requests in flight and whether the server is shutting down, so SIGTERM can let running
// requests finish while new ones get 503.
import type { Listener } from './transport.js';

/**
 * How long connections kept alive may still bring a request once shutdown has begun: it is answered
 * 503 with `Connection: close`, which ends the connection cleanly. Closing them at once instead
 * resets the requests already on their way (a client cannot know its idle connection is going).
 */
export const KEEP_ALIVE_LINGER_MS = 1000;
export class Lifecycle {
  closing = false;
  inFlight = 0;
  private idle: (() => void)[] = [];

  /** Counts a request in; returns the function that counts it out (safe to call more than once). */
  begin(): () => void {
    this.inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight--;
      if (this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
    };
  }

  /** Resolves when no request is in flight, or after `ms`; true when it drained in time. */
  drained(ms: number): Promise<boolean> {
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

/**
 * The connections' part of a graceful shutdown: stop accepting; let kept-alive connections bring
 * their last request for up to KEEP_ALIVE_LINGER_MS (or until they have all gone), then close the
 * idle ones; let requests in flight finish for up to `graceMs`; then close whatever is left.
 */
export async function closeConnections(listener: Listener, lifecycle: Lifecycle, graceMs: number): Promise<void> {
  void listener.stopAccepting();
  const lingered = listener.allClosed(Math.min(KEEP_ALIVE_LINGER_MS, graceMs)).then(() => listener.closeIdle());
  await Promise.all([lifecycle.drained(graceMs), lingered]);
  listener.closeAll();
}
