// Bulk jobs that set typed fields (CONTRACT.md §21 `set_fields`, docs/bulk.md): the fields a job
// sets, as JSON, beside its filter. Instant at any size: a nullable column.
import type { Kysely, Migration } from 'kysely';

export function jobFields(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('content_jobs').addColumn('fields', 'text').execute();
    },
  };
}
