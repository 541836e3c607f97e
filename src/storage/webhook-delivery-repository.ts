// Webhook delivery attempts. Reads and changes made for a request take the account id; the worker's
// queue operations (finding due work, claiming, renewing and finishing a claim) are service-wide by
// nature, like the event log's pruning, and say so in their names.
import type { Insertable, Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import { dueAndFree, PENDING, releaseLeases, renewLeases, takeLeases } from './leases.js';
import type { Dialect, WebhookDeliveryTable } from './schema.js';

export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
const PUBLIC = [
  'id',
  'endpoint_id',
  'event_id',
  'event_type',
  'attempt',
  'status',
  'response_status',
  'duration_ms',
  'error',
  'created_at',
  'attempted_at',
  'next_attempt_at',
] as const;
export type PublicDeliveryRow = Pick<WebhookDeliveryRow, (typeof PUBLIC)[number]>;

/** A claimed attempt with everything needed to send it. */
export interface ClaimedAttempt {
  id: string;
  account_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  payload: string | null;
  url: string;
  enabled: number;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  plan: string;
  /** The event as the log holds it; null when it is a ping or the event has been pruned. */
  event_data: string | null;
  event_created_at: string | null;
}

/** How an attempt ended. */
export interface AttemptOutcome {
  status: 'succeeded' | 'failed';
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  attempted_at: string | null;
  next_attempt_at: string | null;
}

export class WebhookDeliveryRepository {
  constructor(private readonly dialect: Dialect) {}

  async insert(tx: Tx, rows: Insertable<WebhookDeliveryTable>[]): Promise<void> {
    if (rows.length) await tx.insertInto('webhook_deliveries').values(rows).execute();
  }

  /** An endpoint's attempts, newest first. */
  async list(db: Db, accountId: string, endpointId: string, limit: number, offset: number) {
    const query = db.selectFrom('webhook_deliveries').where('account_id', '=', accountId).where('endpoint_id', '=', endpointId);
    const [rows, count] = await Promise.all([
      query.select(PUBLIC).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  get(db: Db, accountId: string, endpointId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
    return db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('endpoint_id', '=', endpointId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The event's attempts on the endpoint so far: the highest number and whether one is pending. */
  async progress(tx: Tx, accountId: string, endpointId: string, eventId: string): Promise<{ last: number; pending: boolean }> {
    const rows = await tx
      .selectFrom('webhook_deliveries')
      .select(['attempt', 'status'])
      .where('account_id', '=', accountId)
      .where('endpoint_id', '=', endpointId)
      .where('event_id', '=', eventId)
      .execute();
    return { last: Math.max(0, ...rows.map((r) => Number(r.attempt))), pending: rows.some((r) => r.status === 'pending') };
  }

  /** Ends every pending attempt of the endpoint as failed, with `error` and no next attempt. */
  async cancelPending(tx: Tx, accountId: string, endpointId: string, error: string): Promise<void> {
    await tx
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', error, next_attempt_at: null, lease: null, locked_until: null })
      .where('account_id', '=', accountId)
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', PENDING)
      .execute();
  }

  /** Service-wide: endpoints with attempts due and unclaimed at `now`, the longest-waiting first. */
  async dueEndpointsAnyAccount(db: Db, now: string, exclude: string[], limit: number): Promise<string[]> {
    let query = db
      .selectFrom('webhook_deliveries')
      .select('endpoint_id')
      .where(dueAndFree(now));
    if (exclude.length) query = query.where('endpoint_id', 'not in', exclude);
    const rows = await query
      .groupBy('endpoint_id')
      .orderBy((eb) => eb.fn.min('next_attempt_at'))
      .limit(limit)
      .execute();
    return rows.map((r) => r.endpoint_id);
  }

  /**
   * Service-wide: claims up to `limit` due attempts of one endpoint until `lockedUntil`. On
   * PostgreSQL rows another instance is claiming are skipped (FOR UPDATE SKIP LOCKED), so each
   * attempt is taken by exactly one; on SQLite one connection already serialises claims.
   */
  async claimAnyAccount(tx: Tx, endpointId: string, now: string, lease: string, lockedUntil: string, limit: number): Promise<string[]> {
    const due = tx
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('endpoint_id', '=', endpointId)
      .where(dueAndFree(now))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit);
    const picked = await (this.dialect === 'postgres' ? due.forUpdate().skipLocked() : due).execute();
    return takeLeases(tx, 'webhook_deliveries', picked.map((r) => r.id), now, lease, lockedUntil);
  }

  /** Service-wide: what sending the claimed attempts needs, joined in one query. */
  claimedAnyAccount(db: Db, ids: string[], lease: string): Promise<ClaimedAttempt[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
      .innerJoin('accounts as a', 'a.id', 'd.account_id')
      .leftJoin('events as e', (join) => join.onRef('e.id', '=', 'd.event_id').onRef('e.account_id', '=', 'd.account_id'))
      .select([
        'd.id',
        'd.account_id',
        'd.endpoint_id',
        'd.event_id',
        'd.event_type',
        'd.attempt',
        'd.payload',
        'w.url',
        'w.enabled',
        'w.secret',
        'w.previous_secret',
        'w.previous_secret_expires_at',
        'a.plan',
        'e.data as event_data',
        'e.created_at as event_created_at',
      ])
      .where('d.id', 'in', ids)
      .where('d.lease', '=', lease)
      .execute();
  }

  /** Service-wide: extends the claims this worker still holds. */
  renewAnyAccount(tx: Tx, ids: string[], lease: string, lockedUntil: string): Promise<void> {
    return renewLeases(tx, 'webhook_deliveries', this.dialect, ids, lease, lockedUntil);
  }

  /** Service-wide: gives a claimed attempt back unsent, due again at once. */
  releaseAnyAccount(tx: Tx, ids: string[], lease: string): Promise<void> {
    return releaseLeases(tx, 'webhook_deliveries', this.dialect, ids, lease);
  }

  /**
   * Records how a claimed attempt ended, if the claim still holds (it lapses when a worker stalls
   * past its lease and another took the attempt over). Returns whether it was recorded.
   */
  async finish(tx: Tx, accountId: string, id: string, lease: string, outcome: AttemptOutcome): Promise<boolean> {
    const result = await tx
      .updateTable('webhook_deliveries')
      .set({ ...outcome, lease: null, locked_until: null })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('lease', '=', lease)
      .where('status', '=', PENDING)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
