// Server-rendered HTML pages (OAuth sign-in and consent, the password pages), built with Preact's
// renderer so that every value is escaped by construction. The pages run no script, load nothing
// from anywhere (their one style sheet is inline, allowed by hash), cannot be framed and send no
// referrer to other sites. They are not the API: no envelope, no rate-limit headers, never cached.
import type { FastifyReply } from 'fastify';
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { PAGE_CSS, PAGE_CSS_SOURCE } from './style.js';

export interface PageOptions {
  status?: number;
  title: string;
  /**
   * Where the page's forms may lead, besides this origin. CSP `form-action` also governs the
   * redirects that follow a form's submission, so a form answered with a redirect to another origin
   * (the OAuth consent's redirect to the app) must name that origin here.
   */
  formTargets?: string[];
  /** Sends the browser on to this same-origin URL at once (a `<meta http-equiv="refresh">`: no script needed). */
  refreshTo?: string;
}

/** The security headers of every server-rendered page. */
export function pageHeaders(formTargets: string[] = []): Record<string, string> {
  return {
    'Content-Security-Policy': [
      "default-src 'none'",
      `style-src ${PAGE_CSS_SOURCE}`,
      "img-src 'self' data:",
      "base-uri 'none'",
      `form-action ${["'self'", ...formTargets].join(' ')}`,
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    // Not no-referrer: under it browsers send `Origin: null` with a form's POST (Fetch §3.1), and the
    // forms' CSRF check needs the real Origin. same-origin still sends nothing to other sites.
    'Referrer-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}

/** The frame every page shares: one card with a heading. */
export function Page(props: { title: string; refreshTo?: string; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        {props.refreshTo !== undefined && <meta http-equiv="refresh" content={`0;url=${props.refreshTo}`} />}
        <title>{`${props.title} · Content Management Service`}</title>
        <style dangerouslySetInnerHTML={{ __html: PAGE_CSS }} />
      </head>
      <body>
        <main>
          <div class="card">
            <h1>{props.title}</h1>
            {props.children}
          </div>
        </main>
      </body>
    </html>
  );
}

/** A labelled input: the label is what people (and tests, by role and name) find it by. */
export function Field(props: { label: string; name: string; type?: 'text' | 'email' | 'password'; autocomplete?: string; value?: string; required?: boolean }) {
  const id = `field-${props.name}`;
  const input: Record<string, unknown> = { id, name: props.name, type: props.type ?? 'text', autocomplete: props.autocomplete, value: props.value, required: props.required ?? true };
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input {...input} />
    </div>
  );
}

/** An error (role=alert) or a notice (role=status) above a form; nothing when both are absent. */
export function Message(props: { error?: string | null; notice?: string | null }) {
  if (props.error) return <p class="alert" role="alert">{props.error}</p>;
  if (props.notice) return <p class="notice" role="status">{props.notice}</p>;
  return null;
}

/** `body` (the page's content, inside the shared frame) as a complete HTML document. */
export function renderPage(options: PageOptions, body: ComponentChildren): string {
  return `<!doctype html>${renderToString(
    <Page title={options.title} refreshTo={options.refreshTo}>
      {body}
    </Page>,
  )}`;
}

/** Sends `body` (the page's content, inside the shared frame) as a complete HTML document. */
export function sendPage(reply: FastifyReply, options: PageOptions, body: ComponentChildren): FastifyReply {
  return reply
    .code(options.status ?? 200)
    .headers(pageHeaders(options.formTargets))
    .type('text/html; charset=utf-8')
    .send(renderPage(options, body));
}
