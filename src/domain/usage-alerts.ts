// `api_key.usage_alert` events (CONTRACT.md §9, §10): at 80 % and 100 % of the quota once per
// cycle, and at the first 429 of an hourly window. Exactly once across instances and restarts: the
// event is written in the same transaction as a marker row whose primary key refuses a second one.
import type { UsageRepository } from '../storage/usage-repository.js';
import type { EventLog } from './events.js';
import type { Clock } from './ids.js';

export interface UsageAlert {
  kind: 'quota' | 'rate_limit';
  /** 80 or 100 (% of the quota); null for the rate limit. */
  threshold: 80 | 100 | null;
  /** Requests of the cycle (quota) or of the window (rate limit) when the alert was raised. */
  used: number;
  limit: number;
  /** When the cycle or window ends. */
  period_end: string;
}

/** Markers remembered in memory, so a request seldom asks the database about one already announced. */
const REMEMBERED = 10_000;

export class UsageAlerts {
  private readonly announced = new Set<string>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly events: EventLog,
    private readonly repo: UsageRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Announces `alert` under `marker` unless it already was; resolves once written (or found
   * written). Undefined when this instance knows it was announced already.
   */
  raise(accountId: string, marker: string, alert: UsageAlert): Promise<void> | undefined {
    const id = `${accountId} ${marker}`;
    if (this.announced.has(id)) return undefined;
    if (this.announced.size >= REMEMBERED) this.announced.clear();
    this.announced.add(id);
    const work = this.events
      .change(accountId, async (tx, emit) => {
        if (await this.repo.markAlert(tx, accountId, marker, this.clock().toISOString())) emit('api_key.usage_alert', alert);
      })
      .catch((error: unknown) => {
        // Not written: a later request over the threshold tries again.
        this.announced.delete(id);
        throw error;
      })
      .finally(() => this.running.delete(work));
    this.running.add(work);
    return work;
  }

  /** Resolves when every alert being written has been (or has failed): before the store closes. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
