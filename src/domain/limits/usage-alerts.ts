// `api_key.usage_alert` events (CONTRACT.md §9, §10): at 80 % and 100 % of the quota once per
// cycle, and at the first 429 of an hourly window. Exactly once across instances and restarts: the
// event is written in the same transaction as a marker row whose primary key refuses a second one.
import type { UsageRepository } from '../../storage/usage-repository.js';
import type { EventLog } from '../events/event-log.js';
import type { Clock } from '../ids.js';

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
   * Announces each alert under its marker, in order, unless it already was; resolves once all are
   * written (or found written). Undefined when this instance knows they all were announced already.
   */
  raise(accountId: string, alerts: { marker: string; alert: UsageAlert }[]): Promise<void> | undefined {
    const fresh = alerts.filter(({ marker }) => !this.announced.has(`${accountId} ${marker}`));
    if (fresh.length === 0) return undefined;
    if (this.announced.size >= REMEMBERED) this.announced.clear();
    for (const { marker } of fresh) this.announced.add(`${accountId} ${marker}`);
    const work = (async () => {
      for (const [i, { marker, alert }] of fresh.entries()) {
        try {
          await this.events.change(accountId, async (tx, emit) => {
            if (await this.repo.markAlert(tx, accountId, marker, this.clock().toISOString())) emit('api_key.usage_alert', alert);
          });
        } catch (error) {
          // Not written: a later request past the threshold tries again (and the ones after it).
          for (const rest of fresh.slice(i)) this.announced.delete(`${accountId} ${rest.marker}`);
          throw error;
        }
      }
    })().finally(() => this.running.delete(work));
    this.running.add(work);
    return work;
  }

  /** Resolves when every alert being written has been (or has failed): before the store closes. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
