// Dashboard sessions from a test's side: sign in over HTTPS and send requests the way the dashboard's
// pages do (the cookie, the CSRF token, the page's Origin).
import type { Client, RequestOptions, Response } from './client.js';

export interface TestSession {
  /** `__Host-cms_session=<token>`, ready for a Cookie header. */
  cookie: string;
  csrf: string;
  /** The sign-in response. */
  res: Response;
  /** A request with the cookie; state-changing ones also carry the CSRF token and the service's Origin. */
  send(method: string, path: string, options?: RequestOptions & { csrf?: string | null; origin?: string | null }): Promise<Response>;
}

export function signInRequest(client: Client, email: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
  return client.post('/auth/sign-in', { json: { email, password }, headers: { origin: client.baseUrl, ...headers } });
}

/** Signs in; throws unless it worked. */
export async function signIn(client: Client, email: string, password: string): Promise<TestSession> {
  const res = await signInRequest(client, email, password);
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${res.text}`);
  const cookie = sessionCookieOf(res);
  if (!cookie) throw new Error('sign-in set no session cookie');
  return sessionFor(client, cookie, res.body.data.csrf_token as string, res);
}

export function sessionFor(client: Client, cookie: string, csrf: string, res: Response): TestSession {
  return {
    cookie,
    csrf,
    res,
    send(method, path, options = {}) {
      const { csrf: token = csrf, origin = client.baseUrl, headers = {}, ...rest } = options;
      const all: Record<string, string> = { cookie, ...headers };
      if (method !== 'GET' && method !== 'HEAD') {
        if (token !== null) all['x-csrf-token'] = token;
        if (origin !== null) all.origin = origin;
      }
      return client.request(method, path, { ...rest, headers: all });
    },
  };
}

/** The `name=value` part of the session's Set-Cookie, if the response set one with a value. */
export function sessionCookieOf(res: Response): string | undefined {
  const header = setCookieOf(res);
  const pair = header?.split(';')[0];
  return pair && /^__Host-cms_session=.+/.test(pair) ? pair : undefined;
}

export function setCookieOf(res: Response): string | undefined {
  const value = res.headers['set-cookie'];
  return Array.isArray(value) ? value[0] : value;
}
