// Work that a caller asks every transaction it runs to do before commit, carried by AsyncLocalStorage
// from where the caller is (an HTTP request holding an idempotency claim) into Store.transaction,
// whoever opens the transaction on its behalf. What runs after a commit (hooks, signals, workers
// they wake) and the SQLite group-commit batches run outside any caller's scope, so work started
// there never takes on a request's duty.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Tx } from './db.js';

export interface TransactionScope {
  /** Runs inside the transaction, after its work (which returned `result`) and before commit; throwing rolls the work back. */
  beforeCommit(tx: Tx, result: unknown): Promise<void>;
}

const scopes = new AsyncLocalStorage<TransactionScope>();

/** Runs `fn` (and everything it starts) with `scope` applied to each transaction it opens. */
export function withTransactionScope<T>(scope: TransactionScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** The scope of the caller opening a transaction now, if any. */
export function currentTransactionScope(): TransactionScope | undefined {
  return scopes.getStore();
}

/** Runs `fn` outside any caller's scope. */
export function outsideTransactionScope<T>(fn: () => T): T {
  return scopes.exit(fn);
}
