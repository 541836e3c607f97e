// Media (CONTRACT.md §18): upload by drag and drop with progress, a grid of thumbnails (image
// variants), alt text, the Markdown that shows a file in content, and deletion — which, while
// content uses the file, names those items and asks again before deleting anyway (`force`).
import { useState } from 'preact/hooks';
import { api, ApiError, type SessionView } from '../api.js';
import { mayEditAnyContent, mayWriteContent } from '../sections.js';
import { Button, Confirm, Field, formatDate, Link, Loading, Message, PageTitle, ResourceList, Select, useAction, useLoad, type Action } from '../components/index.js';
import { formatSize, isImage, markdownFor, thumbnailUrl, type MediaRecord } from './media-item.js';
import { UploadZone } from './media-upload.js';

const PAGE = 24;

export function MediaSection({ session }: { session: SessionView }) {
  const [q, setQ] = useState('');
  const [type, setType] = useState('');
  const [offset, setOffset] = useState(0);
  const action = useAction();
  const [inUse, setInUse] = useState<{ media: MediaRecord; usedBy: string[] } | null>(null);
  const [doomed, setDoomed] = useState<MediaRecord | null>(null);
  const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (q.trim()) query.set('q', q.trim());
  if (type) query.set('type', type);
  const list = useLoad(() => api.page<MediaRecord>(`/v1/media?${query}`), [q, type, offset]);
  const writer = mayWriteContent(session.user.role);
  const mayChange = (media: MediaRecord) => writer && (mayEditAnyContent(session.user.role) || media.created_by === session.user.id);

  const remove = async (media: MediaRecord, force: boolean) => {
    await action.run(force ? 'delete-anyway' : 'delete', async () => {
      try {
        await api.delete(`/v1/media/${media.id}${force ? '?force=true' : ''}`);
      } catch (error) {
        if (error instanceof ApiError && error.status === 409 && !force) {
          setInUse({ media, usedBy: Array.isArray(error.body.used_by) ? (error.body.used_by as string[]) : [] });
          return;
        }
        throw error;
      } finally {
        setDoomed(null);
      }
      setInUse(null);
      await list.reload();
      return `Deleted ${media.filename}.`;
    });
  };

  return (
    <>
      <PageTitle>Media</PageTitle>
      <p class="lead">Images and files your content shows. Put one in a text with its Markdown: copy it here, or use “Insert image” in the editor.</p>
      {writer && (
        <UploadZone
          onUploaded={(media) => {
            action.say({ success: `Uploaded ${media.filename}.` });
            setOffset(0);
            void list.reload();
          }}
        />
      )}
      <Message {...action.outcome} />
      <form class="filters" role="search" aria-label="Filter media" onSubmit={(e) => e.preventDefault()}>
        <Field label="Search" type="search" value={q} onValue={(v) => (setQ(v), setOffset(0))} />
        <Select
          label="Kind"
          value={type}
          onValue={(v) => (setType(v), setOffset(0))}
          options={[
            ['', 'All kinds'],
            ['image', 'Images'],
            ['document', 'Documents'],
            ['other', 'Other'],
          ]}
        />
      </form>
      <ResourceList
        state={list}
        what="media"
        empty={q || type ? 'No media matches.' : 'No media yet. Upload an image or a file above.'}
        paging={{ offset, size: PAGE, onOffset: setOffset }}
        render={(rows) => (
          <ul class="media-grid" aria-label="Media">
            {rows.map((media) => (
              <MediaCard key={`${media.id}@${media.version}`} media={media} mayChange={mayChange(media)} action={action} onDelete={() => setDoomed(media)} />
            ))}
          </ul>
        )}
      />
      {doomed && (
        <Confirm title={`Delete “${doomed.filename}”?`} confirmText="Delete" busy={action.busy === 'delete'} onAnswer={(yes) => (yes ? void remove(doomed, false) : setDoomed(null))}>
          <p>This cannot be undone.</p>
        </Confirm>
      )}
      {inUse && (
        <Confirm
          title={`“${inUse.media.filename}” is in use`}
          confirmText="Delete anyway"
          busy={action.busy === 'delete-anyway'}
          onAnswer={(yes) => (yes ? void remove(inUse.media, true) : setInUse(null))}
        >
          <p>These items show it; deleting it leaves them with a broken image or link:</p>
          <UsedBy ids={inUse.usedBy} />
        </Confirm>
      )}
    </>
  );
}

/** The items that reference a file, by title, each a link to its editor. */
function UsedBy({ ids }: { ids: string[] }) {
  const titles = useLoad(
    () => Promise.all(ids.slice(0, 20).map((id) => api.get<{ title: string }>(`/v1/content/${id}`).then((r) => r.data.title, () => id))),
    [ids.join()],
  );
  if (!titles.value) return <Loading what="the items" />;
  return (
    <ul class="used-by" aria-label="In use by">
      {ids.slice(0, 20).map((id, i) => (
        <li key={id}>
          <Link href={`/content/${id}`}>{titles.value![i]}</Link>
        </li>
      ))}
      {ids.length > 20 && <li>and {ids.length - 20} more</li>}
    </ul>
  );
}

function MediaCard(props: { media: MediaRecord; mayChange: boolean; action: Action; onDelete: () => void }) {
  const [media, setMedia] = useState(props.media);
  const [alt, setAlt] = useState(media.alt ?? '');
  const [copied, setCopied] = useState<string | null>(null);
  const { action } = props;
  const markdown = markdownFor(media);

  const saveAlt = () =>
    action.run(`alt-${media.id}`, async () => {
      const reply = await api.put<MediaRecord>(`/v1/media/${media.id}`, { alt }, `"${media.version}"`);
      setMedia(reply.data);
      return `Saved the alt text of ${media.filename}.`;
    });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(markdown);
      setCopied(markdown);
      action.say({ success: `Copied ${markdown}` });
    } catch {
      // No clipboard (permission refused): show it to be copied by hand.
      setCopied(markdown);
    }
  };

  return (
    <li class="media-card card">
      <figure>
        {isImage(media) ? (
          <img src={thumbnailUrl(media)} alt={media.alt ?? ''} loading="lazy" />
        ) : (
          <div class="file-icon" aria-hidden="true">
            {media.filename.split('.').pop()?.toUpperCase() ?? 'FILE'}
          </div>
        )}
        <figcaption>
          <strong class="filename">{media.filename}</strong>
          <span class="hint">
            {formatSize(media.size)}
            {media.width !== null && media.height !== null ? ` · ${media.width} × ${media.height}` : ''} · {formatDate(media.created_at)}
            {media.used_by.length ? ` · used by ${media.used_by.length}` : ''}
          </span>
        </figcaption>
      </figure>
      {isImage(media) && (
        <form onSubmit={(e) => (e.preventDefault(), void saveAlt())}>
          <fieldset disabled={!props.mayChange} class="plain">
            <Field label={`Alt text of ${media.filename}`} maxLength={500} value={alt} onValue={setAlt} />
            {props.mayChange && (
              <Button type="submit" busy={action.busy === `alt-${media.id}`} busyText="Saving…" disabled={alt === (media.alt ?? '')}>
                Save alt text
              </Button>
            )}
          </fieldset>
        </form>
      )}
      <div class="actions">
        <Button onClick={() => void copy()} label={`Copy Markdown of ${media.filename}`}>
          Copy Markdown
        </Button>
        {props.mayChange && (
          <Button kind="danger" onClick={props.onDelete} label={`Delete ${media.filename}`}>
            Delete
          </Button>
        )}
      </div>
      {copied && <Field label={`Markdown of ${media.filename}`} value={copied} readOnly onFocus={(e: FocusEvent) => (e.currentTarget as HTMLInputElement).select()} />}
    </li>
  );
}
