// Which redirect URIs an app may register (CONTRACT.md §15, RFC 8252 §7.3, RFC 9700 §2.1): absolute
// https URLs, or plain-http loopback URLs for native apps (127.0.0.1 or [::1], never "localhost",
// which may resolve elsewhere); no fragment, no user information, no wildcard. Each must be sent in
// its canonical form (the WHATWG URL serialisation, what a browser is sent to): a URI that a
// browser would rewrite (`https:/app.example`, `http://127.1:9876/cb`, `http://0x7f000001/cb`,
// `https://APP.example/cb`) is refused, naming the form to send (issue 21 P3-7). So the string
// stored is the string compared, and the address the browser goes to.
import type { FieldError } from '../errors.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

/** Appends an error for each unacceptable or repeated URI of `uris`. */
export function redirectUriErrors(uris: string[], errors: FieldError[]): void {
  const seen = new Set<string>();
  uris.forEach((uri, i) => {
    const field = `redirect_uris[${i}]`;
    const problem = redirectUriProblem(uri);
    if (problem !== undefined) errors.push({ field, code: problem.code, message: `${field} ${problem.message}` });
    else if (seen.has(uri)) errors.push({ field, code: 'invalid_value', message: `${field} is listed twice.` });
    seen.add(uri);
  });
}

function redirectUriProblem(uri: string): { code: 'invalid_format' | 'invalid_value'; message: string } | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { code: 'invalid_format', message: 'must be an absolute URL.' };
  }
  if (uri.includes('#')) return { code: 'invalid_value', message: 'must not have a fragment (#…).' };
  if (url.username !== '' || url.password !== '') return { code: 'invalid_value', message: 'must not carry a user name or password.' };
  if (uri.includes('*')) return { code: 'invalid_value', message: 'must not contain a wildcard (*): register each redirect URI in full.' };
  if (url.href !== uri) return { code: 'invalid_format', message: `must be written in canonical form, as a browser would go to it: ${url.href}` };
  if (url.protocol === 'https:' && url.hostname !== '') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return {
    code: 'invalid_value',
    message: 'must be an https:// URL, or a loopback http://127.0.0.1:<port>/… or http://[::1]:<port>/… for native apps.',
  };
}

/** A loopback URI with its port left out (`http://127.0.0.1/cb`), or undefined for any other URI. */
function withoutLoopbackPort(uri: string): string | undefined {
  const match = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::\d{1,5})?([/?].*)?$/.exec(uri);
  return match ? `http://${match[1]}${match[2] ?? ''}` : undefined;
}

/**
 * Whether an authorization request's redirect_uri is one the app registered: the same string,
 * except that a loopback URI may name any port (native apps listen on whatever port is free).
 * No prefix, no normalisation, so no open redirect.
 */
export function redirectUriAllowed(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  // Another port only when written as the browser will go to it (`:09876` or `:80` would be rewritten).
  if (!URL.canParse(presented) || new URL(presented).href !== presented) return false;
  const loose = withoutLoopbackPort(presented);
  return loose !== undefined && registered.some((uri) => withoutLoopbackPort(uri) === loose);
}
