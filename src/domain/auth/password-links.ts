// One-time links to set a password (CONTRACT.md §16): sent by e-mail with an invitation (valid 7
// days) or a reset (valid 1 hour). The token is 256 random bits; only its SHA-256 is stored, a link
// works once, a newer link ends the older ones, and setting the password through one ends every
// session of that person. The invitation is queued in the transaction that creates the user.
import { createHash, randomBytes } from 'node:crypto';
import type { Store, Tx } from '../../storage/db.js';
import type { PasswordLinkRepository } from '../../storage/password-link-repository.js';
import type { UserRepository } from '../../storage/user-repository.js';
import type { EventLog } from '../events/event-log.js';
import type { Clock } from '../ids.js';
import type { MailLinks } from '../mail/links.js';
import { invitation, passwordReset } from '../mail/messages.js';
import type { MailOutbox } from '../mail/outbox.js';
import type { Invitations, SessionEnder, UserChangeListener } from '../users/users.js';
import { normaliseEmail } from '../users/users.js';
import { hashPassword } from './passwords.js';

export const INVITATION_TTL_MS = 7 * 86_400_000;
export const RESET_TTL_MS = 3_600_000;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export type LinkPurpose = 'invitation' | 'reset';

export class PasswordLinks implements Invitations {
  constructor(
    private readonly store: Store,
    private readonly repo: PasswordLinkRepository,
    private readonly users: UserRepository,
    private readonly sessions: SessionEnder,
    private readonly events: EventLog,
    private readonly outbox: MailOutbox,
    private readonly links: MailLinks,
    private readonly clock: Clock,
    private readonly listener: UserChangeListener,
  ) {}

  /** Inside `tx`: ends the user's earlier links and sends a fresh invitation from `inviterId`. Returns when the link expires. */
  async invite(tx: Tx, accountId: string, inviterId: string, user: { id: string; email: string; role: string }): Promise<string> {
    const inviter = await this.users.get(tx, accountId, inviterId);
    const { token, expiresAt } = await this.issue(tx, accountId, user.id, 'invitation');
    const content = invitation({
      inviter: { name: inviter?.name ?? 'An administrator', email: inviter?.email ?? 'an administrator' },
      email: user.email,
      role: user.role,
      link: this.links.setPassword(token),
      expiresAt,
    });
    await this.outbox.queue(tx, accountId, [{ kind: 'invitation', to: user.email, content }]);
    return expiresAt.toISOString();
  }

  /** "Forgot password?": a reset link to the address, if a user has it; nothing otherwise (the page says the same either way). */
  async requestReset(email: string): Promise<void> {
    const user = await this.store.run((db) => this.users.findByEmailAnyAccount(db, normaliseEmail(email)));
    if (!user) return;
    await this.store.transaction(async (tx) => {
      const { token, expiresAt } = await this.issue(tx, user.account_id, user.id, 'reset');
      const content = passwordReset({ email: user.email, link: this.links.setPassword(token), expiresAt });
      await this.outbox.queue(tx, user.account_id, [{ kind: 'password_reset', to: user.email, content }]);
    });
  }

  /** The live link a token opens: whose it is and what for; undefined when unknown, used or expired. */
  async check(token: string): Promise<{ email: string; purpose: LinkPurpose } | undefined> {
    const row = await this.live(token);
    return row && { email: row.email, purpose: row.purpose as LinkPurpose };
  }

  /**
   * Sets the password through a live link and uses the link up, in one transaction that also ends
   * the person's other links and every session. Undefined when the link is unknown, used or expired.
   */
  async setPassword(token: string, password: string): Promise<{ email: string } | undefined> {
    const row = await this.live(token);
    if (!row) return undefined;
    // Hashed before the transaction: nothing but queries may be awaited inside one.
    const passwordHash = await hashPassword(password);
    const done = await this.events.change(row.account_id, async (tx, emit) => {
      const now = this.clock().toISOString();
      if (!(await this.repo.useAnyAccount(tx, hashToken(token), now))) return false;
      const user = await this.users.update(tx, row.account_id, row.user_id, { password_hash: passwordHash, updated_at: now });
      if (!user) return false;
      await this.repo.endForUser(tx, row.account_id, row.user_id, now);
      await this.sessions.deleteForUser(tx, row.account_id, row.user_id);
      emit('user.updated', user);
      return true;
    });
    if (!done) return undefined;
    this.listener.userChanged(row.user_id);
    return { email: row.email };
  }

  private async live(token: string) {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    return this.store.run((db) => this.repo.findLiveAnyAccount(db, hashToken(token), this.clock().toISOString()));
  }

  /** Inside `tx`: a new link for the user, ending the earlier ones. */
  private async issue(tx: Tx, accountId: string, userId: string, purpose: LinkPurpose): Promise<{ token: string; expiresAt: Date }> {
    const now = this.clock();
    const expiresAt = new Date(now.getTime() + (purpose === 'invitation' ? INVITATION_TTL_MS : RESET_TTL_MS));
    const token = randomBytes(32).toString('base64url');
    await this.repo.endForUser(tx, accountId, userId, now.toISOString());
    await this.repo.insert(tx, { token_hash: hashToken(token), account_id: accountId, user_id: userId, purpose, created_at: now.toISOString(), expires_at: expiresAt.toISOString(), used_at: null });
    return { token, expiresAt };
  }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
