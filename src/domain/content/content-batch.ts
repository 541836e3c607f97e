// A batch of content changes (CONTRACT.md §21, docs/bulk.md) in one transaction of the account,
// each operation made by ContentWrites exactly as its single route makes it (so each has its own
// version, revision, event and webhook delivery). Consecutive creates are made together
// (`createEach`: a few statements for all of them). Atomic: the first failure undoes the batch and
// is reported on `operations[i]`. Independent: each operation fails alone, a create leaving nothing
// behind, any other operation in a savepoint of its own. On SQLite the one transaction is one group
// commit either way.
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
      for (const [start, run] of runs(operations)) {
        if (isCreates(run)) {
          const made = await this.writes.createEach(tx, emit, principal, run.map((operation) => operation.data));
          const failed = made.findIndex((item) => item instanceof DomainError);
          if (failed >= 0) throw atOperation(start + failed, made[failed] as DomainError);
          outcomes.push(...made.map((item) => ({ op: 'create' as const, ok: true as const, item: item as ContentItem })));
          continue;
        }
        try {
          outcomes.push({ op: run[0]!.op, ok: true, item: await this.apply(tx, emit, principal, run[0]!) });
        } catch (error) {
          throw error instanceof DomainError ? atOperation(start, error) : error;
        }
      }
      return outcomes;
    });
  }

  /**
   * Each operation alone, in order, in one transaction: a failed one leaves no trace (no row, no
   * event). Consecutive creates go together (`createEach`, which leaves none of a refused create);
   * any other operation runs in a savepoint of its own.
   */
  independent(principal: Principal, operations: BatchOperation[]): Promise<BatchOutcome[]> {
    return this.events.change(principal.accountId, async (tx, emit) => {
      const outcomes: BatchOutcome[] = [];
      for (const [, run] of runs(operations)) {
        if (isCreates(run)) {
          const made = await this.writes.createEach(tx, emit, principal, run.map((operation) => operation.data));
          outcomes.push(...made.map((item) => (item instanceof DomainError ? { op: 'create' as const, ok: false as const, error: item } : { op: 'create' as const, ok: true as const, item })));
          continue;
        }
        const operation = run[0]!;
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

type CreateOperation = Extract<BatchOperation, { op: 'create' }>;
const isCreates = (run: BatchOperation[]): run is CreateOperation[] => run[0]!.op === 'create';

/** The operations in order as runs, each with the index it starts at: consecutive creates together, any other operation alone. */
function* runs(operations: BatchOperation[]): Generator<[number, BatchOperation[]]> {
  for (let start = 0; start < operations.length; ) {
    let end = start + 1;
    if (operations[start]!.op === 'create') while (end < operations.length && operations[end]!.op === 'create') end++;
    yield [start, operations.slice(start, end)];
    start = end;
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
