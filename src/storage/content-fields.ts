// An item's typed fields (CONTRACT.md §20) as each store keeps them, in one place: read back as an
// object whatever the driver gives (jsonb arrives parsed, SQLite's text does not), and a field as a
// SQL expression — the very expression its index is built on, so a filter or sort by it is a seek.
import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from './schema.js';

export type Fields = Record<string, unknown>;

/** The stored value of a `fields` column as an object. */
export function parseFields(stored: unknown): Fields {
  if (typeof stored === 'string') return stored === '' ? {} : (JSON.parse(stored) as Fields);
  return (stored ?? {}) as Fields;
}

/** A field name as the model allows it (^[a-z][a-z0-9_]{0,39}$): safe to put in SQL text and index names. */
export const FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/;

function checked(name: string): string {
  if (!FIELD_NAME.test(name)) throw new Error(`not a field name: ${name}`);
  return name;
}

/**
 * Field `name` of `table`'s row as compared and ordered: on SQLite json_extract (a JSON number
 * compares as a number, a string as text, true/false as 1/0); on PostgreSQL the jsonb value
 * (jsonb orders numbers numerically and strings as text). NULL when the item lacks the field.
 */
export function fieldExpression(dialect: Dialect, name: string, table = 'content'): RawBuilder<unknown> {
  const column = sql.ref(`${table}.fields`);
  return dialect === 'postgres' ? sql`(${column} -> ${sql.lit(checked(name))})` : sql`json_extract(${column}, ${sql.lit(`$.${checked(name)}`)})`;
}

/** A value to compare with fieldExpression: a bound parameter of the same kind in either store. */
export function fieldValue(dialect: Dialect, value: string | number | boolean): RawBuilder<unknown> {
  if (dialect === 'postgres') return sql`cast(${JSON.stringify(value)} as jsonb)`;
  return sql`${typeof value === 'boolean' ? (value ? 1 : 0) : value}`;
}
