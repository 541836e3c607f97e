// Content revision queries (migration 010). Every method takes the account id and puts it in the WHERE.
import type { Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { ContentRevisionTable } from './schema.js';
import { parseFields, type Fields } from './content-fields.js';
import { PreparedInsert } from './prepared.js';

export type RevisionRow = Omit<Selectable<ContentRevisionTable>, 'account_id' | 'fields'> & { fields?: Fields };
const LISTED = ['version', 'title', 'type', 'status', 'changed_by', 'created_at'] as const;
const FULL = [...LISTED, 'content', 'fields'] as const;

export class RevisionRepository {
  private readonly inserts = new PreparedInsert<ContentRevisionTable>('content_revisions', ['account_id', 'content_id', 'version', 'title', 'type', 'content', 'status', 'changed_by', 'created_at', 'fields']);

  async insert(tx: Tx, accountId: string, rows: RevisionRow[]): Promise<void> {
    await this.inserts.run(tx, rows.map((row) => ({ ...row, fields: JSON.stringify(row.fields ?? {}), account_id: accountId })));
  }

  /** Deletes the item's revisions up to and including `version` (retention). */
  async pruneThrough(tx: Tx, accountId: string, contentId: string, version: number): Promise<void> {
    await tx.deleteFrom('content_revisions').where('account_id', '=', accountId).where('content_id', '=', contentId).where('version', '<=', version).execute();
  }

  /** A page of the item's revisions, newest first, without their bodies. */
  list(db: Db, accountId: string, contentId: string, limit: number, offset: number) {
    const query = db.selectFrom('content_revisions').select(LISTED).where('account_id', '=', accountId).where('content_id', '=', contentId)
      .orderBy('version', 'desc').limit(limit);
    return (offset > 0 ? query.offset(offset) : query).execute();
  }

  async count(db: Db, accountId: string, contentId: string): Promise<number> {
    const row = await db.selectFrom('content_revisions').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId).where('content_id', '=', contentId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  get(db: Db, accountId: string, contentId: string, version: number) {
    return db.selectFrom('content_revisions').select(FULL).where('account_id', '=', accountId).where('content_id', '=', contentId)
      .where('version', '=', version).executeTakeFirst().then((row) => row && { ...row, fields: parseFields(row.fields) });
  }
}
