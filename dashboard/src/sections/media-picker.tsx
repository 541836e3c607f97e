// Choosing media from the account's library (newest first, searchable) or uploading a new file:
// the editor's "Insert image" (images only, handing back the Markdown reference) and the typed-field
// form's media fields (any file, handing back its id) both use this one dialog.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { Button, Field, ResourceList, useId, useLoad } from '../components/index.js';
import { isImage, thumbnailUrl, type MediaRecord } from './media-item.js';
import { UploadZone } from './media-upload.js';

const PAGE = 12;

export interface MediaPickerProps {
  /** The dialog's title, and the name a screen reader gives it. */
  title: string;
  /** Only images (the editor's Insert image), or every file (a media field). */
  imagesOnly: boolean;
  /** What choosing one does, in each file's button name: "Insert sunset.png", "Choose manual.pdf". */
  verb: string;
  onPick: (media: MediaRecord) => void;
  onClose: () => void;
  mayUpload: boolean;
}

export function MediaPicker(props: MediaPickerProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId('dialog');
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (props.imagesOnly) query.set('type', 'image');
  if (q.trim()) query.set('q', q.trim());
  const list = useLoad(() => api.page<MediaRecord>(`/v1/media?${query}`), [q, offset]);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  const what = props.imagesOnly ? 'images' : 'files';

  return (
    <dialog ref={ref} class="media-picker" aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), props.onClose())}>
      <h2 id={titleId}>{props.title}</h2>
      {props.mayUpload && (
        <UploadZone accept={props.imagesOnly ? 'image/*' : undefined} label={props.imagesOnly ? 'Upload an image' : 'Upload a file'} onUploaded={props.onPick} />
      )}
      <Field label={`Search ${what}`} type="search" value={q} onValue={(v) => (setQ(v), setOffset(0))} />
      <ResourceList
        state={list}
        what={what}
        empty={`No ${what} yet: upload one.`}
        paging={{ offset, size: PAGE, onOffset: setOffset }}
        render={(rows) => (
          <ul class="media-grid small" aria-label={props.imagesOnly ? 'Images' : 'Files'}>
            {rows.map((media) => (
              <li key={media.id}>
                <button type="button" class="pick" onClick={() => props.onPick(media)} aria-label={`${props.verb} ${media.filename}`}>
                  {isImage(media) ? <img src={thumbnailUrl(media, 160)} alt={media.alt ?? ''} loading="lazy" /> : <span class="file-icon" aria-hidden="true">{media.content_type}</span>}
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
