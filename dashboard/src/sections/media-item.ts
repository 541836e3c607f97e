// A media record as the dashboard shows it (CONTRACT.md §18), and the addresses and Markdown made
// from one: a thumbnail is an image variant the service makes once and keeps.

export interface MediaRecord {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  width: number | null;
  height: number | null;
  alt: string | null;
  title: string | null;
  public: boolean;
  url: string | null;
  used_by: string[];
  version: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export const isImage = (media: Pick<MediaRecord, 'content_type'>) => media.content_type.startsWith('image/');

/** The thumbnail: a WebP variant at most `size` pixels wide, never upscaled; an SVG as it is (it scales itself). */
export function thumbnailUrl(media: Pick<MediaRecord, 'id' | 'content_type'>, size = 320): string {
  const file = `/v1/media/${encodeURIComponent(media.id)}/file`;
  return media.content_type === 'image/svg+xml' ? file : `${file}?w=${size}&format=webp`;
}

const escapeText = (text: string) => text.replace(/[[\]\\]/g, '\\$&');

/** The Markdown that shows the image (or links the file) in content. */
export function markdownFor(media: Pick<MediaRecord, 'id' | 'alt' | 'filename' | 'content_type'>): string {
  return isImage(media) ? `![${escapeText(media.alt ?? '')}](media:${media.id})` : `[${escapeText(media.filename)}](media:${media.id})`;
}

/** Bytes in words: 1.4 MB, 820 KB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
