// The editor's "Insert image": a dialog with the account's images (newest first, searchable) and an
// upload zone; choosing one hands back its Markdown reference, `![alt](media:media_…)`.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { Button, Field, ResourceList, useId, useLoad } from '../components/index.js';
import { markdownFor, thumbnailUrl, type MediaRecord } from './media-item.js';
import { UploadZone } from './media-upload.js';

const PAGE = 12;

export function MediaPicker(props: { onPick: (markdown: string) => void; onClose: () => void; mayUpload: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId('dialog');
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const query = new URLSearchParams({ type: 'image', limit: String(PAGE), offset: String(offset) });
  if (q.trim()) query.set('q', q.trim());
  const list = useLoad(() => api.page<MediaRecord>(`/v1/media?${query}`), [q, offset]);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  const pick = (media: MediaRecord) => props.onPick(markdownFor(media));

  return (
    <dialog ref={ref} class="media-picker" aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), props.onClose())}>
      <h2 id={titleId}>Insert image</h2>
      {props.mayUpload && <UploadZone accept="image/*" label="Upload an image" onUploaded={pick} />}
      <Field label="Search images" type="search" value={q} onValue={(v) => (setQ(v), setOffset(0))} />
      <ResourceList
        state={list}
        what="images"
        empty="No images yet: upload one."
        paging={{ offset, size: PAGE, onOffset: setOffset }}
        render={(rows) => (
          <ul class="media-grid small" aria-label="Images">
            {rows.map((media) => (
              <li key={media.id}>
                <button type="button" class="pick" onClick={() => pick(media)} aria-label={`Insert ${media.filename}`}>
                  <img src={thumbnailUrl(media, 160)} alt={media.alt ?? ''} loading="lazy" />
                  <span>{media.filename}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      />
      <div class="actions">
        <Button onClick={props.onClose}>Cancel</Button>
      </div>
    </dialog>
  );
}
