// What an OAuth app may be granted (CONTRACT.md §15): every scope of §4 but keys:write, so a token
// never mints keys or apps; and each scope in words, as the consent page and the docs say it.
import { roleMayHold, SCOPES, type Role, type Scope } from '../auth/permissions.js';

export type GrantableScope = Exclude<Scope, 'keys:write'>;
export const GRANTABLE_SCOPES = SCOPES.filter((s): s is GrantableScope => s !== 'keys:write');

export const SCOPE_WORDS: Record<GrantableScope, string> = {
  'content:read': 'Read your content items',
  'content:write': 'Create, change, archive and delete content items',
  'users:read': "See your account's users",
  'users:write': "Add, change and remove your account's users",
  'webhooks:write': "Manage your account's webhook endpoints",
  'events:read': "Receive your account's events (the real-time channel and the event log)",
};

/** Space-separated scopes (OAuth's form) → the grantable ones among them, in the canonical order. */
export function grantableOf(scope: string | undefined): GrantableScope[] {
  const named = new Set((scope ?? '').split(' '));
  return GRANTABLE_SCOPES.filter((s) => named.has(s));
}

/**
 * What a token may do, and what a refresh may give: what was granted, narrowed to what the app may
 * *now* ask for (its `scopes`, which its owner may narrow later) and to what the person's *current*
 * role may hold (issue 21 P3-2, docs/oauth.md "Scopes").
 */
export function effectiveScopes(granted: string, role: Role, appScopes: readonly string[]): GrantableScope[] {
  return grantableOf(granted).filter((s) => roleMayHold(role, s) && appScopes.includes(s));
}
