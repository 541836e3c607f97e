// A batch of content changes (CONTRACT.md §21, docs/bulk.md) in one transaction of the account,
// each operation made by ContentWrites exactly as its single route makes it (so each has its own
// version, revision, event and webhook delivery). Atomic: the first failure undoes the batch and is
// reported on `operations[i]`. Independent: each operation runs in a savepoint of its own and
// fails alone. On SQLite the one transaction is one group commit either way.
import type { Tx } from '../../storage/db.js';
import { inSavepoint } from '../../storage/savepoint.js';
import { DomainError, invalid, type FieldError } from '../errors.js';
import type { Emit, EventLog, EventType } from '../events/event-log.js';
import type { Principal } from '../auth/permissions.js';
import type { ContentCreate, ContentItem, ContentUpdate } from '../schemas/content.js';
import type { BatchOp } from '../schemas/content-batch.js';
import type { ContentWrites, Precondition } from './content-writes.js';

export type BatchOperation =
  | { op: 'create'; data: ContentCreate }
  | { op: 'update'; id: string; data: ContentUpdate; precondition: Precondition }
  | { op: 'delete' | 'publish' | 'archive'; id: string; precondition: Precondition };

/** What one operation came to: the item it left (none for a delete), or the error it alone would have had. */
export type BatchOutcome = { op: BatchOp; ok: true; item: ContentItem | null } | { op: BatchOp; ok: false; error: DomainError };

export class ContentBatch {
  constructor(
    private readonly events: EventLog,
    private readonly writes: ContentWrites,
  ) {}

  /**
   * All or nothing. Throws the first failure as the batch's: a validation error (422) naming
   * `operations[i].…`, a stale if_match as 422 on `operations[i].if_match`, or 403/404/409 as the
   * operation alone would have had it. The same item twice is refused before anything runs.
   */
  atomic(principal: Principal, operations: BatchOperation[]): Promise<BatchOutcome[]> {
    refuseRepeatedIds(operations);
    return this.events.change(principal.accountId, async (tx, emit) => {
      const outcomes: BatchOutcome[] = [];
      for (const [i, operation] of operations.entries()) {
        try {
          outcomes.push({ op: operation.op, ok: true, item: await this.apply(tx, emit, principal, operation) });
        } catch (error) {
          throw error instanceof DomainError ? atOperation(i, error) : error;
        }
      }
      return outcomes;
    });
  }

  /** Each operation alone, in order, in one transaction: a failed one leaves no trace (no row, no event). */
  independent(principal: Principal, operations: BatchOperation[]): Promise<BatchOutcome[]> {
    return this.events.change(principal.accountId, async (tx, emit) => {
      const outcomes: BatchOutcome[] = [];
      for (const operation of operations) {
        const emitted: { type: EventType; data: object }[] = [];
        try {
          const item = await inSavepoint(tx, () => this.apply(tx, (type, data) => void emitted.push({ type, data }), principal, operation));
          for (const event of emitted) emit(event.type, event.data);
          outcomes.push({ op: operation.op, ok: true, item });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          outcomes.push({ op: operation.op, ok: false, error });
        }
      }
      return outcomes;
    });
  }

  private async apply(tx: Tx, emit: Emit, principal: Principal, operation: BatchOperation): Promise<ContentItem | null> {
    switch (operation.op) {
      case 'create':
        return this.writes.create(tx, emit, principal, operation.data);
      case 'update':
        return this.writes.update(tx, emit, principal, operation.id, operation.data, operation.precondition);
      case 'publish':
        return this.writes.publish(tx, emit, principal, operation.id, operation.precondition);
      case 'archive':
        return this.writes.archive(tx, emit, principal, operation.id, operation.precondition);
      case 'delete':
        await this.writes.remove(tx, emit, principal, operation.id, operation.precondition);
        return null;
    }
  }
}

/** Two operations on one item in an atomic batch: refused (422 on the second one's id), see docs/bulk.md. */
function refuseRepeatedIds(operations: BatchOperation[]): void {
  const first = new Map<string, number>();
  const errors: FieldError[] = [];
  operations.forEach((operation, i) => {
    if (operation.op === 'create') return;
    const earlier = first.get(operation.id);
    if (earlier === undefined) first.set(operation.id, i);
    else errors.push({ field: `operations[${i}].id`, code: 'invalid_value', message: `operations[${i}].id names the item operations[${earlier}] already changes; an atomic batch changes each item once.` });
  });
  if (errors.length > 0) throw invalid(errors);
}

/** An operation's error as the atomic batch's: its fields named under `operations[i]`. */
function atOperation(i: number, error: DomainError): DomainError {
  const at = `operations[${i}]`;
  if (error.code === 'precondition_failed') {
    return invalid([{ field: `${at}.if_match`, code: 'precondition_failed', message: `${at}: ${error.message}` }]);
  }
  const errors = error.errors?.map((e) => ({ ...e, field: e.field === '' ? `${at}.data` : `${at}.data.${e.field}` }));
  return new DomainError(error.code, `${at}: ${error.message}`, errors);
}
