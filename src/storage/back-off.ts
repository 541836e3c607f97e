// How long to wait before trying a lost connection again: doubling from a first wait up to a ceiling,
// with jitter so that instances cut off together do not all come back in the same millisecond.

export class BackOff {
  private failures = 0;

  constructor(
    private readonly firstMs = 100,
    private readonly maxMs = 1000,
  ) {}

  /** True after a failure, until reset(). */
  get failing(): boolean {
    return this.failures > 0;
  }

  /** Counts a failure; returns the wait before the next try (±20 %). */
  next(): number {
    const base = Math.min(this.maxMs, this.firstMs * 2 ** this.failures++);
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  reset(): void {
    this.failures = 0;
  }
}
