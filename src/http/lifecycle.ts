// Tracks requests in flight and whether the server is shutting down, so SIGTERM can let running
// requests finish while new ones get 503.
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
