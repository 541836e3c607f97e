// Content: browse with filters and paging; create and edit with a Markdown preview; publish,
// archive, delete. Edits send If-Match, so a change made meanwhile by someone else is not overwritten.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError, describeError, type SessionView } from '../api.js';
import { navigate } from '../router.js';
import { mayEditAnyContent, mayWriteContent } from '../sections.js';
import { Button, Confirm, Field, formatDate, Link, Loading, Message, PageTitle, Select, useId, useLoad } from '../ui.js';
import { Pager } from './users.js';

type Render = (markdown: string) => string;
/**
 * The server's own renderer and sanitizer, so the preview is what GET /v1/content/{id}?render=html
 * returns. Loaded (as a chunk of its own) only when an editor opens: the other pages never need it.
 */
let renderer: Promise<Render> | undefined;
const loadRenderer = () => (renderer ??= import('../../../src/domain/content/markdown.js').then((m) => m.renderMarkdown));

interface Item {
  id: string;
  title: string;
  type: string;
  status: 'draft' | 'published' | 'archived';
  author: string;
  content?: string;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  version: number;
}

const TYPES: [string, string][] = [
  ['blog', 'Blog post'],
  ['manual', 'Manual'],
  ['whitepaper', 'White paper'],
  ['strategy', 'Strategy document'],
];
const PAGE = 10;

/** A confirmation to show on the next page (a new item opens at its own address). */
let flash: string | null = null;

export function ContentSection({ session, path }: { session: SessionView; path: string }) {
  if (path === '/content/new') return <Editor session={session} />;
  const id = /^\/content\/([^/]+)$/.exec(path)?.[1];
  if (id) return <Editor session={session} id={decodeURIComponent(id)} key={id} />;
  return <ContentList session={session} />;
}

function ContentList({ session }: { session: SessionView }) {
  const [type, setType] = useState('');
  const [status, setStatus] = useState('');
  const [offset, setOffset] = useState(0);
  const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (type) query.set('type', type);
  if (status) query.set('status', status);
  const items = useLoad(() => api.page<Item>(`/v1/content?${query}`), [type, status, offset]);
  return (
    <>
      <PageTitle>Content</PageTitle>
      {mayWriteContent(session.user.role) && (
        <p>
          <Link href="/content/new" class="button primary">
            New content
          </Link>
        </p>
      )}
      <form class="filters" role="search" aria-label="Filter content" onSubmit={(e) => e.preventDefault()}>
        <Select label="Type" value={type} onChange={(v) => (setType(v), setOffset(0))} options={[['', 'All types'], ...TYPES]} />
        <Select
          label="Status"
          value={status}
          onChange={(v) => (setStatus(v), setOffset(0))}
          options={[
            ['', 'All statuses'],
            ['draft', 'Draft'],
            ['published', 'Published'],
            ['archived', 'Archived'],
          ]}
        />
      </form>
      {items.error ? (
        <Message error={items.error} />
      ) : !items.value ? (
        <Loading what="content" />
      ) : items.value.data.length === 0 ? (
        <p>Nothing matches these filters.</p>
      ) : (
        <>
          <div class="table-wrap" aria-busy={items.loading}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Type</th>
                  <th scope="col">Status</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {items.value.data.map((item) => (
                  <tr key={item.id}>
                    <th scope="row">
                      <Link href={`/content/${item.id}`}>{item.title}</Link>
                    </th>
                    <td>{TYPES.find(([t]) => t === item.type)?.[1] ?? item.type}</td>
                    <td>
                      <span class={`badge ${item.status}`}>{item.status}</span>
                    </td>
                    <td>{formatDate(item.updated_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager total={items.value.pagination.total} offset={offset} size={PAGE} onOffset={setOffset} what="content" />
        </>
      )}
    </>
  );
}

function Editor({ session, id }: { session: SessionView; id?: string }) {
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
  const [title, setTitle] = useState(initial?.title ?? '');
  const [type, setType] = useState(initial?.type ?? 'blog');
  const [text, setText] = useState(initial?.content ?? '');
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ error?: string; success?: string }>(() => {
    const success = flash ?? undefined;
    flash = null;
    return { success };
  });
  const [confirmDelete, setConfirmDelete] = useState(false);
  const textId = useId('body');
  const [render, setRender] = useState<Render | null>(null);
  useEffect(() => void loadRenderer().then((loaded) => setRender(() => loaded)), []);
  const preview = useMemo(() => (render ? render(text) : ''), [render, text]);

  const own = item ? item.author === session.user.id : true;
  const mayChange = mayWriteContent(session.user.role) && (mayEditAnyContent(session.user.role) || own);
  const run = async (what: string, work: () => Promise<string>) => {
    setBusy(what);
    setMessage({});
    try {
      setMessage({ success: await work() });
    } catch (e) {
      const stale = e instanceof ApiError && e.status === 412;
      setMessage({ error: stale ? 'Someone changed this item since you opened it. Reload the page to see their version, then make your change again.' : describeError(e) });
    } finally {
      setBusy(null);
    }
  };

  const save = (status?: 'draft' | 'published') =>
    run(status === 'published' ? 'publish' : 'save', async () => {
      if (!item) {
        const reply = await api.post<Item>('/v1/content', { title, type, content: text, status: status ?? 'draft' });
        flash = status === 'published' ? 'Created and published.' : 'Created as a draft.';
        navigate(`/content/${reply.data.id}`, true);
        return flash;
      }
      const reply = await api.put<Item>(`/v1/content/${item.id}`, { title, type, content: text, ...(status ? { status } : {}) }, `"${item.version}"`);
      setItem(reply.data);
      return status === 'published' ? 'Published.' : status === 'draft' ? 'Moved back to draft.' : 'Saved.';
    });

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
        </p>
      )}
      <Message error={message.error} success={message.success} />
      <form
        class="card editor"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        noValidate
      >
        <fieldset disabled={!mayChange} class="plain">
          {!mayChange && <legend class="hint">Your role lets you read this item, not change it.</legend>}
          <Field label="Title" required maxLength={200} value={title} onInput={(e) => setTitle((e.currentTarget as HTMLInputElement).value)} />
          <Select label="Type" value={type} onChange={setType} options={TYPES} />
          <div class="split">
            <div class="field">
              <label for={textId}>Text (Markdown)</label>
              <textarea id={textId} rows={16} value={text} onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)} />
            </div>
            <section class="preview" aria-label="Preview">
              <h2 class="preview-title">Preview</h2>
              {/* Sanitized by an allow-list (no script, style, iframe, event attribute or javascript: URL): safe to insert. */}
              <div class="markdown" dangerouslySetInnerHTML={{ __html: preview }} />
            </section>
          </div>
          <div class="actions">
            <Button kind="primary" type="submit" busy={busy === 'save'} busyText="Saving…">
              {item ? 'Save' : 'Save draft'}
            </Button>
            {item?.status !== 'published' && (
              <Button onClick={() => save('published')} busy={busy === 'publish'} busyText="Publishing…">
                Publish
              </Button>
            )}
            {item && item.status !== 'archived' && (
              <Button
                onClick={() =>
                  run('archive', async () => {
                    const reply = await api.post<Item>(`/v1/content/${item.id}/archive`);
                    setItem(reply.data);
                    return 'Archived. Save it as a draft to bring it back.';
                  })
                }
                busy={busy === 'archive'}
                busyText="Archiving…"
              >
                Archive
              </Button>
            )}
            {item && item.status === 'archived' && (
              <Button onClick={() => save('draft')} busy={busy === 'save'} busyText="Saving…">
                Back to draft
              </Button>
            )}
            {item && (
              <Button kind="danger" onClick={() => setConfirmDelete(true)}>
                Delete
              </Button>
            )}
          </div>
        </fieldset>
      </form>
      {confirmDelete && item && (
        <Confirm
          title={`Delete “${item.title}”?`}
          confirmText="Delete permanently"
          busy={busy === 'delete'}
          onAnswer={(yes) => {
            if (!yes) return setConfirmDelete(false);
            void run('delete', async () => {
              await api.delete(`/v1/content/${item.id}`);
              setConfirmDelete(false);
              navigate('/content');
              return 'Deleted.';
            });
          }}
        >
          <p>This cannot be undone. To keep it but hide it, archive it instead.</p>
        </Confirm>
      )}
    </>
  );
}
