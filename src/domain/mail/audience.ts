// Who an account's notices go to (its owners and admins), and how the keys that called a route are
// named in them.
import type { Db } from '../../storage/db.js';
import type { UsageRepository } from '../../storage/usage-repository.js';
import type { UserRepository } from '../../storage/user-repository.js';
import { SESSION_KEY_PREFIX } from '../auth/sessions.js';
import { parseAppUsageId } from '../oauth/token-credentials.js';
import type { Caller } from './messages.js';

export const ADMIN_ROLES = ['owner', 'admin'];

export class Audience {
  constructor(
    private readonly users: UserRepository,
    private readonly usage: UsageRepository,
  ) {}

  /** The e-mail addresses of the account's owners and admins. */
  async admins(db: Db, accountId: string): Promise<string[]> {
    return (await this.users.withRoles(db, accountId, ADMIN_ROLES)).map((u) => u.email);
  }

  /** Each caller (an API key id, `dashboard:<user id>` or `oauth:<app id>:<user id>`) in words, with its latest call. */
  async callers(db: Db, accountId: string, rows: { key_id: string; last_called_at: string }[]): Promise<Caller[]> {
    const keys = new Map((await this.usage.keyOwners(db, accountId, rows.map((r) => r.key_id))).map((k) => [k.id, k]));
    const appIds = rows.map((r) => parseAppUsageId(r.key_id)?.appId).filter((id): id is string => id !== undefined);
    const apps = new Map((await this.usage.appNamesAnyAccount(db, [...new Set(appIds)])).map((a) => [a.id, a.name]));
    const callers: Caller[] = [];
    for (const row of rows) {
      const key = keys.get(row.key_id);
      let who = key ? `API key “${key.name}” (${key.prefix}…)` : row.key_id.startsWith('key_') ? `A deleted API key (${row.key_id})` : row.key_id;
      const viaApp = parseAppUsageId(row.key_id);
      if (row.key_id.startsWith(SESSION_KEY_PREFIX) || viaApp) {
        const user = await this.users.get(db, accountId, viaApp?.userId ?? row.key_id.slice(SESSION_KEY_PREFIX.length));
        const person = user?.email ?? 'a user since removed';
        who = viaApp ? `The OAuth app “${apps.get(viaApp.appId) ?? viaApp.appId}”, acting for ${person}` : `The dashboard, signed in as ${person}`;
      }
      callers.push({ who, lastCalledAt: row.last_called_at });
    }
    return callers;
  }
}
