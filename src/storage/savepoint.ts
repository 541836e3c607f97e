// A part of a transaction that can fail alone: a savepoint around `work`, rolled back to when it
// throws (on PostgreSQL also after a failed statement, which otherwise aborts the whole transaction).
import { sql } from 'kysely';
import type { Tx } from './db.js';

export async function inSavepoint<T>(tx: Tx, work: () => Promise<T>): Promise<T> {
  await sql`savepoint part`.execute(tx);
  try {
    const value = await work();
    await sql`release savepoint part`.execute(tx);
    return value;
  } catch (error) {
    await sql`rollback to savepoint part`.execute(tx);
    await sql`release savepoint part`.execute(tx);
    throw error;
  }
}
