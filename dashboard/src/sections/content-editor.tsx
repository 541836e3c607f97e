// The content editor: create and edit with a Markdown preview; publish, archive, delete; a preview
// link to share the item as the reader will see it. Edits send If-Match, so a change made meanwhile
// by someone else is not overwritten. The type's typed fields have their own inputs (content-fields-form.tsx).
import { useRef, useState } from 'preact/hooks';
import { api, type SessionView } from '../api.js';
import { navigate } from '../router.js';
import { mayEditAnyContent, mayWriteContent } from '../sections.js';
import { Button, Confirm, Field, Form, formatDate, Link, Loading, Message, PageTitle, Select, Submit, TextArea, useConfirm, useForm, useLoad } from '../components/index.js';
import { TYPES, type Item } from './content-item.js';
import { MarkdownPreview } from './markdown-preview.js';
import { fieldInputs, fieldsPayload, TypedFields } from './content-fields-form.js';
import type { Model } from './content-model-kinds.js';
import { MediaPicker } from './media-picker.js';
import { markdownFor } from './media-item.js';

/** A confirmation to show on the next page (a new item opens at its own address). */
let flash: string | null = null;
const takeFlash = () => {
  const success = flash;
  flash = null;
  return { success };
};

const STALE = 'Someone changed this item since you opened it. Reload the page to see their version, then make your change again.';

export function Editor({ session, id }: { session: SessionView; id?: string }) {
  const loaded = useLoad(() => (id ? api.get<Item>(`/v1/content/${id}`).then((r) => r.data) : Promise.resolve(undefined)), [id]);
  if (id && !loaded.value) {
    return (
      <>
        <PageTitle>Content</PageTitle>
        {loaded.error ? <Message error={loaded.error} /> : <Loading what="the item" />}
        <p>
          <Link href="/content">Back to the list</Link>
        </p>
      </>
    );
  }
  return <EditorForm session={session} item={loaded.value} />;
}

function EditorForm({ session, item: initial }: { session: SessionView; item?: Item }) {
  const [item, setItem] = useState<Item | undefined>(initial);
  const [preview, setPreview] = useState<{ url: string; expires_at: string } | null>(null);
  const [picking, setPicking] = useState(false);
  const text = useRef<HTMLDivElement>(null);
  const form = useForm(
    { title: initial?.title ?? '', type: initial?.type ?? 'blog', content: initial?.content ?? '' },
    { initial: takeFlash, explain: (e) => (e.status === 412 ? STALE : undefined) },
  );
  const [typed, setTyped] = useState(() => fieldInputs(initial?.fields));
  const model = useLoad(() => api.get<Model>(`/v1/content-types/${form.values.type}`).then((r) => r.data), [form.values.type]);
  const remove = useConfirm(form, 'delete', async (doomed: Item) => {
    await api.delete(`/v1/content/${doomed.id}`);
    navigate('/content');
    return 'Deleted.';
  });

  const own = item ? item.author === session.user.id : true;
  const mayChange = mayWriteContent(session.user.role) && (mayEditAnyContent(session.user.role) || own);

  const save = async (status?: 'draft' | 'published') => {
    const { title, type, content } = form.values;
    const definitions = model.value?.type === type ? model.value.fields : [];
    const fields = definitions.length ? { fields: fieldsPayload(definitions, typed, !item) } : {};
    if (!item) {
      const reply = await api.post<Item>('/v1/content', { title, type, content, status: status ?? 'draft', ...fields });
      flash = status === 'published' ? 'Created and published.' : 'Created as a draft.';
      navigate(`/content/${reply.data.id}`, true);
      return flash;
    }
    const reply = await api.put<Item>(`/v1/content/${item.id}`, { title, type, content, ...fields, ...(status ? { status } : {}) }, `"${item.version}"`);
    setItem(reply.data);
    setTyped(fieldInputs(reply.data.fields));
    return status === 'published' ? 'Published.' : status === 'draft' ? 'Moved back to draft.' : 'Saved.';
  };
  /** Puts `markdown` where the cursor was in the text (or at its end), on a line of its own, and the cursor after it. */
  const insert = (markdown: string) => {
    setPicking(false);
    const area = text.current?.querySelector('textarea');
    const content = form.values.content;
    const at = area && area.selectionEnd <= content.length ? area.selectionEnd : content.length;
    const before = content.slice(0, at);
    const piece = `${before === '' || before.endsWith('\n') ? '' : '\n'}${markdown}\n`;
    form.set('content', before + piece + content.slice(at));
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(at + piece.length, at + piece.length);
    });
  };
  const makePreview = async (current: Item) => {
    const reply = await api.post<{ url: string; expires_at: string }>(`/v1/content/${current.id}/preview`);
    setPreview(reply.data);
    return 'Preview link made: it shows the item as it is whenever it is opened.';
  };
  const archive = async (current: Item) => {
    const reply = await api.post<Item>(`/v1/content/${current.id}/archive`);
    setItem(reply.data);
    return 'Archived. Save it as a draft to bring it back.';
  };

  return (
    <>
      <PageTitle>{item ? `Edit “${item.title}”` : 'New content'}</PageTitle>
      <p>
        <Link href="/content">Back to the list</Link>
      </p>
      {item && (
        <p class="hint">
          Status <span class={`badge ${item.status}`}>{item.status}</span> · version {item.version} · updated {formatDate(item.updated_at)}
          {item.published_at ? ` · published ${formatDate(item.published_at)}` : ''}
          {item.slug ? ` · slug ${item.slug}` : ''}
          {item.publish_at ? ` · to be published ${formatDate(item.publish_at)}` : ''}
          {item.unpublish_at ? ` · to be archived ${formatDate(item.unpublish_at)}` : ''}
        </p>
      )}
      <Message {...form.outcome} />
      {preview && (
        <div class="card preview-link">
          <p>
            <a href={preview.url} target="_blank" rel="noopener noreferrer">
              Open the preview
            </a>{' '}
            — anyone with this link can read the item, without signing in, until {formatDate(preview.expires_at)}. It stops working if the item is deleted.
          </p>
          <Field label="Preview link" value={preview.url} readOnly />
        </div>
      )}
      <Form form={form} class="card editor" message={false} onSubmit={() => save()}>
        <fieldset disabled={!mayChange} class="plain">
          {!mayChange && <legend class="hint">Your role lets you read this item, not change it.</legend>}
          <Field label="Title" required maxLength={200} {...form.bind('title')} />
          <Select label="Type" options={TYPES} {...form.bind('type')} />
          <TypedFields model={model.value?.type === form.values.type ? model.value : undefined} inputs={typed} onInputs={setTyped} mayUpload={mayChange} />
          <div class="split">
            <div ref={text}>
              <TextArea label="Text (Markdown)" rows={16} {...form.bind('content')} />
              {mayChange && (
                <Button onClick={() => setPicking(true)} label="Insert image">
                  Insert image
                </Button>
              )}
            </div>
            <MarkdownPreview text={form.values.content} />
          </div>
          <div class="actions">
            <Submit busyText="Saving…">{item ? 'Save' : 'Save draft'}</Submit>
            {item?.status !== 'published' && (
              <Button onClick={() => form.run('publish', () => save('published'))} busy={form.busy === 'publish'} busyText="Publishing…">
                Publish
              </Button>
            )}
            {item && mayWriteContent(session.user.role) && (
              <Button onClick={() => form.run('preview', () => makePreview(item))} busy={form.busy === 'preview'} busyText="Making a link…">
                Preview
              </Button>
            )}
            {item && item.status !== 'archived' && (
              <Button onClick={() => form.run('archive', () => archive(item))} busy={form.busy === 'archive'} busyText="Archiving…">
                Archive
              </Button>
            )}
            {item && item.status === 'archived' && (
              <Button onClick={() => form.run('draft', () => save('draft'))} busy={form.busy === 'draft'} busyText="Saving…">
                Back to draft
              </Button>
            )}
            {item && (
              <Button kind="danger" onClick={() => remove.ask(item)}>
                Delete
              </Button>
            )}
          </div>
        </fieldset>
      </Form>
      {picking && <MediaPicker title="Insert image" verb="Insert" imagesOnly mayUpload={mayChange} onPick={(media) => insert(markdownFor(media))} onClose={() => setPicking(false)} />}
      {remove.subject && (
        <Confirm title={`Delete “${remove.subject.title}”?`} confirmText="Delete permanently" {...remove.dialog}>
          <p>This cannot be undone. To keep it but hide it, archive it instead.</p>
        </Confirm>
      )}
    </>
  );
}
