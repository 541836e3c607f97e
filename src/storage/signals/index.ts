// Chooses how instances signal new events (CONTRACT.md §9): in process on SQLite (one process),
// Redis pub/sub when REDIS_URL is set, PostgreSQL LISTEN/NOTIFY otherwise.
import type { Store } from '../db.js';
import { LocalEventSignal, type EventSignal } from '../event-signal.js';
import { PostgresEventSignal } from './postgres-signal.js';
import { RedisEventSignal } from './redis-signal.js';

export interface SignalConfig {
  store: { kind: 'sqlite' } | { kind: 'postgres'; url: string };
  redisUrl?: string;
  /** REDIS_KEY_PREFIX: deployments sharing one Redis keep their signals apart too. */
  limits: { redisKeyPrefix: string };
}

/**
 * The signal for this configuration. With `listen`, it also starts hearing other instances;
 * without (the CLI), it only announces, which needs no connection of its own on PostgreSQL.
 */
export async function openSignal(config: SignalConfig, store: Store, listen: boolean, onError: (error: unknown) => void): Promise<EventSignal> {
  if (config.store.kind === 'sqlite') return new LocalEventSignal(store);
  if (config.redisUrl !== undefined && listen) {
    const signal = new RedisEventSignal(store, config.redisUrl, `${config.limits.redisKeyPrefix}events`, onError);
    await signal.start();
    return signal;
  }
  const signal = new PostgresEventSignal(config.store.url, onError);
  if (listen) await signal.start();
  return signal;
}
