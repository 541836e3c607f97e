// Users of an account: listing, reading and changes, with the role rules of CONTRACT.md §4 and §6
// (admins never touch owners, nobody changes their own role, an account keeps one owner).
import type { Db, Store, Tx } from '../../storage/db.js';
import type { PublicUserRow, UserRepository } from '../../storage/user-repository.js';
import { UniqueViolation } from '../../storage/errors.js';
import { DomainError, forbidden, invalid, notFound } from '../errors.js';
import type { EventLog } from '../events/event-log.js';
import { newId, type Clock } from '../ids.js';
import { textProblem } from '../text.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { requireScope, type Principal, type Role } from '../auth/permissions.js';
import { pageOf, pageWindow, type PageResult } from '../schemas/common.js';
import type { User, UserCreate, UserListQuery, UserUpdate } from '../schemas/users.js';

/** Told when users disappear or change role, so cached credentials stop working at once. */
export interface UserChangeListener {
  userChanged(userId: string): void;
}

/** Ends a user's dashboard sessions (but `keep`, when given) inside the transaction that sets a new password. */
export interface SessionEnder {
  deleteForUser(tx: Tx, accountId: string, userId: string, keep?: string): Promise<number>;
}

/** Sends a user a link to choose a password, inside the transaction that created or re-invites them (src/domain/auth/password-links.ts). */
export interface Invitations {
  /** Ends the user's earlier links; returns when the new one expires. */
  invite(tx: Tx, accountId: string, inviterId: string, user: { id: string; email: string; role: string }): Promise<string>;
}

/** Counts an invitation to a recipient before it is queued; throws LimitExceeded (429) past the limit (the server's RateLimiter). */
export interface InvitationLimit {
  admitInvitation(email: string): Promise<void>;
}

/** The answer to POST /v1/users/{id}/invite. */
export interface InvitationSent {
  user_id: string;
  email: string;
  expires_at: string;
}

export class UserService {
  /** Set by the server (openLimits); the CLI sends no invitations and counts nothing. */
  private invitationLimit: InvitationLimit | undefined;

  constructor(
    private readonly store: Store,
    private readonly repo: UserRepository,
    private readonly events: EventLog,
    private readonly clock: Clock,
    private readonly listener: UserChangeListener,
    private readonly sessions: SessionEnder,
    private readonly invitations: Invitations,
  ) {}

  /** Invitations are counted per recipient from here on (issue 21, P3-4). */
  limitInvitations(limit: InvitationLimit): void {
    this.invitationLimit = limit;
  }

  async list(principal: Principal, query: UserListQuery): Promise<PageResult<User>> {
    requireScope(principal, 'users:read');
    const window = pageWindow(query);
    const { rows, total } = await this.store.run((db) => this.repo.list(db, principal.accountId, query.role, window.limit, window.offset));
    return pageOf(rows as User[], total, window);
  }

  async get(principal: Principal, id: string): Promise<User> {
    requireScope(principal, 'users:read');
    const row = await this.store.run((db) => this.repo.get(db, principal.accountId, id));
    if (!row) throw notFound('User');
    return row as User;
  }

  async create(principal: Principal, input: UserCreate): Promise<User> {
    requireScope(principal, 'users:write');
    if (input.password !== undefined) passwordRule(principal);
    if (input.role === 'owner' && principal.role !== 'owner') throw forbidden('Only an owner may create another owner.');
    const now = this.clock().toISOString();
    const row = {
      id: newId('user'),
      account_id: principal.accountId,
      email: normaliseEmail(input.email),
      name: input.name,
      role: input.role,
      password_hash: input.password === undefined ? null : await hashPassword(input.password),
      created_at: now,
      updated_at: now,
    };
    const { account_id: _a, password_hash: _p, ...user } = row;
    // Counted before anything is written, and kept out of the transaction (no lock held across the counter's round trip).
    if (row.password_hash === null) await this.invitationLimit?.admitInvitation(row.email);
    await this.uniqueEmail(row.email, () =>
      this.events.change(principal.accountId, async (tx, emit) => {
        await this.repo.insert(tx, row);
        emit('user.created', user);
        // Without a password, the new user chooses one through an e-mailed link (§16).
        if (row.password_hash === null) await this.invitations.invite(tx, principal.accountId, principal.userId, row);
      }),
    );
    return user as User;
  }

  /**
   * Sends a fresh invitation (the earlier link stops working), under the rules of updating the
   * user. A user who has chosen a password already is a 409: they use "Forgot password?".
   */
  async invite(principal: Principal, id: string): Promise<InvitationSent> {
    requireScope(principal, 'users:write');
    // Checked once without writing, so that only an invitation that will go out is counted, outside the transaction.
    const recipient = await this.store.run((db) => this.invitable(db, principal, id));
    await this.invitationLimit?.admitInvitation(recipient.email);
    return this.events.change(principal.accountId, async (tx) => {
      const target = await this.invitable(tx, principal, id);
      const expiresAt = await this.invitations.invite(tx, principal.accountId, principal.userId, target);
      return { user_id: target.id, email: target.email, expires_at: expiresAt };
    });
  }

  /**
   * A signed-in person changes their own password (the dashboard): the current one must match; the
   * new one ends every other session of theirs. Without `users:write`, since it is one's own.
   */
  async changeOwnPassword(principal: Principal, sessionId: string, current: string, next: string): Promise<void> {
    const stored = await this.store.run((db) => this.repo.passwordHash(db, principal.accountId, principal.userId));
    if (!stored || !(await verifyPassword(current, stored))) {
      throw invalid([{ field: 'current_password', code: 'invalid_value', message: 'This is not your current password.' }]);
    }
    const passwordHash = await hashPassword(next);
    await this.events.change(principal.accountId, async (tx, emit) => {
      const row = await this.repo.update(tx, principal.accountId, principal.userId, { password_hash: passwordHash, updated_at: this.clock().toISOString() });
      if (!row) throw notFound('User');
      await this.sessions.deleteForUser(tx, principal.accountId, principal.userId, sessionId);
      emit('user.updated', row);
    });
    this.listener.userChanged(principal.userId);
  }

  async update(principal: Principal, id: string, input: UserUpdate): Promise<User> {
    requireScope(principal, 'users:write');
    if (input.password !== undefined) passwordRule(principal, id);
    const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
    const email = input.email === undefined ? undefined : normaliseEmail(input.email);
    const updated = await this.uniqueEmail(email, () =>
      this.events.change(principal.accountId, async (tx, emit) => {
        const target = await this.target(tx, principal, id);
        if (input.role !== undefined && input.role !== target.role) {
          if (target.id === principal.userId) throw forbidden('You cannot change your own role.');
          if (input.role === 'owner' && principal.role !== 'owner') throw forbidden('Only an owner may grant the owner role.');
          if (target.role === 'owner') await this.keepAnOwner(tx, principal.accountId);
        }
        const row = await this.repo.update(tx, principal.accountId, id, {
          ...(email !== undefined ? { email } : {}),
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.role !== undefined ? { role: input.role } : {}),
          ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}),
          updated_at: this.clock().toISOString(),
        });
        // A new password signs the user out everywhere, as a reset should.
        if (passwordHash !== undefined) await this.sessions.deleteForUser(tx, principal.accountId, id);
        emit('user.updated', row!);
        return row!;
      }),
    );
    this.listener.userChanged(id);
    return updated as User;
  }

  async remove(principal: Principal, id: string): Promise<void> {
    requireScope(principal, 'users:write');
    await this.events.change(principal.accountId, async (tx, emit) => {
      const target = await this.target(tx, principal, id);
      if (target.role === 'owner') await this.keepAnOwner(tx, principal.accountId);
      // Their keys go with them (foreign key cascade); their content stays and keeps `author`.
      await this.repo.delete(tx, principal.accountId, id);
      emit('user.deleted', { id });
    });
    this.listener.userChanged(id);
  }

  /**
   * Loads the target inside the account's write turn (EventLog.change), so two owners demoting each
   * other at once cannot leave the account without one. Admins never act on owners.
   */
  /** A user who may be sent an invitation by `principal`: one they may change, who has no password yet. */
  private async invitable(db: Db, principal: Principal, id: string): Promise<PublicUserRow> {
    const target = await this.target(db, principal, id);
    if ((await this.repo.passwordHash(db, principal.accountId, id)) !== null) {
      throw new DomainError('conflict', 'This user has already chosen a password; they can reset it with "Forgot password?" on the sign-in page.');
    }
    return target;
  }

  private async target(tx: Db, principal: Principal, id: string): Promise<PublicUserRow> {
    const target = await this.repo.get(tx, principal.accountId, id);
    if (!target) throw notFound('User');
    if (target.role === 'owner' && principal.role !== 'owner') throw forbidden('Only an owner may change or delete an owner.');
    return target;
  }

  private async keepAnOwner(tx: Tx, accountId: string): Promise<void> {
    if ((await this.repo.countOwners(tx, accountId)) <= 1) {
      throw new DomainError('conflict', 'An account must keep at least one owner; make another user owner first.');
    }
  }

  private async uniqueEmail<T>(email: string | undefined, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof UniqueViolation) throw new DomainError('conflict', `The e-mail address ${email} is already in use.`);
      throw error;
    }
  }
}

/**
 * Who may send `password` (CONTRACT.md §6, docs/roles.md): a password opens the dashboard, which
 * mints keys of every scope, so it is taken only from a credential that could mint those keys
 * itself — an API key holding `keys:write`, or on `POST` a dashboard session (which holds it) —
 * never from an OAuth token or a narrower key. On `PUT` (`targetId` given) only for the key's own
 * user: admins invite, people reset; and not from a session, whose person changes their password
 * under Profile, giving the current one. Throws 403; the routes call it before the body is
 * validated (CONTRACT.md §3 order), the service again.
 */
export function passwordRule(principal: Principal, targetId?: string): void {
  if (principal.credential === 'oauth_token') throw forbidden('An OAuth token cannot set a password.');
  const fromSession = principal.credential === 'session';
  if ((principal.credential !== 'api_key' && !fromSession) || !principal.scopes.includes('keys:write')) {
    throw forbidden('Setting a password needs an API key with the "keys:write" scope.');
  }
  if (targetId === undefined) return;
  if (fromSession) throw forbidden('Change your own password under Profile (POST /auth/password), which asks for the current one.');
  if (targetId !== principal.userId) {
    throw forbidden('Nobody sets another person\'s password: send them an invitation (POST /v1/users/{id}/invite), or they reset it with "Forgot password?".');
  }
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A pragmatic check (one @, no white space, a dot in the domain, a sane length), as most APIs do. */
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && textProblem(value) === undefined && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}

export type { Role };
