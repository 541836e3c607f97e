// Stands in for postcss in the dashboard's bundle: sanitize-html imports it to parse style
// attributes, which the shared allow-list (src/domain/content/markdown.ts) never allows or parses.
export function parse(): never {
  throw new Error('postcss is not bundled into the dashboard: style attributes are never allowed by the Markdown sanitizer');
}
