// The rows after a position in a list ordered newest first by (created_at, id): media and bulk jobs
// page by cursor this way (domain/keyset-cursor.ts), each over an index on (account_id, created_at, id).
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';

export function olderThan<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, position: { created_at: string; id: string }): Expression<SqlBool> {
  const createdAt = sql.ref<string>('created_at');
  return eb.or([eb(createdAt, '<', position.created_at), eb.and([eb(createdAt, '=', position.created_at), eb(sql.ref<string>('id'), '<', position.id)])]);
}
