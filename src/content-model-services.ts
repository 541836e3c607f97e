// The content model's part of the composition (docs/content-model.md), kept beside services.ts:
// the models, the typed-fields step every content write runs, and the expression indexes that
// follow the models. The CLI builds this too, so its writes keep the same rules.
import type { ContentWrites } from './domain/content/content-writes.js';
import type { EventLog } from './domain/events/event-log.js';
import type { Clock } from './domain/ids.js';
import { ContentTypes } from './domain/content-model/content-types.js';
import { FieldValidators } from './domain/content-model/field-validator.js';
import { FieldsStep } from './domain/content-model/fields-step.js';
import { ModelChanges } from './domain/content-model/model-changes.js';
import type { PeerRelay } from './domain/peers.js';
import type { ContentRepository } from './storage/content-repository.js';
import { ContentTypeRepository } from './storage/content-type-repository.js';
import type { Store } from './storage/db.js';
import { ContentFieldIndexes } from './storage/content-field-indexes.js';
import { FieldIndexer } from './domain/content-model/field-indexes.js';

export interface ContentModelDeps {
  store: Store;
  clock: Clock;
  events: EventLog;
  writes: ContentWrites;
  content: ContentRepository;
  /** With WORKERS > 1: model changes reach the other workers' caches at once. */
  relay?: PeerRelay;
}

export function openContentModel(deps: ContentModelDeps) {
  const repo = new ContentTypeRepository(deps.store.dialect);
  const validators = new FieldValidators();
  const types = new ContentTypes(deps.store, repo, deps.events, validators, new ModelChanges(repo, validators), deps.clock);
  if (deps.relay) types.relayTo(deps.relay);
  const fields = new FieldsStep(types, validators, deps.content);
  deps.writes.addStep(fields);
  // The expression indexes follow the models changed here (and, at the server's start, any change).
  const indexer = new FieldIndexer(deps.store, repo, new ContentFieldIndexes(deps.store.dialect));
  types.onChange(() => void indexer.reconcile());
  return { types, repo, indexer, fields };
}
