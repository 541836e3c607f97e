// Content model (admins and owners; CONTRACT.md §20): per content type, the list of typed fields —
// add, edit, move up and down, remove. Every change sends the whole list with If-Match on the
// model's version, so a change made meanwhile by someone else is not overwritten; a change the
// stored items do not fit (409, with counts) is explained in words.
import { useState } from 'preact/hooks';
import { api, ApiError, type FieldError } from '../api.js';
import { Button, Confirm, formatDate, Message, PageTitle, Select, Table, useAction, useConfirm, useLoad, type Column } from '../components/index.js';
import { TYPES } from './content-item.js';
import { FieldForm } from './content-model-field-form.js';
import { KIND_TEXT, rulesText, type FieldDefinition, type Model } from './content-model-kinds.js';

const STALE = 'Someone changed this model since you opened it. It is shown as it is now: make your change again.';

const items = (n: number) => (n === 1 ? '1 item' : `${n} items`);

/** A 409's errors in words: which field, how many items stand in the way, and what to do. */
export function conflictWords(errors: (FieldError & { items?: number })[]): string {
  const reasons = errors.map((e) => {
    const name = e.field.replace(/^fields\./, '');
    const n = e.items ?? 0;
    const have = n === 1 ? 'has' : 'have';
    if (e.code === 'required') return `${items(n)} of this type ${have} no value for “${name}”: give the field a default, or fill it in on ${n === 1 ? 'that item' : 'those items'} first.`;
    return `${items(n)} of this type ${n === 1 ? 'holds' : 'hold'} a value for “${name}” that the new definition would refuse: change or clear ${n === 1 ? 'it' : 'them'} first, or keep the old definition.`;
  });
  return `Not saved: the change does not fit the items already written. ${reasons.join(' ')}`;
}

/** The API's `fields[<i>].<key>` of the field being edited, as the form's input `<key>`. */
function forForm(error: ApiError, index: number): ApiError {
  const prefix = `fields[${index}].`;
  return new ApiError(error.status, error.code, error.message, error.errors.map((e) => (e.field.startsWith(prefix) ? { ...e, field: e.field.slice(prefix.length) } : e)));
}

export function ContentModelSection() {
  const [type, setType] = useState('blog');
  const [editing, setEditing] = useState<number | null>(null);
  const model = useLoad(() => api.get<Model>(`/v1/content-types/${type}`).then((r) => r.data), [type]);
  const actions = useAction();
  const current = model.value?.type === type ? model.value : undefined;

  /** Stores `fields` as the model; `index`: the definition a form changed (its 422s go beside its inputs). */
  const store = async (fields: FieldDefinition[], index?: number): Promise<void> => {
    try {
      await api.put<Model>(`/v1/content-types/${type}`, { fields }, `"${current!.version}"`);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.status === 409) throw new ApiError(409, e.code, conflictWords(e.errors), []);
      if (e.status === 412) {
        await model.reload();
        throw new ApiError(412, e.code, STALE, []);
      }
      throw index === undefined ? e : forForm(e, index);
    }
    setEditing(null);
    await model.reload();
  };
  const remove = useConfirm(actions, 'remove', async (field: FieldDefinition) => {
    await store(current!.fields.filter((f) => f.name !== field.name));
    return `Removed the field “${field.name}”.`;
  });
  const move = (from: number, to: number) =>
    actions.run(`move-${from}`, async () => {
      const fields = [...current!.fields];
      const [field] = fields.splice(from, 1);
      fields.splice(to, 0, field!);
      await store(fields);
      return `Moved “${field!.name}” ${to < from ? 'up' : 'down'}.`;
    });

  const fields = current?.fields ?? [];
  const columns: Column<FieldDefinition>[] = [
    { header: 'Name', rowHeader: true, cell: (f) => f.name },
    { header: 'Kind', cell: (f) => KIND_TEXT[f.kind] },
    { header: 'Rules', cell: (f) => rulesText(f) || '—' },
    { header: 'Flags', cell: (f) => [f.required && 'required', f.indexed && 'indexed'].filter(Boolean).join(', ') || '—' },
    {
      header: 'Actions',
      hideHeader: true,
      cell: (f) => {
        const i = fields.indexOf(f);
        return (
          <div class="actions">
            <Button onClick={() => void move(i, i - 1)} disabled={i === 0 || actions.busy !== null} label={`Move ${f.name} up`}>
              ↑
            </Button>
            <Button onClick={() => void move(i, i + 1)} disabled={i === fields.length - 1 || actions.busy !== null} label={`Move ${f.name} down`}>
              ↓
            </Button>
            <Button onClick={() => setEditing(i)} label={`Edit ${f.name}`}>
              Edit
            </Button>
            <Button kind="danger" onClick={() => remove.ask(f)} label={`Remove ${f.name}`}>
              Remove
            </Button>
          </div>
        );
      },
    },
  ];

  return (
    <>
      <PageTitle>Content model</PageTitle>
      <p class="hint">The typed fields items of each content type carry, checked on every write. Changes apply to the items already written: one they do not fit is refused, saying how many items stand in the way.</p>
      <Select label="Content type" options={TYPES} value={type} onValue={(t) => (setType(t), setEditing(null), actions.say({}))} />
      <Message {...actions.outcome} />
      {model.error && <Message error={model.error} />}
      {current && (
        <>
          <section class="card" aria-labelledby="model-fields">
            <h2 id="model-fields">Fields</h2>
            <p class="hint">
              Version {current.version}
              {current.updated_at ? ` · changed ${formatDate(current.updated_at)}` : ' · never changed'}
            </p>
            {fields.length === 0 ? <p>No fields yet: items of this type have a title, a body and nothing else.</p> : <Table rows={fields} rowKey={(f) => f.name} columns={columns} caption="Fields" busy={model.loading} />}
          </section>
          {editing !== null && fields[editing] ? (
            <FieldForm
              key={`${type}-${fields[editing].name}-${current.version}`}
              field={fields[editing]}
              onCancel={() => setEditing(null)}
              onSave={async (field) => {
                const i = editing;
                await store(fields.map((f, j) => (j === i ? field : f)), i);
                // The form closes: the section says it.
                actions.say({ success: `Saved the field “${field.name}”.` });
                return '';
              }}
            />
          ) : (
            <FieldForm
              key={`${type}-new`}
              onSave={async (field) => {
                await store([...fields, field], fields.length);
                return `Added the field “${field.name}”.`;
              }}
            />
          )}
        </>
      )}
      {remove.subject && (
        <Confirm title={`Remove the field “${remove.subject.name}”?`} confirmText="Remove field" {...remove.dialog}>
          <p>Every item of this type loses its value for it (the items' earlier versions keep theirs). This cannot be undone.</p>
        </Confirm>
      )}
    </>
  );
}
