// A bound on how deeply a JSON body may nest, checked on the text before it is parsed: a body
// thousands of levels deep once ran a recursive walk out of stack (500, logged at error level), so
// nothing deeper than MAX_JSON_DEPTH reaches JSON.parse, Ajv or any walk over the value (issue 21, F-1).

/** Arrays and objects inside one another, at most; no resource of the API needs more than a handful. */
export const MAX_JSON_DEPTH = 64;

/**
 * The JSON text nests arrays and objects deeper than `max` (one pass, no recursion). A string is
 * skipped whole, by searching for its closing quote (one not escaped by an odd run of backslashes):
 * most of a body is the text of its strings.
 */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i);
      if (i < 0) return false; // unterminated: not ours to judge, JSON.parse refuses it
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Where the string opened at `open` ends, or -1 if it never does. */
function closingQuote(text: string, open: number): number {
  let quote = open;
  for (;;) {
    quote = text.indexOf('"', quote + 1);
    if (quote < 0) return -1;
    let backslash = quote - 1;
    while (text.charCodeAt(backslash) === 0x5c) backslash--; // stops at the opening quote at the latest
    if ((quote - 1 - backslash) % 2 === 0) return quote;
  }
}

/** A JSON body nested deeper than the bound: answered 400 invalid_json like any body that cannot be read. */
export class JsonTooDeep extends Error {
  constructor(readonly max = MAX_JSON_DEPTH) {
    super(`The request body nests arrays and objects more than ${max} levels deep.`);
    this.name = 'JsonTooDeep';
  }
}
