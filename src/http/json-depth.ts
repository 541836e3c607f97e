// A bound on how deeply a JSON body may nest, checked on the text before it is parsed: a body
// thousands of levels deep once ran a recursive walk out of stack (500, logged at error level), so
// nothing deeper than MAX_JSON_DEPTH reaches JSON.parse, Ajv or any walk over the value (issue 21, F-1).

/** Arrays and objects inside one another, at most; no resource of the API needs more than a handful. */
export const MAX_JSON_DEPTH = 64;

/** The JSON text nests arrays and objects deeper than `max` (one pass, no recursion, strings skipped). */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped, whatever it is
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A JSON body nested deeper than the bound: answered 400 invalid_json like any body that cannot be read. */
export class JsonTooDeep extends Error {
  constructor(readonly max = MAX_JSON_DEPTH) {
    super(`The request body nests arrays and objects more than ${max} levels deep.`);
    this.name = 'JsonTooDeep';
  }
}
