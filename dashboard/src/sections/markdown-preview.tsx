// The editor's preview: the text rendered by the server's own Markdown renderer and sanitizer.
import { useEffect, useMemo, useState } from 'preact/hooks';

type Render = (markdown: string) => string;
/**
 * The server's own renderer and sanitizer, so the preview is what GET /v1/content/{id}?render=html
 * returns. Loaded (as a chunk of its own) only when an editor opens: the other pages never need it.
 */
let renderer: Promise<Render> | undefined;
const loadRenderer = () => (renderer ??= import('../../../src/domain/content/markdown.js').then((m) => m.renderMarkdown));

/** `media:media_…` references as the files' addresses here (the session's cookie reads them), so the preview shows the images. */
const withMediaFiles = (markdown: string) => markdown.replace(/\(media:(media_[0-9a-z]{26})(?=[\s)])/g, '(/v1/media/$1/file?w=800');

export function MarkdownPreview(props: { text: string }) {
  const [render, setRender] = useState<Render | null>(null);
  useEffect(() => void loadRenderer().then((loaded) => setRender(() => loaded)), []);
  const html = useMemo(() => (render ? render(withMediaFiles(props.text)) : ''), [render, props.text]);
  return (
    <section class="preview" aria-label="Preview">
      <h2 class="preview-title">Preview</h2>
      {/* Sanitized by an allow-list (no script, style, iframe, event attribute or javascript: URL): safe to insert. */}
      <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />
    </section>
  );
}
