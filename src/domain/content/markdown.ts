// Markdown to safe HTML (CONTRACT.md §17), one configuration for the API's ?render=html and the
// dashboard editor's preview (which imports this file): CommonMark with GitHub's tables,
// strikethrough and autolinks (markdown-it), raw HTML allowed as GitHub allows it, then an
// allow-list sanitizer (sanitize-html) that keeps only the elements Markdown makes: no script,
// style, iframe or event attribute, only http, https and mailto URLs, and links that carry
// rel="noopener noreferrer nofollow".
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

// markdown-it's default preset is CommonMark plus GFM tables and strikethrough; linkify adds autolinks.
const markdown = new MarkdownIt({ html: true, linkify: true, typographer: false });

// GitHub also links www.host… without a scheme (and only those: "README.md" stays text), without
// trailing punctuation or an unbalanced closing parenthesis.
const WWW_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(?::\d{1,5})?(?:[/?#][^\s<>]*)?/i;
markdown.linkify.add('www.', {
  validate(text: string, pos: number) {
    let link = WWW_HOST.exec(text.slice(pos))?.[0].replace(/[.,:;!?*_~'"]+$/, '') ?? '';
    const count = (char: string) => link.split(char).length - 1;
    while (link.endsWith(')') && count(')') > count('(')) link = link.slice(0, -1);
    return link.length;
  },
  normalize(match: { url: string }) {
    match.url = `http://${match.url}`;
  },
});

/** markdown-it aligns table cells with style="text-align:…"; styles go, so keep the alignment as align. */
function aligned(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const align = /text-align:\s*(left|right|center)/.exec(attribs.style ?? '')?.[1];
  const { style: _style, ...rest } = attribs;
  return { tagName, attribs: align ? { ...rest, align } : rest };
}

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'em', 'strong', 'del', 's', 'sup', 'sub', 'kbd',
    'a', 'img', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'details', 'summary',
  ],
  allowedAttributes: { a: ['href', 'title', 'rel'], img: ['src', 'alt', 'title'], ol: ['start'], th: ['align'], td: ['align'], code: ['class'] },
  // Fenced code says its language as class="language-…": nothing else survives.
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: ['http', 'https', 'mailto', 'media'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // No style is ever allowed, so none needs parsing (postcss, which does it, is left out of the dashboard's bundle).
  parseStyleAttributes: false,
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'noopener noreferrer nofollow' } }),
    th: aligned,
    td: aligned,
  },
};

/** The HTML of a Markdown text, sanitized. */
export function renderMarkdown(text: string): string {
  return sanitizeHtml(markdown.render(text), ALLOWED);
}
