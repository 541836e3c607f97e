// Rendered HTML of content versions (GET /v1/content/{id}?render=html): a version never changes,
// so each is rendered once per instance and kept, least recently used first out, up to a total
// size. The caller has already read the item in its account; the key is the id and version alone.
import { renderMarkdown } from './markdown.js';

export class RenderCache {
  private readonly entries = new Map<string, string>();
  private chars = 0;

  /** `maxChars`: the HTML kept in all, in UTF-16 code units (8 Mi ≈ 16 MB). */
  constructor(private readonly maxChars = 8 * 1024 * 1024) {}

  html(id: string, version: number, markdown: string): string {
    const key = `${id} ${version}`;
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      // Most recently used goes last.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const html = renderMarkdown(markdown);
    if (html.length <= this.maxChars) {
      this.entries.set(key, html);
      this.chars += html.length;
      for (const [oldest, value] of this.entries) {
        if (this.chars <= this.maxChars) break;
        this.entries.delete(oldest);
        this.chars -= value.length;
      }
    }
    return html;
  }
}
