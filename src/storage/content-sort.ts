// Sort orders of content lists and keyset positions in them (CONTRACT.md §17). Every order ends on
// id descending, so a position (the last item's key values and id) names one place in the list,
// and the next page is "everything after it": an index seek, never a count of the rows before it.
// An undated item (no published_at, no publish_at) comes after every dated one in both directions,
// whatever the store's own NULL order.
import type { Expression, ExpressionBuilder, OrderByItemBuilder, SqlBool } from 'kysely';

export const SORT_FIELDS = ['created_at', 'updated_at', 'published_at', 'publish_at', 'title'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** Fields an item may lack (NULL): items without them come after all others in both directions. */
export const NULLABLE_FIELDS: readonly SortField[] = ['published_at', 'publish_at'];
/** A typed field of the content model (CONTRACT.md §20): `fields.<name>`, sorted by its expression index. */
export type ModelField = `fields.${string}`;
export const isModelField = (field: string): field is ModelField => field.startsWith('fields.');
export const isNullable = (field: SortField | 'relevance' | ModelField) => isModelField(field) || (NULLABLE_FIELDS as readonly string[]).includes(field);

/** One key of an order; `relevance` is the search tier (1: the title matches every word). */
export interface SortKey {
  field: SortField | 'relevance' | ModelField;
  desc: boolean;
}

export type KeyValue = string | number | boolean | null;

/** The column a key is read back from: its own, or for a model field the alias it is selected as. */
export function sortColumn(field: SortKey['field']): string {
  return isModelField(field) ? `f__${field.slice('fields.'.length)}` : SORT_COLUMN[field];
}

/** Where a page ends: the values of the order's keys for its last item, and that item's id. */
export interface Position {
  values: KeyValue[];
  id: string;
}

/** Titles sort case- and accent-insensitively: this key, compared byte by byte, in both stores. */
export function titleSortKey(title: string): string {
  return title.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** The column each field sorts by (as selected, so a row's position can be read back). */
export const SORT_COLUMN = { created_at: 'created_at', updated_at: 'updated_at', published_at: 'published_at', publish_at: 'publish_at', title: 'title_sort', relevance: 'relevance' } as const;

/** A key as SQL: what to compare, in which direction, and whether it may be NULL (published_at, publish_at). */
export interface ResolvedKey {
  expr: Expression<unknown>;
  desc: boolean;
  nullable: boolean;
  /** How a position's value is compared with `expr` (a model field's: as the store keeps it); as is when absent. */
  value?: (value: KeyValue) => Expression<unknown>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- lists read from content or from a CTE over it
type Eb = ExpressionBuilder<any, any>;

/** `expr` comes strictly after `value` in this key's direction (NULLs last); undefined: nothing does. */
function after(eb: Eb, key: ResolvedKey, value: KeyValue): Expression<SqlBool> | undefined {
  if (value === null) return undefined;
  const beyond = eb(key.expr, key.desc ? '<' : '>', key.value ? key.value(value) : value);
  return key.nullable ? eb.or([beyond, eb(key.expr, 'is', null)]) : beyond;
}

function equal(eb: Eb, key: ResolvedKey, value: KeyValue): Expression<SqlBool> {
  return value === null ? eb(key.expr, 'is', null) : eb(key.expr, '=', key.value ? key.value(value) : value);
}

/**
 * Rows after `position` in the order `keys` (then id descending): the usual expansion
 * `k1 > v1 OR (k1 = v1 AND k2 > v2) OR …`, led by the redundant bound `k1 >= v1` that lets both
 * stores seek the first key's index instead of filtering every row.
 */
export function keysetAfter(eb: Eb, keys: ResolvedKey[], id: Expression<unknown>, position: Position): Expression<SqlBool> {
  const all: ResolvedKey[] = [...keys, { expr: id, desc: true, nullable: false }];
  const values = [...position.values, position.id];
  const branches: Expression<SqlBool>[] = [];
  all.forEach((key, i) => {
    const beyond = after(eb, key, values[i]!);
    if (beyond) branches.push(eb.and([...all.slice(0, i).map((k, j) => equal(eb, k, values[j]!)), beyond]));
  });
  const condition = eb.or(branches);
  const first = all[0]!;
  return first.nullable ? condition : eb.and([eb(first.expr, first.desc ? '<=' : '>=', first.value ? first.value(values[0]!) : values[0]!), condition]);
}

type Direction = (item: OrderByItemBuilder) => OrderByItemBuilder;

/** The ORDER BY items of `keys` then id descending; a nullable key puts NULLs last either way. */
export function orderItems(keys: ResolvedKey[], id: Expression<unknown>): [Expression<unknown>, Direction][] {
  return [
    ...keys.map((k): [Expression<unknown>, Direction] => [k.expr, (item) => {
      const directed = k.desc ? item.desc() : item.asc();
      return k.nullable ? directed.nullsLast() : directed;
    }]),
    [id, (item) => item.desc()],
  ];
}
