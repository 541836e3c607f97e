// A title of printable ASCII is slugged without slugify's Unicode passes (slugs.ts, asciiSlug): the
// slug must be the very one slugify makes, or items would get other slugs than before (and than
// their twins with a non-ASCII letter). Every title of up to two characters, and random longer ones
// drawn mostly from the characters its rules treat apart (& ' ^ ` - \ and the letters t and s).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import slugify from '@sindresorhus/slugify';
import { asciiSlug, titleSlug } from '../src/domain/publishing/slugs.js';

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
const TRICKY = "abXY09 '&^`-_.,!?\"\\/ts";

/** Deterministic random numbers (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const expected = (title: string) => slugify(title, { decamelize: false });

describe('slugs of ASCII titles', () => {
  it('are what slugify makes, for every title of up to two characters', () => {
    const differ: string[] = [];
    for (const a of ['', ...PRINTABLE]) {
      for (const b of ['', ...PRINTABLE]) if (asciiSlug(a + b) !== expected(a + b)) differ.push(a + b);
    }
    assert.deepEqual(differ.slice(0, 5), [], `${differ.length} titles differ`);
  });

  it('are what slugify makes, for 20,000 random titles of 3 to 60 characters', () => {
    const next = random(26);
    const differ: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      let title = '';
      for (let k = 3 + (i % 58); k > 0; k--) title += next() < 0.6 ? TRICKY[Math.floor(next() * TRICKY.length)] : PRINTABLE[Math.floor(next() * PRINTABLE.length)];
      if (asciiSlug(title) !== expected(title)) differ.push(title);
    }
    assert.deepEqual(differ.slice(0, 5), [], `${differ.length} titles differ`);
  });

  it('keep the named cases', async () => {
    assert.equal(await titleSlug("What's New & Next: Q3 ^2026^ `draft`"), 'whats-new-and-next-q3-2026-draft');
    assert.equal(await titleSlug("DON'T STOP -- it's 100% done\\"), 'dont-stop-its-100-done');
    assert.equal(await titleSlug('!!!'), 'untitled');
    // Not ASCII: slugify's own path, transliterated.
    assert.equal(await titleSlug('Crème Brûlée: Q3!'), 'creme-brulee-q3');
  });
});
