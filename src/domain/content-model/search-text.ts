// Text fields are searchable (issue 25 item 5): the values of an item's `text`-kind fields (and of
// lists of text), one per line, are stored beside the item (`content.fields_text`) and indexed by
// the search as part of its body. Kept by every write (fields-step.ts) and every model change that
// makes a field text or stops it being text (model-changes.ts), so it always follows the model.
import type { FieldDefinition } from '../schemas/content-types.js';

/** The names of the model's text fields. */
export function textFieldNames(definitions: readonly FieldDefinition[]): string[] {
  return definitions.filter((field) => field.kind === 'text' || (field.kind === 'list' && field.of === 'text')).map((field) => field.name);
}

/** The searchable text of `fields` under the model `definitions` ('' when it holds no text field). */
export function searchText(definitions: readonly FieldDefinition[], fields: Readonly<Record<string, unknown>>): string {
  const values: string[] = [];
  for (const name of textFieldNames(definitions)) {
    const value = fields[name];
    if (typeof value === 'string') values.push(value);
    else if (Array.isArray(value)) for (const element of value) if (typeof element === 'string') values.push(element);
  }
  return values.join('\n');
}
