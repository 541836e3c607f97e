// The read side of the event log: which events a key may see, paging through the retained log
// (GET /v1/events), and resolving a client's cursor. Live delivery is in event-stream.ts.
import type { Store } from '../../storage/db.js';
import type { EventRepository } from '../../storage/event-repository.js';
import { DomainError } from '../errors.js';
import { EVENT_TYPES, fromRow, type EventType, type PublicEvent, type StoredEvent } from './event-log.js';
import { requireScope, roleMayHold, type Principal, type Scope } from '../auth/permissions.js';
import { MAX_LIMIT } from '../schemas/common.js';
import type { EventListQuery, EventPage } from '../schemas/events.js';

/** The scope a key needs, beyond events:read, to see events of each kind. */
const NEEDS: Record<string, Scope | undefined> = { content: 'content:read', user: 'users:read', api_key: undefined, job: 'content:read', media: 'content:read' };

function holds(principal: Principal, scope: Scope): boolean {
  return roleMayHold(principal.role, scope) && principal.scopes.includes(scope);
}

/** The event types this principal may see: content events need content:read, user events users:read. */
export function visibleTypes(principal: Principal): EventType[] {
  return EVENT_TYPES.filter((type) => {
    const scope = NEEDS[type.split('.')[0]!];
    return scope === undefined || holds(principal, scope);
  });
}

export const cursorExpired = (id: string) =>
  new DomainError('cursor_expired', `The event ${id} is unknown or older than the retention period; start again without a cursor.`);

export function present(event: StoredEvent): PublicEvent {
  return { id: event.id, type: event.type, created_at: event.created_at, data: event.data };
}

export class EventFeed {
  constructor(
    private readonly store: Store,
    private readonly repo: EventRepository,
  ) {}

  /** GET /v1/events: the account's retained events after a cursor, oldest first. */
  async list(principal: Principal, query: EventListQuery): Promise<EventPage> {
    requireScope(principal, 'events:read');
    const limit = Math.min(query.limit ?? 10, MAX_LIMIT);
    const after = query.after === undefined ? 0 : await this.position(principal.accountId, query.after);
    const rows = await this.store.run((db) => this.repo.listAfter(db, principal.accountId, after, limit + 1, visibleTypes(principal)));
    const data = rows.slice(0, limit).map((row) => present(fromRow(row)));
    return {
      data,
      pagination: { limit, has_more: rows.length > limit, next_after: data.at(-1)?.id ?? query.after ?? null },
    };
  }

  /** The sequence number of a retained event of the account; cursor_expired otherwise. */
  async position(accountId: string, eventId: string): Promise<number> {
    const row = await this.store.run((db) => this.repo.findById(db, accountId, eventId));
    if (!row) throw cursorExpired(eventId);
    return Number(row.seq);
  }

  /** Events after `afterSeq`, oldest first, of the given types. */
  async read(accountId: string, afterSeq: number, limit: number, types?: readonly string[]): Promise<StoredEvent[]> {
    const rows = await this.store.run((db) => this.repo.listAfter(db, accountId, afterSeq, limit, types));
    return rows.map(fromRow);
  }
}
