// The media library's side of `media` fields: which of some media ids an account does not have.
// The media capability provides it (composition root); until it does, defining a `media` field is
// refused (docs/content-model.md).
import type { Tx } from '../../storage/db.js';

export interface MediaIds {
  /** The ids among `ids` that name no media record of `accountId`, read in the write's transaction. */
  missing(tx: Tx, accountId: string, ids: string[]): Promise<string[]>;
}
