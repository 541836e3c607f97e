// Filenames of media: what a client sent, made safe to show and to serve in a URL and a
// Content-Disposition header. Path parts are dropped (`../../x.png` is `x.png`); control characters
// and NUL are refused rather than guessed at; 255 characters at most, as most file systems allow.
import type { FieldError } from '../errors.js';

export const MAX_FILENAME = 255;

/** The name to keep for an uploaded part's filename (path parts dropped), or a field error. */
export function uploadedName(given: string | undefined, field = 'file'): string | FieldError {
  const base = (given ?? '').split(/[/\\]/).pop()!.trim();
  return checkName(base === '' || base === '.' || base === '..' ? 'file' : base, field);
}

/** A filename set through PUT: as given, or a field error. */
export function checkName(name: string, field = 'filename'): string | FieldError {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return { field, code: 'invalid_value', message: 'The filename may not hold control characters or NUL.' };
  if (/[/\\]/.test(name) || name === '.' || name === '..') return { field, code: 'invalid_value', message: 'The filename may not hold / or \\ or be . or ..' };
  if ([...name].length > MAX_FILENAME) return { field, code: 'too_long', message: `The filename is longer than ${MAX_FILENAME} characters.` };
  if (name.trim() === '') return { field, code: 'too_short', message: 'The filename is empty.' };
  return name;
}

/** `Content-Disposition` for a filename: an ASCII fallback and the UTF-8 form (RFC 6266). */
export function disposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
