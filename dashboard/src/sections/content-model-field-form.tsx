// The form that adds a field to a content model or edits one: the keys a kind takes, and nothing
// else, turned into the definition the API checks (its 422s stand beside these inputs).
import { Button, Checkboxes, Field, Form, Labelled, Select, Submit, TextArea, useForm } from '../components/index.js';
import { TYPES } from './content-item.js';
import { elementKind, KIND_TEXT, KINDS, lines, typedValue, type FieldDefinition, type Kind } from './content-model-kinds.js';

const ELEMENT_KINDS = KINDS.filter((k) => k !== 'list') as Exclude<Kind, 'list'>[];
const LENGTH_KINDS: Kind[] = ['string', 'text', 'url'];
const BOUND_KINDS: Kind[] = ['integer', 'number', 'date', 'datetime'];
const NO_DEFAULT: Kind[] = ['reference', 'media'];

function valuesOf(field?: FieldDefinition) {
  const text = (v: unknown) => (v === undefined ? '' : String(v));
  return {
    name: field?.name ?? '',
    kind: (field?.kind ?? 'string') as string,
    of: (field?.of ?? 'string') as string,
    required: field?.required ?? false,
    indexed: field?.indexed ?? false,
    description: field?.description ?? '',
    default: field?.default === undefined ? '' : Array.isArray(field.default) ? field.default.join('\n') : String(field.default),
    max_length: text(field?.max_length),
    min: text(field?.min),
    max: text(field?.max),
    values: (field?.values ?? []).join('\n'),
    types: field?.types ?? [],
  };
}
export type FieldFormValues = ReturnType<typeof valuesOf>;

/** The definition the form's values make: only the keys its kind takes, and only those filled in. */
export function definitionOf(v: FieldFormValues): FieldDefinition {
  const kind = v.kind as Kind;
  const field: FieldDefinition = { name: v.name.trim(), kind };
  if (kind === 'list') field.of = v.of as Exclude<Kind, 'list'>;
  const element = elementKind(field);
  if (v.required) field.required = true;
  if (v.indexed) field.indexed = true;
  if (v.description.trim()) field.description = v.description.trim();
  if (LENGTH_KINDS.includes(element) && v.max_length.trim()) field.max_length = typedValue('integer', v.max_length) as number;
  if (BOUND_KINDS.includes(element)) {
    const bound = (text: string) => (element === 'integer' || element === 'number' ? typedValue(element, text) : text.trim() || undefined) as number | string | undefined;
    if (v.min.trim()) field.min = bound(v.min);
    if (v.max.trim()) field.max = bound(v.max);
  }
  if (element === 'enum') field.values = lines(v.values);
  if (element === 'reference' && v.types.length) field.types = v.types;
  if (!NO_DEFAULT.includes(element) && v.default.trim()) {
    field.default = kind === 'list' ? lines(v.default).map((line) => typedValue(element, line)) : typedValue(element, v.default);
  }
  return field;
}

export function FieldForm(props: { field?: FieldDefinition; onSave: (field: FieldDefinition) => Promise<string>; onCancel?: () => void }) {
  const form = useForm(valuesOf(props.field));
  const v = form.values;
  const element = elementKind({ kind: v.kind as Kind, of: v.of as Exclude<Kind, 'list'> });
  const editing = props.field !== undefined;
  const submit = async () => {
    const said = await props.onSave(definitionOf(form.values));
    if (!editing) form.reset();
    return said;
  };
  return (
    <Form form={form} title={editing ? `Edit the field “${props.field!.name}”` : 'Add a field'} onSubmit={submit}>
      <div class="grid-2">
        <Field
          label="Name"
          required
          maxLength={40}
          hint={`a–z first, then a–z, 0–9 and _ (up to 40); how the API and imports name it.${editing ? ' A new name is a new field: items lose the values they hold under the old one.' : ''}`}
          {...form.bind('name')}
        />
        <Select label="Kind" options={KINDS.map((k) => [k, KIND_TEXT[k]])} {...form.bind('kind')} />
      </div>
      {v.kind === 'list' && <Select label="Kind of each element" options={ELEMENT_KINDS.map((k) => [k, KIND_TEXT[k]])} {...form.bind('of')} />}
      <Field label="Description (optional)" maxLength={500} hint="Shown under the field in the content editor." {...form.bind('description')} />
      <div class="grid-2">
        <Labelled label="Required" name="required" hint="Every item must have a value.">
          {(control) => <input type="checkbox" {...control} checked={v.required} onChange={(e) => form.set('required', (e.currentTarget as HTMLInputElement).checked)} />}
        </Labelled>
        <Labelled label="Indexed" name="indexed" hint="Lists can filter and sort by it (not for long text or media).">
          {(control) => <input type="checkbox" {...control} checked={v.indexed} onChange={(e) => form.set('indexed', (e.currentTarget as HTMLInputElement).checked)} />}
        </Labelled>
      </div>
      {element === 'enum' && <TextArea label="Choices (one per line)" rows={4} {...form.bind('values')} />}
      {LENGTH_KINDS.includes(element) && <Field label="Most characters (optional)" inputMode="numeric" {...form.bind('max_length')} />}
      {BOUND_KINDS.includes(element) && (
        <div class="grid-2">
          <Field label="Lowest (optional)" hint={element === 'date' ? 'YYYY-MM-DD' : element === 'datetime' ? 'ISO 8601, e.g. 2026-01-31T09:00:00Z' : undefined} {...form.bind('min')} />
          <Field label="Highest (optional)" {...form.bind('max')} />
        </div>
      )}
      {element === 'reference' && <Checkboxes legend="Content types it may point to" hint="None ticked: any type." options={TYPES} {...form.bind('types')} />}
      {!NO_DEFAULT.includes(element) &&
        (v.kind === 'list' ? (
          <TextArea label="Default (optional, one element per line)" rows={3} {...form.bind('default')} />
        ) : (
          <Field label="Default (optional)" hint={element === 'boolean' ? 'true or false' : 'Given to new items that leave the field empty.'} {...form.bind('default')} />
        ))}
      <div class="actions">
        <Submit busyText="Saving…">{editing ? 'Save field' : 'Add field'}</Submit>
        {props.onCancel && <Button onClick={props.onCancel}>Cancel</Button>}
      </div>
    </Form>
  );
}
