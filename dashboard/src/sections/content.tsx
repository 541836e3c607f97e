// Content: the list at /content, the editor at /content/new and /content/<id>.
import type { SessionView } from '../api.js';
import { ContentList } from './content-list.js';
import { Editor } from './content-editor.js';

export function ContentSection({ session, path }: { session: SessionView; path: string }) {
  if (path === '/content/new') return <Editor session={session} />;
  const id = /^\/content\/([^/]+)$/.exec(path)?.[1];
  if (id) return <Editor session={session} id={decodeURIComponent(id)} key={id} />;
  return <ContentList session={session} />;
}
