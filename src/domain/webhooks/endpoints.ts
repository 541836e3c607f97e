// Webhook endpoints as the API manages them (CONTRACT.md §10): create (the secret shown once),
// read, change, delete, rotate the secret, ping, and the delivery records with manual retries.
// Pro and Enterprise only; admins and owners with `webhooks:write`. Every change takes the
// account's write turn, so it is ordered with the events whose deliveries it decides.
import type { Store, Tx } from '../../storage/db.js';
import type { EventRepository } from '../../storage/event-repository.js';
import type { PublicDeliveryRow, WebhookDeliveryRepository } from '../../storage/webhook-delivery-repository.js';
import type { WebhookEndpointRepository, WebhookEndpointRow } from '../../storage/webhook-endpoint-repository.js';
import { DomainError, invalid, notFound } from '../errors.js';
import type { EventLog } from '../events/event-log.js';
import { newId, type Clock } from '../ids.js';
import { requireScope, type Principal } from '../auth/permissions.js';
import { pageOf, pageWindow, type PageResult } from '../schemas/common.js';
import type {
  WebhookCreate,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookListQuery,
  WebhookUpdate,
} from '../schemas/webhooks.js';
import type { Wake } from '../outbox.js';
import { WEBHOOK_PLANS } from './queue.js';
import { generateSecret } from './signature.js';
import { resolveTarget, systemResolver, TargetRefused, type Resolver } from './targets.js';

/** Endpoints per account, as Stripe limits them, so one event never fans out without bound. */
export const MAX_ENDPOINTS = 20;
/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
export const ENDPOINT_DISABLED = 'The endpoint was disabled; this attempt was cancelled.';

/** The plan check every webhook operation makes; the HTTP layer also calls it before validating a body. */
export function requireWebhookPlan(principal: Principal): void {
  if (!(WEBHOOK_PLANS as readonly string[]).includes(principal.plan)) {
    throw new DomainError('plan_required', `Webhooks are available on the Pro and Enterprise plans; this account is on ${principal.plan}.`);
  }
}

export class WebhookService {
  constructor(
    private readonly store: Store,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly eventRepo: EventRepository,
    private readonly events: EventLog,
    private readonly clock: Clock,
    private readonly allowPrivate: boolean,
    /** Tells this process's delivery worker that an attempt was queued outside the event log (pings, retries). */
    private readonly wake: Wake,
    private readonly resolve: Resolver = systemResolver,
  ) {}

  async list(principal: Principal, query: WebhookListQuery): Promise<PageResult<WebhookEndpoint>> {
    this.authorize(principal);
    const window = pageWindow(query);
    const { rows, total } = await this.store.run((db) => this.endpoints.list(db, principal.accountId, window.limit, window.offset));
    return pageOf(rows.map(present), total, window);
  }

  async get(principal: Principal, id: string): Promise<WebhookEndpoint> {
    this.authorize(principal);
    const row = await this.store.run((db) => this.endpoints.get(db, principal.accountId, id));
    if (!row) throw notFound('Webhook endpoint');
    return present(row);
  }

  async create(principal: Principal, input: WebhookCreate): Promise<WebhookEndpointWithSecret> {
    this.authorize(principal);
    const url = await this.checkUrl(input.url);
    const now = this.clock().toISOString();
    const enabled = input.enabled ?? true;
    const row: WebhookEndpointRow = {
      id: newId('wh'),
      account_id: principal.accountId,
      url,
      description: input.description ?? '',
      events: JSON.stringify([...new Set(input.events)]),
      enabled: enabled ? 1 : 0,
      secret: generateSecret(),
      previous_secret: null,
      previous_secret_expires_at: null,
      disabled_reason: enabled ? null : 'requested',
      disabled_at: enabled ? null : now,
      failing_since: null,
      created_at: now,
      updated_at: now,
    };
    await this.events.change(principal.accountId, async (tx) => {
      if ((await this.endpoints.count(tx, principal.accountId)) >= MAX_ENDPOINTS) {
        throw new DomainError('conflict', `An account may have at most ${MAX_ENDPOINTS} webhook endpoints; delete one first.`);
      }
      await this.endpoints.insert(tx, row);
    });
    return { ...present(row), secret: row.secret };
  }

  async update(principal: Principal, id: string, input: WebhookUpdate): Promise<WebhookEndpoint> {
    this.authorize(principal);
    const url = input.url === undefined ? undefined : await this.checkUrl(input.url);
    const now = this.clock().toISOString();
    const row = await this.events.change(principal.accountId, async (tx) => {
      // Locked before its pending deliveries are cancelled: the order every transaction that writes
      // both keeps (see DeliveryService.finish).
      const current = await this.endpoints.lock(tx, principal.accountId, id);
      if (!current) throw notFound('Webhook endpoint');
      const changes: Partial<WebhookEndpointRow> = { updated_at: now };
      if (url !== undefined) changes.url = url;
      if (input.events !== undefined) changes.events = JSON.stringify([...new Set(input.events)]);
      if (input.description !== undefined) changes.description = input.description;
      if (input.enabled === false && current.enabled === 1) {
        Object.assign(changes, { enabled: 0, disabled_reason: 'requested', disabled_at: now });
        await this.deliveries.cancelPending(tx, principal.accountId, id, ENDPOINT_DISABLED);
      } else if (input.enabled === true && current.enabled === 0) {
        // A fresh start: the old run of failures no longer counts toward disabling it again.
        Object.assign(changes, { enabled: 1, disabled_reason: null, disabled_at: null, failing_since: null });
      }
      return (await this.endpoints.update(tx, principal.accountId, id, changes))!;
    });
    return present(row);
  }

  async remove(principal: Principal, id: string): Promise<void> {
    this.authorize(principal);
    await this.events.change(principal.accountId, async (tx) => {
      // Its delivery records go with it (foreign key cascade); an attempt in flight finds nothing to record.
      if (!(await this.endpoints.delete(tx, principal.accountId, id))) throw notFound('Webhook endpoint');
    });
  }

  /** A new secret; the previous one keeps signing for 24 hours beside it. */
  async rotateSecret(principal: Principal, id: string): Promise<WebhookEndpointWithSecret> {
    this.authorize(principal);
    const now = this.clock();
    const secret = generateSecret();
    const row = await this.events.change(principal.accountId, async (tx) => {
      const current = await this.endpoint(tx, principal.accountId, id);
      return (await this.endpoints.update(tx, principal.accountId, id, {
        secret,
        previous_secret: current.secret,
        previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
        updated_at: now.toISOString(),
      }))!;
    });
    return { ...present(row), secret };
  }

  /** Queues a `webhook.test` ping (not written to the event log) and returns its delivery record. */
  async test(principal: Principal, id: string): Promise<WebhookDelivery> {
    this.authorize(principal);
    const now = this.clock().toISOString();
    const eventId = newId('evt');
    const payload = JSON.stringify({ id: eventId, type: 'webhook.test', created_at: now, data: { webhook_id: id } });
    return this.events.change(principal.accountId, async (tx) => {
      const endpoint = await this.endpoint(tx, principal.accountId, id);
      this.requireEnabled(endpoint);
      return this.queue(tx, endpoint, { event_id: eventId, event_type: 'webhook.test', attempt: 1, payload, created_at: now });
    });
  }

  async listDeliveries(principal: Principal, id: string, query: WebhookListQuery): Promise<PageResult<WebhookDelivery>> {
    this.authorize(principal);
    const window = pageWindow(query);
    const { rows, total } = await this.store.run(async (db) => {
      if (!(await this.endpoints.get(db, principal.accountId, id))) throw notFound('Webhook endpoint');
      return this.deliveries.list(db, principal.accountId, id, window.limit, window.offset);
    });
    return pageOf(rows.map(presentDelivery), total, window);
  }

  /**
   * A new attempt of the event of delivery `deliveryId`, due now. Its number follows the event's
   * last attempt, and if it fails the schedule goes on from there. 409 while an attempt of that
   * event is pending, while the endpoint is disabled, or once the event has left the log.
   */
  async retry(principal: Principal, id: string, deliveryId: string): Promise<WebhookDelivery> {
    this.authorize(principal);
    const now = this.clock().toISOString();
    return this.events.change(principal.accountId, async (tx) => {
      const endpoint = await this.endpoint(tx, principal.accountId, id);
      const source = await this.deliveries.get(tx, principal.accountId, id, deliveryId);
      if (!source) throw notFound('Delivery');
      this.requireEnabled(endpoint);
      const progress = await this.deliveries.progress(tx, principal.accountId, id, source.event_id);
      if (progress.pending) throw new DomainError('conflict', 'An attempt of this event is already pending at this endpoint.');
      if (source.payload === null && !(await this.eventRepo.findById(tx, principal.accountId, source.event_id))) {
        throw new DomainError('conflict', 'The event is older than the event log keeps and can no longer be delivered.');
      }
      return this.queue(tx, endpoint, {
        event_id: source.event_id,
        event_type: source.event_type,
        attempt: progress.last + 1,
        payload: source.payload,
        created_at: now,
      });
    });
  }

  private async queue(
    tx: Tx,
    endpoint: WebhookEndpointRow,
    attempt: { event_id: string; event_type: string; attempt: number; payload: string | null; created_at: string },
  ): Promise<WebhookDelivery> {
    const row = {
      id: newId('whd'),
      account_id: endpoint.account_id,
      endpoint_id: endpoint.id,
      ...attempt,
      status: 'pending',
      response_status: null,
      duration_ms: null,
      error: null,
      attempted_at: null,
      next_attempt_at: attempt.created_at,
      lease: null,
      locked_until: null,
    };
    await this.deliveries.insert(tx, [row]);
    this.store.afterCommit(tx, () => this.wake.notify());
    return presentDelivery(row);
  }

  private authorize(principal: Principal): void {
    requireScope(principal, 'webhooks:write');
    requireWebhookPlan(principal);
  }

  private async endpoint(tx: Tx, accountId: string, id: string): Promise<WebhookEndpointRow> {
    const row = await this.endpoints.get(tx, accountId, id);
    if (!row) throw notFound('Webhook endpoint');
    return row;
  }

  private requireEnabled(endpoint: WebhookEndpointRow): void {
    if (endpoint.enabled !== 1) throw new DomainError('conflict', 'The endpoint is disabled; enable it first (PUT with "enabled": true).');
  }

  /** The URL as it will be stored, or 422 naming `url` with the reason. */
  private async checkUrl(text: string): Promise<string> {
    try {
      return (await resolveTarget(text, this.allowPrivate, this.resolve)).url.href;
    } catch (error) {
      if (!(error instanceof TargetRefused)) throw error;
      throw invalid([{ field: 'url', code: error.kind === 'malformed' ? 'invalid_format' : 'invalid_value', message: error.message }]);
    }
  }
}

function present(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as WebhookEndpoint['events'],
    enabled: Number(row.enabled) === 1,
    disabled_reason: row.disabled_reason as WebhookEndpoint['disabled_reason'],
    disabled_at: row.disabled_at,
    failing_since: row.failing_since,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentDelivery(row: PublicDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    attempt: Number(row.attempt),
    status: row.status as WebhookDelivery['status'],
    response_status: row.response_status === null ? null : Number(row.response_status),
    duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
    error: row.error,
    created_at: row.created_at,
    attempted_at: row.attempted_at,
    next_attempt_at: row.next_attempt_at,
  };
}
