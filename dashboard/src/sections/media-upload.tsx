// Uploading files: a drop zone that is also a "Choose files" button, and one progress bar per file
// as its bytes leave (XMLHttpRequest's upload progress). Used by the Media section and by the
// editor's "Insert image" dialog.
import { useRef, useState } from 'preact/hooks';
import { describeError, upload } from '../api.js';
import { Message, ProgressBar } from '../components/index.js';
import type { MediaRecord } from './media-item.js';

interface Sending {
  key: number;
  name: string;
  sent: number;
  total: number;
  error?: string;
}

let counter = 0;

export function UploadZone(props: { onUploaded: (media: MediaRecord) => void; accept?: string; label?: string }) {
  const [sending, setSending] = useState<Sending[]>([]);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const change = (key: number, patch: Partial<Sending>) => setSending((all) => all.map((s) => (s.key === key ? { ...s, ...patch } : s)));

  const send = async (file: File) => {
    const key = ++counter;
    setSending((all) => [...all, { key, name: file.name, sent: 0, total: file.size }]);
    const form = new FormData();
    form.set('file', file, file.name);
    try {
      const media = await upload<MediaRecord>('/v1/media', form, (sent, total) => change(key, { sent, total }));
      setSending((all) => all.filter((s) => s.key !== key));
      props.onUploaded(media);
    } catch (error) {
      change(key, { error: `${file.name}: ${describeError(error)}` });
    }
  };
  const sendAll = (files: FileList | null | undefined) => {
    for (const file of Array.from(files ?? [])) void send(file);
  };

  return (
    <div class="upload">
      <div
        class={`drop-zone${over ? ' over' : ''}`}
        onDragOver={(e) => (e.preventDefault(), setOver(true))}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          sendAll(e.dataTransfer?.files);
        }}
      >
        <p>Drop files here, or</p>
        <button type="button" class="button secondary" onClick={() => input.current?.click()}>
          {props.label ?? 'Choose files'}
        </button>
        <input
          ref={input}
          type="file"
          multiple
          accept={props.accept}
          class="visually-hidden"
          aria-label={props.label ?? 'Choose files'}
          tabIndex={-1}
          onChange={(e) => {
            const target = e.currentTarget as HTMLInputElement;
            sendAll(target.files);
            target.value = '';
          }}
        />
      </div>
      {sending.map((s) =>
        s.error ? (
          <Message key={s.key} error={s.error} />
        ) : (
          <div key={s.key} class="uploading">
            <span>Uploading {s.name}…</span>
            <ProgressBar value={s.sent} max={Math.max(s.total, 1)} label={`Uploading ${s.name}`} />
          </div>
        ),
      )}
    </div>
  );
}
