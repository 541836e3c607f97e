// Keeps the expression indexes in step with the models (storage/content-field-indexes.ts): after
// every model change committed here — and at start, for changes made while this instance was down —
// the indexes every model wants are made and the ones no model wants any more are dropped. One run
// at a time per instance; on PostgreSQL instances racing on the same index are harmless (IF NOT
// EXISTS / IF EXISTS), on SQLite one process builds at a time (a lease) and the others wait for it.
import type { Store } from '../../storage/db.js';
import type { ContentTypeRepository } from '../../storage/content-type-repository.js';
import { indexName, type ContentFieldIndexes, type WantedIndex } from '../../storage/content-field-indexes.js';
import type { FieldDefinition } from '../schemas/content-types.js';

/** How long to wait before asking again while another process builds (SQLite). */
const BUSY_RETRY_MS = 500;

export class FieldIndexer {
  private running: Promise<void> = Promise.resolve();
  private queued = false;

  constructor(
    private readonly store: Store,
    private readonly models: ContentTypeRepository,
    private readonly indexes: ContentFieldIndexes,
    /** Where a failed run is reported (the server's log; set by the composition root). */
    public onError: (error: unknown) => void = () => {},
  ) {}

  /** Asks for a run (coalesced: a run asked for while one is going happens once after it). */
  reconcile(): Promise<void> {
    if (this.queued) return this.running;
    this.queued = true;
    this.running = this.running.then(async () => {
      this.queued = false;
      try {
        await this.run();
      } catch (error) {
        this.onError(error);
      }
    });
    return this.running;
  }

  /** Resolves once the runs asked for so far are done (tests, shutdown). */
  settled(): Promise<void> {
    return this.running;
  }

  private async run(): Promise<void> {
    const wanted = new Map<string, WantedIndex>();
    for (const model of await this.store.run((db) => this.models.indexedModels(db))) {
      for (const field of JSON.parse(model.fields) as FieldDefinition[]) {
        if (!field.indexed) continue;
        const index = { type: model.type, name: field.name, list: field.kind === 'list' };
        wanted.set(indexName(index), index);
      }
    }
    const existing = await this.store.run((db) => this.indexes.existing(db));
    for (const { name, valid } of existing) {
      if (!wanted.has(name) || !valid) await this.indexes.drop(this.store, name);
    }
    const present = new Set(existing.filter((index) => index.valid).map((index) => index.name));
    const missing = [...wanted].filter(([name]) => !present.has(name)).map(([, index]) => index);
    if (missing.length > 0 && !(await this.indexes.make(this.store, missing, [...wanted.values()]))) {
      // Another process is building (SQLite): once it is done, look again, as the models may have changed since it began.
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
      return this.run();
    }
    await this.store.run((db) => this.indexes.ensureStatistics(db, [...wanted.values()]));
  }
}
