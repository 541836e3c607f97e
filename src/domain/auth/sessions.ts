// Dashboard sessions: the second way to become a Principal. Signing in with e-mail and password
// creates a row holding a hash of a random token (the cookie holds the token itself); a session acts
// as its user with every scope the user's role may hold. It ends after an idle period, at an
// absolute limit, on sign-out, or when its user is deleted; a role change applies within a second
// (at once on the instance that made it), like a cached API key.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SessionConfig } from '../../config.js';
import type { Store } from '../../storage/db.js';
import type { SessionPrincipalRow, SessionRepository } from '../../storage/session-repository.js';
import type { UserRepository } from '../../storage/user-repository.js';
import { DomainError } from '../errors.js';
import { newId, type Clock } from '../ids.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { scopesForRole, type Principal, type Role } from './permissions.js';
import type { UserChangeListener } from '../users/users.js';
import { normaliseEmail } from '../users/users.js';
import type { PeerRelay } from '../peers.js';

const FRESH_MS = 1000;
const MAX_ENTRIES = 10_000;
const ENDED = 'session.ended';
const USER_CHANGED = 'session.user';
/** The idle deadline is renewed at most this often per instance: no write per request. */
const TOUCH_EVERY_MS = 60_000;
const TOKEN_PREFIX = 'cms_sess_';
const TOKEN_SHAPE = /^cms_sess_[A-Za-z0-9_-]{43}$/;

/** Requests a session makes are counted under this pseudo key id (one per user), see docs/dashboard.md. */
export const SESSION_KEY_PREFIX = 'dashboard:';
export const sessionKeyId = (userId: string) => `${SESSION_KEY_PREFIX}${userId}`;

/** What the dashboard learns about its session (GET /auth/session, POST /auth/sign-in). */
export interface SessionView {
  user: { id: string; email: string; name: string; role: Role };
  account: { id: string; plan: string };
  scopes: string[];
  csrf_token: string;
  /** The absolute end of the session. */
  expires_at: string;
  /** When it ends if unused from now on. */
  idle_expires_at: string;
}

export interface ActiveSession {
  id: string;
  principal: Principal;
  csrfToken: string;
  view: SessionView;
}

interface Entry {
  row: SessionPrincipalRow;
  fetchedAt: number;
}

export class SessionService implements UserChangeListener {
  private readonly cache = new Map<string, Entry>();
  private generation = 0;
  private relay: PeerRelay | undefined;
  /** A hash to verify against when the e-mail is unknown, so both answers take the same scrypt time. */
  private readonly decoy: Promise<string> = hashPassword(randomBytes(16).toString('hex'));

  constructor(
    private readonly store: Store,
    private readonly repo: SessionRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly config: SessionConfig,
  ) {}

  /**
   * Checks the password and opens a session. A wrong password, an unknown e-mail and a user without
   * a password get the same answer after the same work, so the answer tells nothing about accounts.
   */
  async signIn(email: string, password: string, userAgent: string | undefined): Promise<{ token: string; session: ActiveSession }> {
    const user = await this.store.run((db) => this.users.findByEmailAnyAccount(db, normaliseEmail(email)));
    const matches = await verifyPassword(password, user?.password_hash ?? (await this.decoy));
    if (!user || user.password_hash === null || !matches) {
      throw new DomainError('unauthorized', 'The e-mail address or the password is not right.');
    }
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const now = this.clock();
    const row = {
      id: newId('sess'),
      token_hash: hashToken(token),
      account_id: user.account_id,
      user_id: user.id,
      csrf_token: randomBytes(32).toString('base64url'),
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + this.config.maxHours * 3_600_000).toISOString(),
      user_agent: userAgent?.slice(0, 300) ?? null,
    };
    await this.store.transaction((tx) => this.repo.insert(tx, row));
    const session = await this.authenticate(token);
    if (!session) throw new DomainError('unavailable', 'The session could not be opened; try again.');
    return { token, session };
  }

  /** The session a cookie's token opens, or undefined when it is unknown, idle too long or past its end. */
  async authenticate(token: string): Promise<ActiveSession | undefined> {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    const hash = hashToken(token);
    const now = this.clock();
    let entry = this.cache.get(hash);
    if (!entry || now.getTime() - entry.fetchedAt >= FRESH_MS) {
      const generation = this.generation;
      const row = await this.store.run((db) => this.repo.findByHash(db, hash));
      this.cache.delete(hash);
      if (!row) return undefined;
      entry = { row, fetchedAt: now.getTime() };
      if (generation === this.generation) {
        this.cache.set(hash, entry);
        if (this.cache.size > MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      }
    }
    const { row } = entry;
    const idleEnd = Date.parse(row.last_seen_at) + this.config.idleMinutes * 60_000;
    if (now.getTime() >= Date.parse(row.expires_at) || now.getTime() >= idleEnd) {
      this.cache.delete(hash);
      await this.store.run((db) => this.repo.delete(db, row.account_id, row.session_id));
      return undefined;
    }
    if (now.getTime() - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS) {
      row.last_seen_at = now.toISOString();
      await this.store.run((db) => this.repo.touch(db, row.account_id, row.session_id, row.last_seen_at));
    }
    return toSession(row, this.config);
  }

  /** Ends the session now, on every instance (the row goes; other instances' caches last a second at most). */
  async signOut(session: ActiveSession): Promise<void> {
    this.invalidate((row) => row.session_id === session.id);
    this.relay?.publish(ENDED, session.id);
    await this.store.run((db) => this.repo.delete(db, session.principal.accountId, session.id));
  }

  /** Ends every session of a user (their password was set anew). */
  async endAll(accountId: string, userId: string): Promise<number> {
    this.userChanged(userId);
    return this.store.run((db) => this.repo.deleteForUser(db, accountId, userId));
  }

  /** A user's role changed or the user was deleted: forget what is cached, so the next request reads it anew. */
  userChanged(userId: string): void {
    this.invalidate((row) => row.user_id === userId);
    this.relay?.publish(USER_CHANGED, userId);
  }

  /** With several server processes (WORKERS): tells the others what is dropped here, and drops what they do. */
  relayTo(relay: PeerRelay): void {
    this.relay = relay;
    relay.subscribe(ENDED, (id) => this.invalidate((row) => row.session_id === id));
    relay.subscribe(USER_CHANGED, (id) => this.invalidate((row) => row.user_id === id));
  }

  /** Deletes sessions that have ended (run now and then; an ended session is refused anyway). */
  async prune(): Promise<void> {
    const now = this.clock();
    const idleBefore = new Date(now.getTime() - this.config.idleMinutes * 60_000).toISOString();
    await this.store.run((db) => this.repo.prune(db, now.toISOString(), idleBefore));
  }

  private invalidate(matches: (row: SessionPrincipalRow) => boolean): void {
    this.generation++;
    for (const [hash, entry] of this.cache) if (matches(entry.row)) this.cache.delete(hash);
  }
}

/** Whether a request's X-CSRF-Token is the session's (constant time). */
export function csrfTokenMatches(session: ActiveSession, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(session.csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function toSession(row: SessionPrincipalRow, config: SessionConfig): ActiveSession {
  const role = row.role as Role;
  const scopes = scopesForRole(role);
  const principal: Principal = {
    accountId: row.account_id,
    userId: row.user_id,
    keyId: sessionKeyId(row.user_id),
    kind: 'management',
    credential: 'session',
    role,
    scopes,
    plan: row.plan,
    rateLimit: row.rate_limit === null ? null : Number(row.rate_limit),
    quota: row.quota === null ? null : Number(row.quota),
    accountCreatedAt: row.account_created_at,
  };
  const idleEnd = Math.min(Date.parse(row.last_seen_at) + config.idleMinutes * 60_000, Date.parse(row.expires_at));
  return {
    id: row.session_id,
    principal,
    csrfToken: row.csrf_token,
    view: {
      user: { id: row.user_id, email: row.email, name: row.name, role },
      account: { id: row.account_id, plan: row.plan },
      scopes,
      csrf_token: row.csrf_token,
      expires_at: row.expires_at,
      idle_expires_at: new Date(idleEnd).toISOString(),
    },
  };
}
