// Accounts as the operator sees them: the first-start bootstrap and the administration CLI's
// operations (create an account with its owner and first key, change a plan, issue a key).
import { randomBytes } from 'node:crypto';
import type { Store, Tx } from '../../storage/db.js';
import type { AccountRepository } from '../../storage/account-repository.js';
import type { UserRepository } from '../../storage/user-repository.js';
import { UniqueViolation } from '../../storage/errors.js';
import { PLANS, type Plan } from '../../config.js';
import { scopeErrors, type ApiKeyService } from '../auth/api-keys.js';
import { DomainError, invalid, notFound, type FieldError } from '../errors.js';
import type { EventLog } from '../events/event-log.js';
import { newId, type Clock } from '../ids.js';
import { hashPassword } from '../auth/passwords.js';
import { scopesForRole, type Role } from '../auth/permissions.js';
import { isEmailAddress, normaliseEmail } from './users.js';
import { MAX_DELIVERY_CACHE_SECONDS } from '../publishing/delivery.js';

export interface NewAccount {
  email: string;
  name?: string;
  plan?: Plan;
  rateLimit?: number;
  quota?: number;
}

export interface CreatedAccount {
  account_id: string;
  user_id: string;
  api_key: string;
  /** The owner's dashboard password, generated and shown this once (change it with `cms users set-password`). */
  password: string;
}

/** A generated password: 24 characters from 144 random bits, past the 12-character minimum. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

export class AccountService {
  constructor(
    private readonly store: Store,
    private readonly repo: AccountRepository,
    private readonly users: UserRepository,
    private readonly keys: ApiKeyService,
    private readonly events: EventLog,
    private readonly clock: Clock,
  ) {}

  /**
   * On an empty store, creates the first account, its owner and one key, exactly once even when
   * several instances start together (the settings row's primary key decides). Returns undefined
   * when the store was already bootstrapped.
   */
  async bootstrap(plan: Plan, email: string): Promise<CreatedAccount | undefined> {
    if (await this.store.run((db) => this.repo.getSetting(db, 'bootstrapped'))) return undefined;
    const password = await newPassword();
    try {
      return await this.store.transaction(async (tx) => {
        await this.repo.markSetting(tx, 'bootstrapped', this.clock().toISOString());
        return this.insertAccount(tx, { email, plan, name: 'Owner' }, password);
      });
    } catch (error) {
      if (error instanceof UniqueViolation) return undefined;
      throw error;
    }
  }

  async createAccount(input: NewAccount): Promise<CreatedAccount> {
    const errors: FieldError[] = [];
    const email = normaliseEmail(input.email);
    if (!isEmailAddress(email)) errors.push({ field: 'email', code: 'invalid_format', message: 'Must be an e-mail address.' });
    if (input.plan !== undefined && !PLANS.includes(input.plan)) {
      errors.push({ field: 'plan', code: 'invalid_value', message: `Must be one of ${PLANS.join(', ')}.` });
    }
    if (errors.length) throw invalid(errors);
    const password = await newPassword();
    try {
      return await this.store.transaction((tx) => this.insertAccount(tx, { ...input, email }, password));
    } catch (error) {
      if (error instanceof UniqueViolation) throw new DomainError('conflict', `The e-mail address ${email} is already in use.`);
      throw error;
    }
  }

  async setPlan(accountId: string, plan: Plan, rateLimit?: number, quota?: number): Promise<void> {
    if (!PLANS.includes(plan)) throw invalid([{ field: 'plan', code: 'invalid_value', message: `Must be one of ${PLANS.join(', ')}.` }]);
    const changed = await this.store.transaction((tx) =>
      this.repo.update(tx, accountId, {
        plan,
        rate_limit: rateLimit ?? null,
        quota: quota ?? null,
        updated_at: this.clock().toISOString(),
      }),
    );
    if (!changed) throw notFound('Account');
  }

  /**
   * How long public caches may keep the answers of the account's delivery keys (operator action):
   * 0 to 86,400 seconds, or null for the default (60). Applies within a second (keys are re-read).
   */
  async setDeliveryCacheSeconds(accountId: string, seconds: number | null): Promise<void> {
    if (seconds !== null && (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_DELIVERY_CACHE_SECONDS)) {
      throw invalid([{ field: 'delivery_cache_seconds', code: 'out_of_range', message: 'Must be a whole number of seconds from 0 to 86400.' }]);
    }
    const changed = await this.store.transaction((tx) => this.repo.update(tx, accountId, { delivery_cache_seconds: seconds, updated_at: this.clock().toISOString() }));
    if (!changed) throw notFound('Account');
  }

  /** Issues a key for a user found by id or e-mail (operator action, any account). */
  async createKeyForUser(user: string, name: string, scopes?: string[]): Promise<{ id: string; api_key: string }> {
    const row = await this.store.run((db) =>
      user.startsWith('user_') ? this.users.findByIdAnyAccount(db, user) : this.users.findByEmailAnyAccount(db, normaliseEmail(user)),
    );
    if (!row) throw notFound('User');
    const errors: FieldError[] = [];
    const granted = scopeErrors(row.role as Role, scopes, errors);
    if (errors.length) throw invalid(errors);
    const created = await this.store.transaction((tx) => this.keys.issue(tx, row.account_id, row.id, name, granted));
    return { id: created.id, api_key: created.key };
  }

  /**
   * Sets a user's dashboard password (operator action, any account): the one given, or a generated
   * one that is returned. The caller ends the user's sessions.
   */
  async setPassword(user: string, password?: string): Promise<{ user_id: string; account_id: string; email: string; password?: string }> {
    if (password !== undefined && [...password].length < 12) {
      throw invalid([{ field: 'password', code: 'too_short', message: 'Must be at least 12 characters.' }]);
    }
    const row = await this.store.run((db) =>
      user.startsWith('user_') ? this.users.findByIdAnyAccount(db, user) : this.users.findByEmailAnyAccount(db, normaliseEmail(user)),
    );
    if (!row) throw notFound('User');
    const chosen = password ?? generatePassword();
    const hash = await hashPassword(chosen);
    await this.events.change(row.account_id, async (tx, emit) => {
      const updated = await this.users.update(tx, row.account_id, row.id, { password_hash: hash, updated_at: this.clock().toISOString() });
      if (updated) emit('user.updated', updated);
    });
    return { user_id: row.id, account_id: row.account_id, email: row.email, ...(password === undefined ? { password: chosen } : {}) };
  }

  private async insertAccount(tx: Tx, input: NewAccount, password: { plain: string; hash: string }): Promise<CreatedAccount> {
    const now = this.clock().toISOString();
    const accountId = newId('acct');
    const userId = newId('user');
    await this.repo.insert(tx, {
      id: accountId,
      name: input.name ?? input.email,
      plan: input.plan ?? 'pro',
      rate_limit: input.rateLimit ?? null,
      quota: input.quota ?? null,
      delivery_cache_seconds: null,
      created_at: now,
      updated_at: now,
    });
    const owner = { id: userId, email: input.email, name: input.name ?? 'Owner', role: 'owner', created_at: now, updated_at: now };
    await this.users.insert(tx, { ...owner, account_id: accountId, password_hash: password.hash });
    await this.events.record(tx, accountId, [{ type: 'user.created', data: owner }]);
    const { key } = await this.keys.issue(tx, accountId, userId, 'Default key', scopesForRole('owner'));
    return { account_id: accountId, user_id: userId, api_key: key, password: password.plain };
  }
}

/** Hashed before the transaction: nothing but queries may be awaited inside one. */
async function newPassword(): Promise<{ plain: string; hash: string }> {
  const plain = generatePassword();
  return { plain, hash: await hashPassword(plain) };
}
