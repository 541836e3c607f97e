// The content editor's inputs for the typed fields of the item's type (CONTRACT.md §20): one input
// by kind (date and time pickers, choices as selects, a search for references, long text as a text
// area, lists one element per line, media chosen from the library), named `fields.<name>` so the
// API's errors stand beside them.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Button, Checkboxes, Field, Labelled, Select, TextArea } from '../components/index.js';
import type { Item } from './content-item.js';
import { MediaPicker } from './media-picker.js';
import { elementKind, localInput, typedValue, type FieldDefinition, type Model } from './content-model-kinds.js';

/** What the inputs hold: a text per field, a list of texts per list field. */
export type FieldInputs = Record<string, string | string[]>;

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;
const asInput = (value: unknown): string => (typeof value === 'string' && ISO_TIME.test(value) ? localInput(value) : String(value));

/** An item's stored fields as the inputs hold them. */
export function fieldInputs(fields: Record<string, unknown> = {}): FieldInputs {
  return Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, Array.isArray(value) ? value.map(asInput) : asInput(value)]));
}

/**
 * The `fields` to send: typed values of the model's fields; an empty input is left out of a new
 * item (its default applies) and sent as null on an edit (the value is removed).
 */
export function fieldsPayload(definitions: FieldDefinition[], inputs: FieldInputs, creating: boolean): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const field of definitions) {
    const raw = inputs[field.name];
    const element = elementKind(field);
    let value: unknown;
    if (field.kind === 'list') {
      const list = (Array.isArray(raw) ? raw : []).map((text) => text.trim()).filter(Boolean).map((text) => typedValue(element, text));
      value = list.length ? list : undefined;
    } else value = typedValue(element, typeof raw === 'string' ? raw : '');
    if (value !== undefined) payload[field.name] = value;
    else if (!creating) payload[field.name] = null;
  }
  return payload;
}

export function TypedFields(props: { model: Model | undefined; inputs: FieldInputs; onInputs: (inputs: FieldInputs) => void; mayUpload: boolean }) {
  const { model, inputs } = props;
  if (!model || model.fields.length === 0) return null;
  const set = (name: string, value: string | string[]) => props.onInputs({ ...inputs, [name]: value });
  return (
    <fieldset class="plain typed-fields">
      <legend>Fields of this type</legend>
      {model.fields.map((field) => (
        <FieldInput key={field.name} field={field} value={inputs[field.name]} onValue={(value) => set(field.name, value)} mayUpload={props.mayUpload} />
      ))}
    </fieldset>
  );
}

function FieldInput({ field, value, onValue, mayUpload }: { field: FieldDefinition; value: string | string[] | undefined; onValue: (value: string | string[]) => void; mayUpload: boolean }) {
  const name = `fields.${field.name}`;
  const label = `${field.name}${field.required ? ' (required)' : ''}`;
  const hint = field.description;
  const element = elementKind(field);
  const text = typeof value === 'string' ? value : '';
  const list = Array.isArray(value) ? value : [];
  if (field.kind === 'list') {
    if (element === 'enum') return <Checkboxes legend={label} hint={hint} name={name} options={(field.values ?? []).map((v) => [v, v])} value={list} onValue={onValue} />;
    return (
      <>
        <TextArea label={`${label} — one per line`} hint={hint} name={name} rows={3} value={list.join('\n')} onValue={(t) => onValue(t.split('\n'))} />
        {element === 'reference' && <ReferenceSearch field={field} onChoose={(id) => onValue([...list.filter((l) => l.trim()), id])} />}
        {element === 'media' && <ChooseMedia field={field} label={`Add a file to ${field.name}`} mayUpload={mayUpload} onChoose={(id) => onValue([...list.filter((l) => l.trim()), id])} />}
      </>
    );
  }
  const bind = { label, hint, name, value: text, onValue };
  switch (element) {
    case 'text':
      return <TextArea {...bind} rows={4} />;
    case 'integer':
    case 'number':
      return <Field {...bind} type="number" step={element === 'integer' ? '1' : 'any'} min={field.min as number | undefined} max={field.max as number | undefined} />;
    case 'date':
      return <Field {...bind} type="date" />;
    case 'datetime':
      return <Field {...bind} type="datetime-local" />;
    case 'url':
      return <Field {...bind} type="url" />;
    case 'boolean':
      return <Select {...bind} options={[['', '—'], ['true', 'Yes'], ['false', 'No']]} />;
    case 'enum':
      return <Select {...bind} options={[['', '— none —'], ...(field.values ?? []).map((v): [string, string] => [v, v])]} />;
    case 'reference':
      return (
        <>
          <Field {...bind} hint={hint ?? 'The id of a content item; search below to find one.'} />
          <ReferenceSearch field={field} onChoose={onValue} />
        </>
      );
    case 'media':
      return (
        <>
          <Field {...bind} hint={hint ?? 'The id of a media record (media_…); choose one from the library below.'} />
          <ChooseMedia field={field} label={`Choose a file for ${field.name}`} mayUpload={mayUpload} onChoose={onValue} />
        </>
      );
    default:
      return <Field {...bind} />;
  }
}

/** A button that opens the media library (every kind of file) and hands back the chosen record's id. */
function ChooseMedia(props: { field: FieldDefinition; label: string; mayUpload: boolean; onChoose: (id: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <div class="reference-search">
      <Button onClick={() => setOpen(true)}>{props.label}</Button>
      {open && (
        <MediaPicker
          title={`Media for ${props.field.name}`}
          verb="Choose"
          imagesOnly={false}
          mayUpload={props.mayUpload}
          onPick={(media) => (setOpen(false), props.onChoose(media.id))}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  );
}

/** Finds content items (of the types the field allows) by words, to choose one as the reference. */
function ReferenceSearch(props: { field: FieldDefinition; onChoose: (id: string) => void }) {
  const [q, setQ] = useState('');
  const [found, setFound] = useState<Item[] | null>(null);
  const [busy, setBusy] = useState(false);
  const types = props.field.types ?? [];
  const search = async () => {
    if (!q.trim()) return;
    setBusy(true);
    try {
      const type = types.length === 1 ? `&type=${types[0]}` : '';
      const page = await api.page<Item>(`/v1/content?q=${encodeURIComponent(q)}${type}&limit=10`);
      setFound(page.data.filter((item) => types.length === 0 || types.includes(item.type)));
    } catch {
      setFound([]);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="reference-search">
      <Labelled label={`Find an item for ${props.field.name}`}>
        {(control) => (
          <div class="inline">
            <input {...control} type="search" value={q} onInput={(e) => setQ((e.currentTarget as HTMLInputElement).value)} onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), void search())} />
            <Button onClick={() => void search()} busy={busy} busyText="Searching…" label={`Search items for ${props.field.name}`}>
              Search
            </Button>
          </div>
        )}
      </Labelled>
      {found && (found.length === 0 ? <p class="hint">No items found.</p> : (
        <ul class="plain">
          {found.map((item) => (
            <li key={item.id}>
              <Button kind="link" onClick={() => (props.onChoose(item.id), setFound(null), setQ(''))} label={`Choose ${item.title}`}>
                {item.title} ({item.type})
              </Button>
            </li>
          ))}
        </ul>
      ))}
    </div>
  );
}
