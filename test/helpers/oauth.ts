// OAuth from a test's side: apps registered through the API, PKCE pairs, form posts to the token,
// revocation and introspection endpoints, and a small cookie-keeping "browser" that walks the
// authorization code flow through the sign-in and consent pages over HTTPS (the Chromium suite
// does the same in a real browser).
import { createHash, randomBytes } from 'node:crypto';
import type { Client, Response } from './client.js';
import type { TestServer } from './server.js';

export interface TestApp {
  id: string;
  name: string;
  type: string;
  redirect_uris: string[];
  scopes: string[];
  user_id: string;
  client_secret?: string;
}

export const REDIRECT_URI = 'https://app.example.com/callback';

/** POST /v1/oauth/apps as `key`; returns the record with its secret. */
export async function registerApp(server: TestServer, key: string, fields: Record<string, unknown> = {}): Promise<TestApp> {
  const res = await server.client.post('/v1/oauth/apps', { key, json: { name: 'Test app', redirect_uris: [REDIRECT_URI], ...fields } });
  if (res.status !== 201) throw new Error(`registerApp: ${res.status} ${res.text}`);
  return res.body.data;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const basic = (app: TestApp, secret = app.client_secret!) => `Basic ${Buffer.from(`${encodeURIComponent(app.id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** A form post (application/x-www-form-urlencoded) with optional extra headers. */
export function postForm(client: Client, path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return client.post(path, { raw: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
}

/** The token endpoint, the app authenticating with client_secret_basic (or not at all when public). */
export function token(server: TestServer, app: TestApp, form: Record<string, string>): Promise<Response> {
  return postForm(server.client, '/oauth/token', app.client_secret === undefined ? { client_id: app.id, ...form } : form, app.client_secret === undefined ? {} : { authorization: basic(app) });
}

export function clientCredentials(server: TestServer, app: TestApp, scope?: string): Promise<Response> {
  return token(server, app, { grant_type: 'client_credentials', ...(scope === undefined ? {} : { scope }) });
}

/** A cookie jar over the test client: what a browser keeps between the pages of one sign-in. */
export class Jar {
  /** `cookies`: another jar's, to carry one browser's state to another instance of the service. */
  constructor(
    readonly client: Client,
    private readonly cookies = new Map<string, { value: string; path: string }>(),
  ) {}

  /** The same browser talking to another instance (the same cookies). */
  on(client: Client): Jar {
    return new Jar(client, this.cookies);
  }

  /** Requests as a same-origin page of the service would: its cookies, its Origin on posts. */
  async request(method: string, path: string, form?: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    const pathname = new URL(path, this.client.baseUrl).pathname;
    const cookie = [...this.cookies].filter(([, c]) => pathname.startsWith(c.path)).map(([name, c]) => `${name}=${c.value}`).join('; ');
    const all: Record<string, string> = { 'sec-fetch-site': 'same-origin', accept: 'text/html', ...(cookie ? { cookie } : {}), ...headers };
    if (method === 'POST') all.origin ??= this.client.baseUrl;
    const res = form === undefined ? await this.client.request(method, path, { headers: all }) : await postForm(this.client, path, form, all);
    const set = res.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair, ...attributes] = line.split(';').map((s) => s.trim());
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired = attributes.some((a) => /^max-age=0$/i.test(a) || /^expires=thu, 01 jan 1970/i.test(a));
      if (expired || pair!.slice(at + 1) === '') this.cookies.delete(name);
      else this.cookies.set(name, { value: pair!.slice(at + 1), path });
    }
    return res;
  }

  get = (path: string, headers?: Record<string, string>) => this.request('GET', path, undefined, headers);
  post = (path: string, form: Record<string, string>, headers?: Record<string, string>) => this.request('POST', path, form, headers);

  /** Follows same-origin redirects; stops at the first answer that is not one, or a redirect elsewhere. */
  async follow(res: Response): Promise<Response> {
    while (res.status >= 300 && res.status < 400 && typeof res.headers.location === 'string') {
      const next = new URL(res.headers.location, this.client.baseUrl);
      if (next.origin !== this.client.baseUrl) return res;
      res = await this.get(next.pathname + next.search);
    }
    return res;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }
}

/** A hidden field's value in an HTML form. */
export function hidden(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!match) throw new Error(`no hidden field ${name} in: ${html.slice(0, 300)}`);
  return match[1]!;
}

export function authorizeUrl(app: TestApp, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  const all: Record<string, string | undefined> = { response_type: 'code', client_id: app.id, redirect_uri: app.redirect_uris[0], state: randomBytes(8).toString('hex'), ...params };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) query.set(name, value);
  return `/oauth/authorize?${query}`;
}

export interface Person {
  email: string;
  password: string;
}

/**
 * Walks the flow as `person` (signing in when the jar has no session, allowing when asked) and
 * returns the redirect to the app, parsed. `decision` 'deny' presses Deny instead.
 */
export async function authorize(jar: Jar, person: Person, url: string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
  let res = await jar.follow(await jar.get(url));
  if (res.status === 200 && res.text.includes('name="password"')) {
    const action = /<form method="post" action="([^"]+)"/.exec(res.text)![1]!;
    res = await jar.follow(await jar.post(action, { form_token: hidden(res.text, 'form_token'), email: person.email, password: person.password }));
  }
  if (res.status === 200 && res.text.includes('name="decision"')) {
    const action = /<form method="post" action="([^"]+)"/.exec(res.text)![1]!;
    res = await jar.follow(await jar.post(action, { csrf_token: hidden(res.text, 'csrf_token'), decision }));
  }
  if (res.status !== 303 && res.status !== 302) throw new Error(`authorize: expected a redirect to the app, got ${res.status} ${res.text.slice(0, 500)}`);
  return new URL(String(res.headers.location));
}

/** The code flow end to end: a code from `authorize`, exchanged at the token endpoint. */
export async function tokensFor(server: TestServer, jar: Jar, person: Person, app: TestApp, scope?: string): Promise<{ access_token: string; refresh_token: string; scope: string }> {
  const { verifier, challenge } = pkce();
  const back = await authorize(jar, person, authorizeUrl(app, { scope, code_challenge: challenge, code_challenge_method: 'S256' }));
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`no code: ${back}`);
  const res = await token(server, app, { grant_type: 'authorization_code', code, redirect_uri: app.redirect_uris[0]!, code_verifier: verifier });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${res.text}`);
  return res.body;
}
