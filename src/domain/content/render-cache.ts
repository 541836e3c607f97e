// Rendered HTML of content versions (GET /v1/content/{id}?render=html): a version never changes,
// so each is rendered once per instance and kept, least recently used first out, up to a total
// size. The caller has already read the item in its account; the key is the id and version alone.
import type { renderMarkdown as Render } from './markdown.js';

// markdown-it and sanitize-html are loaded on the first render: a process that never renders does
// not hold them (≈ 2.5 MB of heap, docs/benchmarks.md "Memory").
let renderer: Promise<typeof Render> | undefined;
const loadRenderer = () => (renderer ??= import('./markdown.js').then((m) => m.renderMarkdown));

export class RenderCache {
  private readonly entries = new Map<string, string>();
  private chars = 0;

  /** `maxChars`: the HTML kept in all, in UTF-16 code units (8 Mi ≈ 16 MB). */
  constructor(private readonly maxChars = 8 * 1024 * 1024) {}

  async html(id: string, version: number, markdown: string): Promise<string> {
    const render = await loadRenderer();
    // From here on synchronous, as before: two requests for one version cannot both miss and both store it.
    const key = `${id} ${version}`;
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      // Most recently used goes last.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const html = render(markdown);
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
