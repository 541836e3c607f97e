// Calls to the service's own API (/v1) and sign-in endpoints (/auth) with the session cookie. Every
// state-changing call carries the session's CSRF token; errors become ApiError with the API's message.

export interface FieldError {
  field: string;
  code: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: FieldError[] = [],
    /** The whole error body, for what some errors add (the `used_by` of a media 409). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface SessionView {
  user: { id: string; email: string; name: string; role: Role };
  account: { id: string; plan: string };
  scopes: string[];
  csrf_token: string;
  expires_at: string;
  idle_expires_at: string;
}

export type Role = 'owner' | 'admin' | 'editor' | 'author' | 'viewer';

export interface Page<T> {
  data: T[];
  pagination: { total: number; limit: number; offset: number; has_more: boolean };
}

export interface Reply<T> {
  data: T;
  body: Record<string, unknown> | undefined;
  headers: Headers;
}

let csrfToken: string | null = null;
let onSessionEnded: () => void = () => {};

export function useCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when the API says the session is over (401 on /v1): the app goes back to sign-in. */
export function whenSessionEnds(listener: () => void): void {
  onSessionEnded = listener;
}

interface Options {
  body?: unknown;
  ifMatch?: string;
}

export async function request<T>(method: string, path: string, options: Options = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  if (options.ifMatch) headers['If-Match'] = options.ifMatch;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'network', 'The service could not be reached. Check your connection and try again.');
  }
  const text = await response.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const message = typeof json?.message === 'string' ? json.message : `The service answered ${response.status} ${response.statusText}.`;
    const error = new ApiError(response.status, typeof json?.code === 'string' ? json.code : 'error', message, (json?.errors as FieldError[]) ?? [], json ?? {});
    if (response.status === 401 && path.startsWith('/v1/')) onSessionEnded();
    throw error;
  }
  return { data: (json?.data ?? json) as T, body: json, headers: response.headers };
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body }),
  put: <T>(path: string, body: unknown, ifMatch?: string) => request<T>('PUT', path, { body, ifMatch }),
  delete: (path: string) => request<null>('DELETE', path),
  /** A list page: data plus pagination. */
  async page<T>(path: string): Promise<Page<T>> {
    const reply = await request<T[]>('GET', path);
    return { data: reply.data, pagination: reply.body?.pagination as Page<T>['pagination'] };
  },
};

/**
 * Sends a multipart form by XMLHttpRequest, the one browser API that reports upload progress:
 * `onProgress(sent, total)` as the bytes leave. Resolves to the answer's `data`, like request().
 */
export function upload<T>(path: string, form: FormData, onProgress: (sent: number, total: number) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    if (csrfToken) xhr.setRequestHeader('X-CSRF-Token', csrfToken);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'network', 'The service could not be reached. Check your connection and try again.'));
    xhr.onabort = () => reject(new ApiError(0, 'aborted', 'The upload was cancelled.'));
    xhr.onload = () => {
      let json: Record<string, unknown> | undefined;
      try {
        json = xhr.responseText ? (JSON.parse(xhr.responseText) as Record<string, unknown>) : undefined;
      } catch {
        json = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve((json?.data ?? json) as T);
      const message = typeof json?.message === 'string' ? json.message : `The service answered ${xhr.status} ${xhr.statusText}.`;
      if (xhr.status === 401) onSessionEnded();
      reject(new ApiError(xhr.status, typeof json?.code === 'string' ? json.code : 'error', message, (json?.errors as FieldError[]) ?? [], json ?? {}));
    };
    xhr.send(form);
  });
}

/** Turns an error into one sentence for people, with the fields the API named. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = error.errors.filter((e) => e.field).map((e) => `${e.field}: ${e.message}`);
    return fields.length ? `${error.message} ${fields.join(' ')}` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
