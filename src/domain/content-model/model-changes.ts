// What a model change means for the items already written (CONTRACT.md §20), inside the change's
// transaction: a field that becomes required (without a default) must be held by every item, and a
// field whose rules change (kind, limits, values…) must still accept every stored value; otherwise
// 409 naming `fields.<name>` with the number of items in the way. A removed field is dropped from
// the items without a new version or event (their revisions keep it). When the set of text fields
// changes, the items' searchable text (search-text.ts) is made again in the same transaction.
import type { Tx } from '../../storage/db.js';
import type { ContentTypeRepository } from '../../storage/content-type-repository.js';
import { DomainError, type FieldError } from '../errors.js';
import type { FieldDefinition } from '../schemas/content-types.js';
import type { FieldValidators } from './field-validator.js';
import { textFieldNames } from './search-text.js';

/** A 409's entry: the field and how many items hold values that stop it. */
export type BlockedField = FieldError & { items: number };

const PAGE = 1000;
/** The rules a value must meet: a change in any of them re-checks the stored values. */
const RULES = ['kind', 'max_length', 'min', 'max', 'values', 'of', 'types'] as const;

export class ModelChanges {
  constructor(
    private readonly repo: ContentTypeRepository,
    private readonly validators: FieldValidators,
  ) {}

  async apply(tx: Tx, accountId: string, type: string, before: FieldDefinition[], after: FieldDefinition[]): Promise<void> {
    const blocked: BlockedField[] = [];
    for (const field of after) {
      const was = before.find((f) => f.name === field.name);
      const name = `fields.${field.name}`;
      if (field.required && field.default === undefined && !(was?.required)) {
        const items = await this.repo.countWithout(tx, accountId, type, field.name);
        if (items > 0) blocked.push({ field: name, code: 'required', items, message: `${items} item(s) have no ${field.name}: give the field a default or fill it in those items first.` });
      }
      if (was && RULES.some((rule) => JSON.stringify(was[rule]) !== JSON.stringify(field[rule]))) {
        const items = await this.misfits(tx, accountId, type, field);
        if (items > 0) blocked.push({ field: name, code: 'invalid_value', items, message: `${items} item(s) hold a ${field.name} that the new definition would refuse: change or clear them first.` });
      }
    }
    if (blocked.length) throw new DomainError('conflict', 'The model change does not fit the items already written; see errors for each field and the number of items.', blocked);
    for (const field of before) {
      if (!after.some((f) => f.name === field.name)) await this.repo.removeField(tx, accountId, type, field.name);
    }
    await this.reindexText(tx, accountId, type, before, after);
  }

  /** The searchable text of the items, when the model's text fields change (one statement over the type's items). */
  private async reindexText(tx: Tx, accountId: string, type: string, before: FieldDefinition[], after: FieldDefinition[]): Promise<void> {
    const was = textFieldNames(before);
    const now = textFieldNames(after);
    if (was.length === now.length && was.every((name, i) => now[i] === name)) return;
    const texts = now.map((name) => ({ name, list: after.find((field) => field.name === name)!.kind === 'list' }));
    await this.repo.reindexText(tx, accountId, type, texts);
  }

  /** How many of the items' stored values of `field` its new definition refuses (read in pages by id). */
  private async misfits(tx: Tx, accountId: string, type: string, field: FieldDefinition): Promise<number> {
    let count = 0;
    for (let after = ''; ; ) {
      const page = await this.repo.values(tx, accountId, type, field.name, after, PAGE);
      for (const { value } of page) if (this.validators.validateValue(field, value, field.name).length > 0) count++;
      if (page.length < PAGE) return count;
      after = page[page.length - 1]!.id;
    }
  }
}
