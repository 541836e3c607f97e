// The delivery side of webhooks, as the worker drives it: claim due attempts (each taken by exactly
// one worker, under a lease that lapses if that worker dies), and record how each ended — a
// success, or a failure with the next attempt scheduled, or the endpoint disabled after a 410 or
// three days of failures. The HTTP request itself is the worker's; no transaction ever waits on it.
import type { Store, Tx } from '../../storage/db.js';
import type { AttemptOutcome, ClaimedAttempt, WebhookDeliveryRepository } from '../../storage/webhook-delivery-repository.js';
import type { WebhookEndpointRepository } from '../../storage/webhook-endpoint-repository.js';
import type { EventLog } from '../events/event-log.js';
import { newId, type Clock } from '../ids.js';
import type { Capacity, OutboxQueue } from '../outbox.js';
import { WEBHOOK_PLANS } from './queue.js';
import { nextAttemptAt } from './schedule.js';
import { ENDPOINT_DISABLED } from './endpoints.js';

/** An endpoint whose attempts have all failed for this long is disabled. */
export const FAILING_LIMIT_MS = 3 * 24 * 3600 * 1000;
/** How many endpoints with due work one claim looks at. */
const ENDPOINTS_PER_CLAIM = 100;

/** A claimed attempt, ready to send. */
export interface OutgoingAttempt {
  id: string;
  accountId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  url: string;
  /** Stored body of a ping (null for an event of the log), carried over to the next attempt. */
  payload: string | null;
  body: string;
  /** The current secret, then the previous one while a rotation's overlap lasts. */
  secrets: string[];
}

/** What happened on the wire: a status when the receiver answered, otherwise an error. */
export interface AttemptResult {
  status: number | null;
  retryAfter?: string;
  /** Why no usable answer came (timeout, connection refused, refused address…). */
  error: string | null;
  durationMs: number;
  attemptedAt: Date;
}

/** Told inside the transaction that disables an endpoint after failures, so the account hears of it (§16). */
export interface EndpointDisabledListener {
  endpointDisabled(tx: Tx, accountId: string, endpoint: { url: string; description: string }, reason: 'gone' | 'failing', at: string): Promise<void>;
}

export class DeliveryService implements OutboxQueue<OutgoingAttempt, AttemptResult> {
  constructor(
    private readonly store: Store,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly events: EventLog,
    private readonly clock: Clock,
    private readonly schedule: readonly number[],
    private readonly disabled?: EndpointDisabledListener,
  ) {}

  /** Claims due attempts within `capacity` (partitioned by endpoint) under `lease` for `leaseMs`; returns those to send. */
  async claim(lease: string, leaseMs: number, capacity: Capacity): Promise<OutgoingAttempt[]> {
    if (capacity.total <= 0) return [];
    const now = this.clock();
    const nowIso = now.toISOString();
    const due = await this.store.run((db) => this.deliveries.dueEndpointsAnyAccount(db, nowIso, capacity.saturated, ENDPOINTS_PER_CLAIM));
    if (due.length === 0) return [];
    const until = new Date(now.getTime() + leaseMs).toISOString();
    const ids = await this.store.transaction(async (tx) => {
      const claimed: string[] = [];
      for (const endpointId of due) {
        const room = Math.min(capacity.freeFor(endpointId), capacity.total - claimed.length);
        if (room <= 0) continue;
        claimed.push(...(await this.deliveries.claimAnyAccount(tx, endpointId, nowIso, lease, until, room)));
        if (claimed.length >= capacity.total) break;
      }
      return claimed;
    });
    const rows = await this.store.run((db) => this.deliveries.claimedAnyAccount(db, ids, lease));
    const sendable: OutgoingAttempt[] = [];
    const unsendable: { row: ClaimedAttempt; error: string }[] = [];
    for (const row of rows) {
      const error = unsendableBecause(row);
      if (error) unsendable.push({ row, error });
      else sendable.push(toOutgoing(row, now));
    }
    if (unsendable.length) {
      await this.store.transaction(async (tx) => {
        for (const { row, error } of unsendable) {
          await this.deliveries.finish(tx, row.account_id, row.id, lease, { ...NOT_SENT, error });
        }
      });
    }
    return sendable;
  }

  /** Keeps the claims on attempts still in flight from lapsing. */
  renew(ids: string[], lease: string, leaseMs: number): Promise<void> {
    const until = new Date(this.clock().getTime() + leaseMs).toISOString();
    return this.store.transaction((tx) => this.deliveries.renewAnyAccount(tx, ids, lease, until));
  }

  /** Gives claimed attempts back unsent (shutting down), due again at once for any worker. */
  release(ids: string[], lease: string): Promise<void> {
    return this.store.transaction((tx) => this.deliveries.releaseAnyAccount(tx, ids, lease));
  }

  /**
   * Records how an attempt ended; on failure schedules the next one or disables the endpoint.
   * Returns the milliseconds until the next attempt is due, when one was scheduled.
   */
  async finish(attempt: OutgoingAttempt, lease: string, result: AttemptResult): Promise<number | undefined> {
    const now = this.clock();
    const status = result.status;
    const sent = { response_status: status, duration_ms: Math.round(result.durationMs), attempted_at: result.attemptedAt.toISOString() };
    // Lock order, on both paths: the endpoint's row first, then delivery rows. A failure that
    // disables the endpoint writes the endpoint and then every pending delivery; a success that
    // locked its own delivery before the endpoint (to clear failing_since) could hold a row that
    // the failure waits for while waiting for the endpoint the failure holds: a deadlock, which
    // PostgreSQL breaks by aborting one of them. endpoints.lock() comes before any delivery row.
    if (status !== null && status >= 200 && status < 300) {
      await this.store.transaction(async (tx) => {
        if (!(await this.endpoints.lock(tx, attempt.accountId, attempt.endpointId))) return;
        const outcome: AttemptOutcome = { ...sent, status: 'succeeded', error: null, next_attempt_at: null };
        if (await this.deliveries.finish(tx, attempt.accountId, attempt.id, lease, outcome)) {
          await this.endpoints.markHealthy(tx, attempt.accountId, attempt.endpointId);
        }
      });
      return undefined;
    }
    // A failure may disable the endpoint, which cancels its pending attempts: take the account's
    // write turn, so no event can queue an attempt for it in between.
    return this.events.change(attempt.accountId, async (tx) => {
      const endpoint = await this.endpoints.lock(tx, attempt.accountId, attempt.endpointId);
      if (!endpoint) return undefined;
      const enabled = Number(endpoint.enabled) === 1;
      const failingSince = endpoint.failing_since ?? now.toISOString();
      const gone = status === 410;
      const tooLong = now.getTime() - Date.parse(failingSince) >= FAILING_LIMIT_MS;
      const disable = enabled && (gone || tooLong);
      const next = enabled && !disable ? nextAttemptAt(this.schedule, attempt.attempt, now, result.retryAfter) : undefined;
      const outcome: AttemptOutcome = {
        ...sent,
        status: 'failed',
        error: describeFailure(result, disable ? (gone ? 'gone' : 'failing') : undefined),
        next_attempt_at: next?.toISOString() ?? null,
      };
      if (!(await this.deliveries.finish(tx, attempt.accountId, attempt.id, lease, outcome))) return undefined;
      const nowIso = now.toISOString();
      if (disable) {
        await this.endpoints.update(tx, attempt.accountId, attempt.endpointId, {
          enabled: 0,
          disabled_reason: gone ? 'gone' : 'failing',
          disabled_at: nowIso,
          failing_since: failingSince,
          updated_at: nowIso,
        });
        await this.deliveries.cancelPending(tx, attempt.accountId, attempt.endpointId, ENDPOINT_DISABLED);
        await this.disabled?.endpointDisabled(tx, attempt.accountId, endpoint, gone ? 'gone' : 'failing', nowIso);
      } else if (endpoint.failing_since === null) {
        await this.endpoints.markFailing(tx, attempt.accountId, attempt.endpointId, failingSince);
      }
      if (next) {
        await this.deliveries.insert(tx, [
          {
            id: newId('whd'),
            account_id: attempt.accountId,
            endpoint_id: attempt.endpointId,
            event_id: attempt.eventId,
            event_type: attempt.eventType,
            attempt: attempt.attempt + 1,
            status: 'pending',
            response_status: null,
            duration_ms: null,
            error: null,
            created_at: nowIso,
            attempted_at: null,
            next_attempt_at: next.toISOString(),
            lease: null,
            locked_until: null,
            payload: attempt.payload,
          },
        ]);
      }
      return next === undefined ? undefined : next.getTime() - now.getTime();
    });
  }
}

const NOT_SENT: Omit<AttemptOutcome, 'error'> = { status: 'failed', response_status: null, duration_ms: null, attempted_at: null, next_attempt_at: null };

/** Why a claimed attempt must not be sent at all, or undefined when it may be. */
function unsendableBecause(row: ClaimedAttempt): string | undefined {
  if (!(WEBHOOK_PLANS as readonly string[]).includes(row.plan)) return "The account's plan no longer includes webhooks; the attempt was cancelled.";
  if (Number(row.enabled) !== 1) return ENDPOINT_DISABLED;
  if (row.payload === null && row.event_data === null) return 'The event is older than the event log keeps; it can no longer be delivered.';
  return undefined;
}

function toOutgoing(row: ClaimedAttempt, now: Date): OutgoingAttempt {
  const body =
    row.payload ??
    `{"id":${JSON.stringify(row.event_id)},"type":${JSON.stringify(row.event_type)},"created_at":${JSON.stringify(row.event_created_at)},"data":${row.event_data!}}`;
  const previousValid = row.previous_secret !== null && row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now.toISOString();
  return {
    id: row.id,
    accountId: row.account_id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    attempt: Number(row.attempt),
    url: row.url,
    payload: row.payload,
    body,
    secrets: previousValid ? [row.secret, row.previous_secret!] : [row.secret],
  };
}

function describeFailure(result: AttemptResult, disabled: 'gone' | 'failing' | undefined): string {
  const status = result.status;
  let text: string;
  if (status === null) text = result.error ?? 'The attempt failed.';
  else if (status === 410) text = 'The endpoint answered 410 Gone.';
  else if (status >= 300 && status < 400) text = `The endpoint answered ${status}, a redirect; redirects are not followed.`;
  else text = `The endpoint answered ${status}.`;
  if (disabled === 'gone') return `${text} The endpoint has been disabled.`;
  if (disabled === 'failing') return `${text} Every attempt has failed for 3 days; the endpoint has been disabled.`;
  return text;
}
