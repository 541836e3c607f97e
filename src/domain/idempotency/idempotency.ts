// Idempotency keys (CONTRACT.md §17, docs/content.md#idempotency-keys). A POST that carries a key
// first claims it for its account (a row in the store, so every instance sees the claim); the
// change the request makes marks the claim "applied" in its own transaction (carried there by the
// transaction scope), so under one key a change is made at most once whatever crashes; the first
// response (not a 5xx or 429) is then stored and replayed to repeats for 24 hours. A route whose
// response follows from its change's result alone has that response stored in the change's own
// transaction, so no crash can part the two.
import { createHash, randomBytes } from 'node:crypto';
import type { Store, Tx } from '../../storage/db.js';
import type { IdempotencyRepository, IdempotencyRow } from '../../storage/idempotency-repository.js';
import { withTransactionScope } from '../../storage/transaction-scope.js';
import { DomainError } from '../errors.js';
import type { Clock } from '../ids.js';
import type { Principal } from '../auth/permissions.js';

/** How long a key and its response are kept. */
export const KEY_LIFETIME_MS = 24 * 3_600_000;
/** Fields of a stored response's `data` that are shown once and never stored (CONTRACT.md §17). */
const ONE_TIME_SECRETS = ['key', 'secret', 'client_secret'];
/** The headers a replay repeats. */
const REPLAYED_HEADERS = ['location', 'etag'];

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  /** The body without meta and secrets, or null when there was none. */
  body: Record<string, unknown> | null;
}

/** A route's response made from what its change's transaction returned (the route sends the same). */
export type ResponseOf = (result: never) => { status: number; headers: Record<string, string>; body: Record<string, unknown> };

/** A request's hold on its key, from the claim until its response is stored. */
export interface Claim {
  accountId: string;
  key: string;
  owner: string;
  /** False once the response is being stored: transactions started after that are not the request's change. */
  active: boolean;
  /** The route's response from its change's result, stored with the change when given. */
  respond?: ResponseOf;
  /** True once the response has committed together with the change. */
  storedWithChange: boolean;
}

export interface RequestShape {
  method: string;
  /** Path and query string as sent. */
  url: string;
  body: unknown;
}

/** 1–255 printable ASCII characters; otherwise the 400 the contract names. */
export function checkKey(key: string): void {
  const code = key === '' ? 'invalid_value' : key.length > 255 ? 'too_long' : /^[\x20-\x7e]+$/.test(key) ? undefined : 'invalid_format';
  if (code === undefined) return;
  throw new DomainError('invalid_parameter', 'The Idempotency-Key header is invalid; see errors.', [
    { field: 'Idempotency-Key', code, message: 'Idempotency-Key must be 1 to 255 printable ASCII characters.' },
  ]);
}

/**
 * JSON with object keys in order, so that equal bodies give equal fingerprints however they were
 * written. Built by appending to one string (no array of entries per object): a batch's body is a
 * hundred items, and this runs on every keyed POST. `sort()` orders keys by UTF-16 code units.
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + canonical(value[i]);
    return `${out}]`;
  }
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    let out = '{';
    for (const key of Object.keys(object).sort()) out += (out.length > 1 ? ',' : '') + JSON.stringify(key) + ':' + canonical(object[key]);
    return `${out}}`;
  }
  return JSON.stringify(value ?? null);
}

/** `data` without one-time secrets; the very value when it holds none (a batch's hundred results, say). */
function stripSecrets(data: unknown): unknown {
  if (Array.isArray(data)) {
    let copy: unknown[] | undefined;
    data.forEach((value, i) => {
      const stripped = stripSecrets(value);
      if (stripped !== value) (copy ??= [...data])[i] = stripped;
    });
    return copy ?? data;
  }
  if (data === null || typeof data !== 'object' || !ONE_TIME_SECRETS.some((field) => field in data)) return data;
  return Object.fromEntries(Object.entries(data as Record<string, unknown>).filter(([field]) => !ONE_TIME_SECRETS.includes(field)));
}

const inUse = () =>
  new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry after it has finished.');

export class IdempotencyService {
  constructor(
    private readonly store: Store,
    private readonly repo: IdempotencyRepository,
    private readonly clock: Clock,
    private readonly leaseMs: number,
  ) {}

  /**
   * Claims `key` for this request, or answers for it: the stored response to replay, or a
   * DomainError (in use, reused for another request, or applied with its response lost).
   */
  async claim(principal: Principal, key: string, request: RequestShape, respond?: ResponseOf): Promise<Claim | StoredResponse> {
    checkKey(key);
    // The user is part of the request: another user's repeat is another request, never a replay of theirs.
    const fingerprint = createHash('sha256').update(canonical([request.method, request.url, principal.userId, request.body])).digest('base64url');
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await this.store.transaction((tx) => this.tryClaim(tx, principal.accountId, key, fingerprint, respond));
      if (answer) return answer;
    }
    throw inUse();
  }

  private async tryClaim(tx: Tx, accountId: string, key: string, fingerprint: string, respond?: ResponseOf): Promise<Claim | StoredResponse | undefined> {
    const now = this.clock();
    const owner = randomBytes(12).toString('base64url');
    const fresh: IdempotencyRow = {
      account_id: accountId,
      key,
      fingerprint,
      state: 'running',
      owner,
      locked_until: new Date(now.getTime() + this.leaseMs).toISOString(),
      response_status: null,
      response_headers: null,
      response_body: null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + KEY_LIFETIME_MS).toISOString(),
    };
    const claimed: Claim = { accountId, key, owner, active: true, respond, storedWithChange: false };
    if (await this.repo.insert(tx, fresh)) return claimed;
    const row = await this.repo.find(tx, accountId, key);
    if (!row) return undefined;
    // An expired key is free again, for any request.
    if (row.expires_at <= fresh.created_at) return (await this.repo.takeOver(tx, fresh, row.owner, row.state)) ? claimed : undefined;
    if (row.fingerprint !== fingerprint) {
      throw new DomainError('idempotency_key_reused', 'This Idempotency-Key was used for another request (another path, body or user); use a new key.');
    }
    if (row.state === 'done') return { status: row.response_status!, headers: JSON.parse(row.response_headers!), body: row.response_body && JSON.parse(row.response_body) };
    if (row.locked_until > fresh.created_at) throw inUse();
    if (row.state === 'running') {
      // Its holder died before its change committed (or made none): run the request again.
      const taken = { ...fresh, created_at: row.created_at, expires_at: row.expires_at };
      return (await this.repo.takeOver(tx, taken, row.owner, 'running')) ? claimed : undefined;
    }
    throw new DomainError(
      'idempotency_response_lost',
      'The request with this Idempotency-Key was applied, but the server stopped before its response was stored; it will not be applied ' +
        'again. Read the resource to see its state.',
    );
  }

  /**
   * Runs `fn` (the request's handler) so that every transaction it opens marks the claim applied
   * before committing, or stores the response with it when the route can say it from the result,
   * and fails if another attempt has taken the key over meanwhile.
   */
  run<T>(claim: Claim, fn: () => T): T {
    return withTransactionScope(
      {
        beforeCommit: async (tx, result) => {
          if (!claim.active) return;
          const { accountId, key, owner, respond } = claim;
          if (respond && !claim.storedWithChange) {
            if (!(await this.repo.complete(tx, accountId, key, owner, this.stored(respond(result as never))))) throw inUse();
            this.store.afterCommit(tx, () => (claim.storedWithChange = true));
          } else if (!(await this.repo.markApplied(tx, accountId, key, owner))) throw inUse();
        },
      },
      fn,
    );
  }

  /**
   * Stores the response to replay, unless it committed with the change; for a 5xx or 429 (never
   * kept) gives the key up when nothing was applied under it. `payload` is the JSON body sent.
   */
  async complete(claim: Claim, status: number, headers: Record<string, unknown>, payload: unknown): Promise<void> {
    claim.active = false;
    const { accountId, key, owner } = claim;
    if (status >= 500 || status === 429) {
      await this.store.transaction((tx) => this.repo.release(tx, accountId, key, owner));
      return;
    }
    if (claim.storedWithChange) return;
    const body = typeof payload === 'string' && payload !== '' ? (JSON.parse(payload) as Record<string, unknown>) : null;
    const replayed = Object.fromEntries(REPLAYED_HEADERS.filter((name) => headers[name] !== undefined).map((name) => [name, String(headers[name])]));
    await this.store.transaction((tx) => this.repo.complete(tx, accountId, key, owner, this.stored({ status, headers: replayed, body })));
  }

  /** A response as it is kept: no meta (each replay has its own), no one-time secret. */
  private stored(response: StoredResponse) {
    let body = response.body;
    if (body) {
      const { meta: _meta, ...rest } = body;
      body = 'data' in rest ? { ...rest, data: stripSecrets(rest.data) } : rest;
    }
    return { response_status: response.status, response_headers: JSON.stringify(response.headers), response_body: body && JSON.stringify(body) };
  }

  /** Deletes keys past their 24 hours (hourly). */
  prune(): Promise<number> {
    return this.store.run((db) => this.repo.pruneExpiredAnyAccount(db, this.clock().toISOString()));
  }
}
