// Slugs (CONTRACT.md §19), as a step of every content write: made from the title on create unless
// given (transliterated by @sindresorhus/slugify: "Crème Brûlée: Q3!" → creme-brulee-q3), unique per
// account and type — a made slug that clashes takes -2, -3…, a given one in use is a 409 naming
// `slug` — and every slug an item gave up stays its alias, reserved for the item's life. An item
// written before slugs existed gets one on its next write (or from the backfill). A type change
// takes the item's slugs along; one already held in the new type by another item stays behind (and
// if that is the current one, the item gets a new one made from its title, unless the client gave it).
import type { Tx } from '../../storage/db.js';
import type { ContentSlugRepository, SlugRow } from '../../storage/content-slug-repository.js';
import type { ContentWrite, ContentWriteStep } from '../content/content-writes.js';
import { DomainError } from '../errors.js';
import type { Clock } from '../ids.js';
import { MAX_SLUG_LENGTH } from '../schemas/content.js';

// Imported with the module, not on first use: a slug is made inside a write's transaction, which
// must wait on nothing but the store (a module load there would hold SQLite's write lock across I/O).
import slugify from '@sindresorhus/slugify';

/** Room left for a suffix ("-9999999") when a title's slug is cut to fit. */
const SUFFIX_ROOM = 8;
/** The slug of a title that has no letter or digit a slug can keep (only emoji, say). */
const FALLBACK = 'untitled';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * What slugify makes of a title of printable ASCII alone, without its passes over Unicode
 * (normalization, transliteration tables), which cost most of a batched create's slug: its one
 * replacement in that range (& as "and"), the two ASCII characters Unicode counts as diacritics,
 * dropped, then its own steps. test/slugs-ascii.test.ts holds it equal to slugify.
 */
export function asciiSlug(title: string): string {
  return title
    .replaceAll('&', ' and ')
    .replace(/[\^`]/g, '')
    .toLowerCase()
    .replace(/([a-z\d])'([ts])(?![a-z\d])/g, '$1$2')
    .replace(/[^a-z\d]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The slug a title makes, before any suffix: lower case, transliterated, cut at a hyphen to fit. */
export async function titleSlug(title: string): Promise<string> {
  let slug = PRINTABLE_ASCII.test(title) ? asciiSlug(title) : slugify(title, { decamelize: false });
  if (slug.length > MAX_SLUG_LENGTH - SUFFIX_ROOM) slug = slug.slice(0, MAX_SLUG_LENGTH - SUFFIX_ROOM).replace(/-[^-]*$/, '') || slug.slice(0, MAX_SLUG_LENGTH - SUFFIX_ROOM);
  return slug.replace(/-+$/, '') || FALLBACK;
}

/** The slug a base and a suffix number make: `base` itself for 1, else `base-n`. */
const slugOf = (base: string, n: number) => (n === 1 ? base : `${base}-${n}`);

/** A given slug another item of the type holds (409 naming `slug`). */
function inUse(slug: string, type: string): DomainError {
  return new DomainError('conflict', `The slug "${slug}" is in use by another ${type} item of this account.`, [
    { field: 'slug', code: 'invalid_value', message: `"${slug}" is taken (as a current or an old slug) by another ${type} item; choose another.` },
  ]);
}

/** What a write does to the item's slug rows, worked out before the row is stored and applied after. */
interface Plan {
  add: SlugRow[];
  /** The item's type changed: its rows move there, but for these. */
  retype?: { type: string; drop: string[] };
}

export class SlugStep implements ContentWriteStep {
  private readonly plans = new WeakMap<ContentWrite, Plan>();

  constructor(
    private readonly slugs: ContentSlugRepository,
    private readonly clock: Clock,
  ) {}

  async prepare(tx: Tx, write: ContentWrite): Promise<void> {
    const { accountId, next, previous } = write;
    const given = typeof write.input?.slug === 'string' ? write.input.slug : undefined;
    const held = previous ? await this.slugs.ofItem(tx, accountId, next.id) : [];
    const plan: Plan = { add: [] };
    const typeChanged = previous !== undefined && previous.type !== next.type;
    if (typeChanged) {
      const drop: string[] = [];
      for (const row of held) {
        const holder = await this.slugs.holder(tx, accountId, next.type, row.slug);
        if (holder !== undefined && holder !== next.id) drop.push(row.slug);
      }
      plan.retype = { type: next.type, drop };
      // The current slug is taken in the new type: unless the client names another, make a new one.
      if (given === undefined && next.slug !== null && drop.includes(next.slug)) next.slug = null;
    }
    const keeps = new Set(held.filter((row) => !plan.retype?.drop.includes(row.slug)).map((row) => row.slug));
    if (given !== undefined) {
      if (!keeps.has(given)) {
        const holder = await this.slugs.holder(tx, accountId, next.type, given);
        if (holder !== undefined && holder !== next.id) {
          throw inUse(given, next.type);
        }
        plan.add.push({ slug: given, type: next.type, base: given, n: 1 });
      }
      next.slug = given;
    } else if (next.slug === null) {
      const made = await this.make(tx, accountId, next.type, next.title);
      plan.add.push(made);
      next.slug = made.slug;
    }
    this.plans.set(write, plan);
  }

  /**
   * The slugs of a group of creates (a batch), each what `prepare` one create after another would
   * give it: a given slug held in the store or by an earlier item of the group is a conflict; a made
   * one takes the next number free after those the store and the group's earlier items hold. A few
   * statements per type for the whole group: the bases' last numbers, and whether the given slugs
   * and the first guesses are held (a guess found held is looked up alone, the rare case).
   */
  async prepareEach(tx: Tx, creates: ContentWrite[]): Promise<Map<ContentWrite, DomainError>> {
    const refused = new Map<ContentWrite, DomainError>();
    const given = creates.map((write) => (typeof write.input?.slug === 'string' ? write.input.slug : undefined));
    const bases = await Promise.all(creates.map((write, i) => (given[i] === undefined ? titleSlug(write.next.title) : undefined)));
    for (const type of new Set(creates.map((write) => write.next.type))) {
      const group = creates.flatMap((write, i) => (write.next.type === type ? [i] : []));
      const accountId = creates[group[0]!]!.accountId;
      const next = await this.slugs.lastNumbers(tx, accountId, type, [...new Set(group.flatMap((i) => bases[i] ?? []))]);
      const guesses = new Map<string, number>();
      for (const i of group) if (bases[i] !== undefined) guesses.set(bases[i]!, (guesses.get(bases[i]!) ?? next.get(bases[i]!) ?? 0) + 1);
      const asked = new Set([...group.flatMap((i) => given[i] ?? []), ...[...guesses].flatMap(([base, last]) => Array.from({ length: last - (next.get(base) ?? 0) }, (_, k) => slugOf(base, last - k)))]);
      const stored = await this.slugs.taken(tx, accountId, type, [...asked]);
      const heldInStore = async (slug: string) => {
        if (!asked.has(slug)) {
          asked.add(slug);
          if ((await this.slugs.taken(tx, accountId, type, [slug])).size) stored.add(slug);
        }
        return stored.has(slug);
      };
      const held = new Set<string>();
      for (const i of group) {
        const write = creates[i]!;
        let row: SlugRow;
        if (given[i] !== undefined) {
          if (stored.has(given[i]!) || held.has(given[i]!)) {
            refused.set(write, inUse(given[i]!, type));
            continue;
          }
          row = { slug: given[i]!, type, base: given[i]!, n: 1 };
        } else {
          const base = bases[i]!;
          let n = (next.get(base) ?? 0) + 1;
          while (held.has(slugOf(base, n)) || (await heldInStore(slugOf(base, n)))) n++;
          row = { slug: slugOf(base, n), type, base, n };
        }
        held.add(row.slug);
        next.set(row.base, Math.max(next.get(row.base) ?? 0, row.n));
        write.next.slug = row.slug;
        this.plans.set(write, { add: [row] });
      }
    }
    return refused;
  }

  async written(tx: Tx, write: ContentWrite): Promise<void> {
    const plan = this.plans.get(write);
    if (!plan) return;
    if (plan.retype) await this.slugs.retype(tx, write.accountId, write.next.id, plan.retype.type, plan.retype.drop);
    await this.slugs.insert(tx, write.accountId, write.next.id, plan.add, this.clock().toISOString());
  }

  /** The slug rows of a group of writes, in one statement (a retype, which creates never have, on its own). */
  async writtenEach(tx: Tx, writes: ContentWrite[]): Promise<void> {
    const rows: (SlugRow & { contentId: string })[] = [];
    for (const write of writes) {
      const plan = this.plans.get(write);
      if (plan?.retype) await this.slugs.retype(tx, write.accountId, write.next.id, plan.retype.type, plan.retype.drop);
      for (const row of plan?.add ?? []) rows.push({ ...row, contentId: write.next.id });
    }
    if (writes.length) await this.slugs.insertEach(tx, writes[0]!.accountId, rows, this.clock().toISOString());
  }

  /**
   * Free slugs for many items of one account (the backfill), or one (make): the slugs one write after
   * another would get, in a few statements rather than two per item. Each round proposes, per title slug, as
   * many next numbers as items still want one, asks in one statement which of them are held (a slug
   * given by hand, say "notes-4"), and hands out the free ones in order. The caller holds the
   * account's write turn and stores every slug returned.
   */
  async makeEach(tx: Tx, accountId: string, items: { type: string; title: string }[]): Promise<SlugRow[]> {
    const made: SlugRow[] = new Array(items.length);
    const bases = await Promise.all(items.map((item) => titleSlug(item.title)));
    for (const type of new Set(items.map((item) => item.type))) {
      let pending = items.flatMap((item, i) => (item.type === type ? [i] : []));
      const next = await this.slugs.lastNumbers(tx, accountId, type, [...new Set(pending.map((i) => bases[i]!))]);
      const given = new Set<string>();
      while (pending.length) {
        const wanted = new Map<string, number[]>();
        for (const i of pending) {
          const base = bases[i]!;
          const numbers = wanted.get(base) ?? [];
          numbers.push((next.get(base) ?? 0) + numbers.length + 1);
          wanted.set(base, numbers);
        }
        const taken = await this.slugs.taken(tx, accountId, type, [...wanted].flatMap(([base, numbers]) => numbers.map((n) => slugOf(base, n))));
        const free = new Map([...wanted].map(([base, numbers]) => [base, numbers.filter((n) => !taken.has(slugOf(base, n)))]));
        for (const [base, numbers] of wanted) next.set(base, numbers.at(-1)!);
        pending = pending.filter((i) => {
          const base = bases[i]!;
          const numbers = free.get(base)!;
          // Another title's slug may read the same ("notes-2" from "Notes 2" and from a second "Notes").
          while (numbers.length && given.has(slugOf(base, numbers[0]!))) numbers.shift();
          const n = numbers.shift();
          if (n === undefined) return true;
          given.add(slugOf(base, n));
          made[i] = { slug: slugOf(base, n), type, base, n };
          return false;
        });
      }
    }
    return made;
  }

  /** A free slug made from `title` in the account's `type`: its own slug, else with the next suffix free. */
  async make(tx: Tx, accountId: string, type: string, title: string): Promise<SlugRow> {
    const [made] = await this.makeEach(tx, accountId, [{ type, title }]);
    return made!;
  }
}
