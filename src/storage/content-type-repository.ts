// Content models (migration 016) and what a model change does to the items of its type. Every
// method takes the account id and puts it in the WHERE clause (but `indexedFields`, which serves the
// store-wide expression indexes).
import { sql } from 'kysely';
import type { Db, Tx } from './db.js';
import type { Dialect } from './schema.js';
import { FIELD_NAME, fieldExpression } from './content-fields.js';

export interface ContentTypeRow {
  type: string;
  /** JSON array of field definitions. */
  fields: string;
  version: number;
  updated_at: string;
}

export class ContentTypeRepository {
  constructor(private readonly dialect: Dialect) {}

  get(db: Db, accountId: string, type: string): Promise<ContentTypeRow | undefined> {
    return db.selectFrom('content_types').select(['type', 'fields', 'version', 'updated_at']).where('account_id', '=', accountId).where('type', '=', type).executeTakeFirst();
  }

  all(db: Db, accountId: string): Promise<ContentTypeRow[]> {
    return db.selectFrom('content_types').select(['type', 'fields', 'version', 'updated_at']).where('account_id', '=', accountId).execute();
  }

  async save(tx: Tx, accountId: string, row: ContentTypeRow): Promise<void> {
    if (row.version === 1) await tx.insertInto('content_types').values({ ...row, account_id: accountId }).execute();
    else await tx.updateTable('content_types').set(row).where('account_id', '=', accountId).where('type', '=', row.type).execute();
  }

  /** Every model that indexes a field (any account): `fields` of each, for the expression indexes. */
  indexedModels(db: Db): Promise<{ type: string; fields: string }[]> {
    return db.selectFrom('content_types').select(['type', 'fields']).where('fields', 'like', '%"indexed":true%').execute();
  }

  /** How many of the account's `type` items lack field `name`. */
  async countWithout(tx: Tx, accountId: string, type: string, name: string): Promise<number> {
    const { n } = await tx.selectFrom('content').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId).where('type', '=', type).where(fieldExpression(this.dialect, name), 'is', null).executeTakeFirstOrThrow();
    return Number(n);
  }

  /** A page of the values of field `name` held by the account's `type` items, after item `afterId` (by id). */
  async values(tx: Tx, accountId: string, type: string, name: string, afterId: string, limit: number): Promise<{ id: string; value: unknown }[]> {
    const json = this.dialect === 'postgres' ? sql`content.fields -> ${sql.lit(name)}` : sql`content.fields -> ${sql.lit(`$.${name}`)}`;
    const rows = await tx.selectFrom('content').select(['id', json.as('value')])
      .where('account_id', '=', accountId).where('type', '=', type).where(fieldExpression(this.dialect, name), 'is not', null)
      .where('id', '>', afterId).orderBy('id').limit(limit).execute();
    // SQLite's -> gives JSON text; jsonb arrives parsed.
    return rows.map((row) => ({ id: row.id, value: this.dialect === 'postgres' ? row.value : JSON.parse(row.value as string) }));
  }

  /**
   * Makes the searchable text of the account's `type` items again, in one statement, from the text
   * fields `texts` (in the model's order): their values joined by newlines, as content-model/
   * search-text.ts makes it on a write. Only the items whose text changes are written.
   */
  async reindexText(tx: Tx, accountId: string, type: string, texts: { name: string; list: boolean }[]): Promise<void> {
    const pg = this.dialect === 'postgres';
    const parts = texts.map(({ name, list }) => {
      if (!FIELD_NAME.test(name)) throw new Error(`not a field name: ${name}`);
      if (pg) {
        return list
          ? sql`(SELECT string_agg(t.value, chr(10) ORDER BY t.n) FROM jsonb_array_elements_text(content.fields -> ${sql.lit(name)}) WITH ORDINALITY AS t(value, n))`
          : sql`(content.fields ->> ${sql.lit(name)})`;
      }
      return list
        ? sql`(SELECT group_concat(j.value, char(10) ORDER BY j.key) FROM json_each(content.fields, ${sql.lit(`$.${name}`)}) AS j)`
        : sql`json_extract(content.fields, ${sql.lit(`$.${name}`)})`;
    });
    // concat_ws leaves out the fields an item lacks (NULL), as the write's join does.
    const text = parts.length ? sql<string>`coalesce(concat_ws(${pg ? sql`chr(10)` : sql`char(10)`}, ${sql.join(parts)}), '')` : sql<string>`''`;
    await tx.updateTable('content').set({ fields_text: text })
      .where('account_id', '=', accountId).where('type', '=', type).where('fields_text', '<>', text).execute();
  }

  /** Drops field `name` from the account's `type` items: no new version, no event (revisions keep it). */
  async removeField(tx: Tx, accountId: string, type: string, name: string): Promise<void> {
    const without = this.dialect === 'postgres' ? sql`content.fields - ${sql.lit(name)}` : sql`json_remove(content.fields, ${sql.lit(`$.${name}`)})`;
    await tx.updateTable('content').set({ fields: without as never })
      .where('account_id', '=', accountId).where('type', '=', type).where(fieldExpression(this.dialect, name), 'is not', null).execute();
  }
}
