// Exact item counts per (account, type, status), kept by triggers in the same transaction as every
// insert, delete and change of type or status, so a list's `total` is a sum over at most 12 rows
// instead of a COUNT(*) that grows with the account.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

const BUMP = (account: string, type: string, status: string, delta: string) => `
  INSERT INTO content_counts (account_id, type, status, n) VALUES (${account}, ${type}, ${status}, ${delta})
  ON CONFLICT (account_id, type, status) DO UPDATE SET n = content_counts.n + (${delta});`;

const sqliteTriggers = [
  `CREATE TRIGGER content_counts_insert AFTER INSERT ON content BEGIN ${BUMP('NEW.account_id', 'NEW.type', 'NEW.status', '1')} END`,
  `CREATE TRIGGER content_counts_delete AFTER DELETE ON content BEGIN ${BUMP('OLD.account_id', 'OLD.type', 'OLD.status', '-1')} END`,
  `CREATE TRIGGER content_counts_update AFTER UPDATE OF type, status ON content
     WHEN OLD.type <> NEW.type OR OLD.status <> NEW.status BEGIN
     ${BUMP('OLD.account_id', 'OLD.type', 'OLD.status', '-1')}
     ${BUMP('NEW.account_id', 'NEW.type', 'NEW.status', '1')}
   END`,
];

const postgresTriggers = [
  `CREATE FUNCTION content_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP IN ('DELETE', 'UPDATE') THEN ${BUMP('OLD.account_id', 'OLD.type', 'OLD.status', '-1')} END IF;
     IF TG_OP IN ('INSERT', 'UPDATE') THEN ${BUMP('NEW.account_id', 'NEW.type', 'NEW.status', '1')} END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER content_counts_insert_delete AFTER INSERT OR DELETE ON content FOR EACH ROW EXECUTE FUNCTION content_counts_track()`,
  `CREATE TRIGGER content_counts_update AFTER UPDATE OF type, status ON content FOR EACH ROW
     WHEN (OLD.type IS DISTINCT FROM NEW.type OR OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION content_counts_track()`,
];

export function contentCounts(dialect: Dialect): Migration {
  const key = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('content_counts')
        .addColumn('account_id', key, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('content_counts_pk', ['account_id', 'type', 'status'])
        .execute();
      for (const statement of dialect === 'postgres' ? postgresTriggers : sqliteTriggers) await sql.raw(statement).execute(db);
      // Count what exists already.
      await sql`INSERT INTO content_counts (account_id, type, status, n)
                SELECT account_id, type, status, count(*) FROM content GROUP BY account_id, type, status`.execute(db);
    },
  };
}
