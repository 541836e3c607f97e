// Server-rendered forms from a test's side, the way a browser sends them: load the page (which sets
// the form cookie and puts its token in a hidden field), then post the fields url-encoded with the
// cookie and this service's Origin.
import type { Client, Response } from './client.js';

export interface LoadedForm {
  res: Response;
  /** `__Host-cms_form=<token>`, for the Cookie header. */
  cookie: string;
  token: string;
}

/** GETs a page and reads its form token (from the cookie it set, or the one passed). */
export async function loadForm(client: Client, path: string, cookie?: string): Promise<LoadedForm> {
  const res = await client.get(path, { headers: cookie ? { cookie } : {} });
  const token = /name="form_token" value="([^"]+)"/.exec(res.text)?.[1] ?? '';
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('__Host-cms_form='));
  return { res, token, cookie: setCookie?.split(';')[0] ?? cookie ?? '' };
}

/** POSTs `fields` as a form would, with the form cookie and the service's own Origin unless told otherwise. */
export function postForm(client: Client, path: string, fields: Record<string, string>, options: { cookie?: string; origin?: string | null } = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.origin !== null) headers.origin = options.origin ?? client.baseUrl;
  return client.post(path, { raw: new URLSearchParams(fields).toString(), headers });
}

/** Loads the page, then submits its form with `fields` (the form token added). */
export async function submitForm(client: Client, pagePath: string, postPath: string, fields: Record<string, string>): Promise<Response> {
  const form = await loadForm(client, pagePath);
  return postForm(client, postPath, { form_token: form.token, ...fields }, { cookie: form.cookie });
}

/** The path and query of a link in an e-mail (its origin is the server's public URL). */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/** Submits the set-password form for an e-mailed `link` (the form token from another page: the link's own may be spent already). */
export async function setPasswordThrough(client: Client, link: string, password: string): Promise<Response> {
  const form = await loadForm(client, '/password/forgot');
  return postForm(client, '/password/set', { form_token: form.token, token: new URL(link).searchParams.get('token')!, password }, { cookie: form.cookie });
}

/** The visible text of an HTML page, tags dropped and entities of the usual five decoded. */
export function textOf(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
