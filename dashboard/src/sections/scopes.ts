// The scopes an OAuth app may be granted (every scope but keys:write), in words, as the consent page says them.
export const GRANTABLE_SCOPES: [string, string][] = [
  ['content:read', 'content:read — read content items'],
  ['content:write', 'content:write — create, change, archive and delete content items'],
  ['users:read', "users:read — see the account's users"],
  ['users:write', "users:write — add, change and remove the account's users"],
  ['webhooks:write', "webhooks:write — manage the account's webhook endpoints"],
  ['events:read', "events:read — receive the account's events"],
];
