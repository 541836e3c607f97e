// What text the service accepts, decided once for every identifier and string field: no control
// characters in a single line (ids, names, titles, e-mail addresses, query values), only tab and
// line breaks in multi-line text (Markdown bodies, descriptions), and no lone UTF-16 surrogate
// anywhere. A lone surrogate is not Unicode text: each store would silently turn it into U+FFFD, so
// it is refused rather than replaced. PostgreSQL cannot store U+0000 at all; SQLite could, but the
// answer is the same on both stores.

export type TextProblem = 'control' | 'surrogate';

// In a `u` regular expression a surrogate pair is one code point, so \p{Cs} matches only lone halves.
// \p{Cc} is U+0000–U+001F and U+007F–U+009F; multi-line text is that without tab, LF and CR, spelt
// as ranges (a look-ahead per character ran four times slower on a Markdown body).
const SINGLE_LINE = /[\p{Cc}\p{Cs}]/u;
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const MULTI_LINE = /[\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\p{Cs}]/u;

/** What is wrong with `value` as text, or undefined when nothing is. */
export function textProblem(value: string, multiline = false): TextProblem | undefined {
  const found = (multiline ? MULTI_LINE : SINGLE_LINE).exec(value);
  if (!found) return undefined;
  const code = found[0].charCodeAt(0);
  return code >= 0xd800 && code <= 0xdfff ? 'surrogate' : 'control';
}

/** "`field` must not contain …", for people. */
export function textProblemMessage(field: string, problem: TextProblem, multiline = false): string {
  return problem === 'surrogate'
    ? `${field} must be valid Unicode text (it contains a lone surrogate).`
    : `${field} must not contain control characters${multiline ? ' other than tab and line breaks' : ''}.`;
}
