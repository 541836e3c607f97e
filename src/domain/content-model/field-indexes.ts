// Keeps the expression indexes in step with the models (storage/content-field-indexes.ts): after
// every model change committed here — and at start, for changes made while this instance was down —
// the indexes every model wants are made and the ones no model wants any more are dropped. One run
// at a time per instance; instances racing on the same index are harmless (IF NOT EXISTS / IF EXISTS).
import type { Store } from '../../storage/db.js';
import type { ContentTypeRepository } from '../../storage/content-type-repository.js';
import { indexName, type ContentFieldIndexes, type WantedIndex } from '../../storage/content-field-indexes.js';
import type { FieldDefinition } from '../schemas/content-types.js';

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
    const sqlite = this.store.dialect === 'sqlite';
    for (const { name, valid } of existing) {
      if (!wanted.has(name) || !valid) await (sqlite ? this.store.transaction((tx) => this.indexes.drop(tx, name)) : this.store.run((db) => this.indexes.drop(db, name)));
    }
    const present = new Set(existing.filter((index) => index.valid).map((index) => index.name));
    for (const [name, index] of wanted) {
      if (present.has(name)) continue;
      await (sqlite ? this.store.transaction((tx) => this.indexes.create(tx, index)) : this.store.run((db) => this.indexes.create(db, index)));
    }
    await this.store.run((db) => this.indexes.ensureStatistics(db, [...wanted.values()]));
  }
}
