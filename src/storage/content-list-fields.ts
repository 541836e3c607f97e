// Conditions on items' typed fields (CONTRACT.md §20) as SQL: each compares the very expression an
// indexed field's expression index is built on (content-fields.ts), so the store seeks that index;
// `contains` (an element of a list field) is jsonb containment over a GIN index on PostgreSQL and,
// on SQLite, a json_each probe of the items of the account and type (docs/content-model.md).
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { fieldExpression, fieldValue } from './content-fields.js';
import type { Database, Dialect } from './schema.js';

export type FieldOperator = 'eq' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'contains';
export type FieldScalar = string | number | boolean;

export interface FieldFilter {
  name: string;
  op: FieldOperator;
  /** One value; several for `in`. */
  values: FieldScalar[];
}

const COMPARISON = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** Every condition of `filters`, joined by AND. */
export function fieldConditions(dialect: Dialect, filters: FieldFilter[]) {
  return (eb: ExpressionBuilder<Database, 'content'>): Expression<SqlBool> => eb.and(filters.map((filter) => condition(eb, dialect, filter)));
}

function condition(eb: ExpressionBuilder<Database, 'content'>, dialect: Dialect, { name, op, values }: FieldFilter): Expression<SqlBool> {
  const expr = fieldExpression(dialect, name);
  if (op === 'in') return eb(expr, 'in', values.map((value) => fieldValue(dialect, value)));
  if (op !== 'contains') return eb(expr, COMPARISON[op], fieldValue(dialect, values[0]!));
  if (dialect === 'postgres') return sql<SqlBool>`${expr} @> cast(${JSON.stringify([values[0]])} as jsonb)`;
  const element = typeof values[0] === 'boolean' ? (values[0] ? 1 : 0) : values[0];
  return sql<SqlBool>`exists (select 1 from json_each(content.fields, ${sql.lit(`$.${name}`)}) where value = ${element})`;
}
