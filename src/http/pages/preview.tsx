// The preview page (CONTRACT.md §19): what a preview link opens, without a key — the item as it is
// at that moment, its body rendered by the API's one Markdown entry point. It is not for search
// engines (X-Robots-Tag: noindex), never cached, and sent with the dashboard's Content-Security-
// Policy: no script at all, and only this origin's style sheet (served beside it) and images.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { renderToString } from 'preact-render-to-string';
import type { ContentService } from '../../domain/content/content.js';
import type { PreviewLinks } from '../../domain/publishing/previews.js';
import type { ContentRow } from '../../storage/content-repository.js';
import { PAGE_HEADERS } from '../dashboard.js';

export const PREVIEW_CSS = `
:root { --ink:#1b1f24; --muted:#4a5360; --line:#c9d0d8; --bg:#f5f7fa; --accent:#0b57d0; --note:#7a4b00; --note-bg:#fff4d6;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'DejaVu Sans', sans-serif; line-height:1.6; color:var(--ink); background:var(--bg); }
body { margin:0; }
.banner { background:var(--note-bg); color:var(--note); border-bottom:1px solid #e8d49a; padding:.6rem 1rem; font-size:.95rem; }
main { max-width:46rem; margin:0 auto; padding:1.5rem 1rem 4rem; }
article { background:#fff; border:1px solid var(--line); border-radius:8px; padding:1.5rem; }
.meta { color:var(--muted); font-size:.9rem; margin:0 0 1rem; }
h1.title { font-size:2rem; line-height:1.25; margin:0 0 .5rem; }
img { max-width:100%; height:auto; }
pre { overflow:auto; background:#f0f2f5; padding:.75rem; border-radius:6px; }
table { border-collapse:collapse; } th, td { border:1px solid var(--line); padding:.3rem .6rem; }
a { color:var(--accent); }
`;

const STATUS_WORDS: Record<string, string> = { draft: 'a draft', published: 'published', archived: 'archived' };
const WHEN = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

function headers(reply: FastifyReply): FastifyReply {
  return reply.headers(PAGE_HEADERS).header('X-Robots-Tag', 'noindex').header('Cache-Control', 'no-store').type('text/html; charset=utf-8');
}

function document(title: string, body: preact.ComponentChildren): string {
  return `<!doctype html>${renderToString(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <link rel="stylesheet" href="/preview/style.css" />
      </head>
      <body>{body}</body>
    </html>,
  )}`;
}

function ItemPage({ item, html, expiresAt }: { item: ContentRow; html: string; expiresAt: string }) {
  return (
    <>
      <p class="banner" role="note">
        Preview: this item is {STATUS_WORDS[item.status] ?? item.status}. The link works until {WHEN.format(new Date(expiresAt))} UTC.
      </p>
      <main>
        <article>
          <h1 class="title">{item.title}</h1>
          <p class="meta">
            {item.type} · version {item.version} · last changed {WHEN.format(new Date(item.updated_at))} UTC
          </p>
          {/* Sanitized by the Markdown entry point: no script, style, frame or event attribute survives. */}
          <div class="body" dangerouslySetInnerHTML={{ __html: html }} />
        </article>
      </main>
    </>
  );
}

export function previewPages(previews: PreviewLinks, content: ContentService): FastifyPluginAsync {
  return async (app) => {
    // Pages are for people, not part of the API: they stay out of the OpenAPI document.
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });

    app.get('/style.css', async (_request, reply) =>
      reply.headers(PAGE_HEADERS).header('Cache-Control', 'public, max-age=3600').type('text/css; charset=utf-8').send(PREVIEW_CSS),
    );

    app.get<{ Params: { token: string } }>('/:token', async (request, reply) => {
      const opened = await previews.open(request.params.token);
      if ('refused' in opened) {
        const expired = opened.refused === 'expired';
        const message = expired
          ? 'This preview link has expired. Ask for a new one.'
          : 'This preview link does not work: the item may have been deleted, or the link is incomplete.';
        return headers(reply.code(expired ? 410 : 404)).send(document('Preview unavailable', <main><article><h1 class="title">Preview unavailable</h1><p>{message}</p></article></main>));
      }
      const html = await content.renderHtml(opened.item);
      return headers(reply).send(document(`Preview: ${opened.item.title}`, <ItemPage item={opened.item} html={html} expiresAt={opened.expiresAt} />));
    });
  };
}
