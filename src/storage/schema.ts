// Row types of every table, as Kysely sees them. Timestamps are ISO 8601 UTC strings with
// milliseconds in both dialects, so they sort as text and need no per-dialect conversion.
import type { Generated } from 'kysely';

export interface AccountTable {
  id: string;
  name: string;
  plan: string;
  /** Overrides the plan's hourly limit when set. */
  rate_limit: number | null;
  /** Overrides the plan's monthly quota when set. */
  quota: number | null;
  created_at: string;
  updated_at: string;
}

export interface UserTable {
  id: string;
  account_id: string;
  email: string;
  name: string;
  role: string;
  password_hash: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeyTable {
  id: string;
  account_id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  /** JSON array of scope names. */
  scopes: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface ContentTable {
  id: string;
  account_id: string;
  title: string;
  type: string;
  content: string;
  status: string;
  author: string;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  version: number;
  /** The title folded for sorting (content-sort.ts: titleSortKey), written with every title. */
  title_sort: string;
}

/** One version of a content item (migration 010). */
export interface ContentRevisionTable {
  account_id: string;
  content_id: string;
  version: number;
  title: string;
  type: string;
  content: string;
  status: string;
  /** The user who made the version; null when not known (versions made before revisions were kept). */
  changed_by: string | null;
  created_at: string;
}

/** One-row facts about the store itself, such as "bootstrap done"; the primary key makes them race-free. */
export interface SettingTable {
  key: string;
  value: string;
}

/** Maintained by triggers (migration 002); never written by application code. */
export interface ContentCountTable {
  account_id: string;
  type: string;
  status: string;
  n: number;
}

/** Each account's last event number; written only by the event log. */
export interface EventSequenceTable {
  account_id: string;
  seq: number;
}

export interface EventTable {
  id: string;
  account_id: string;
  /** Per-account order: 1, 2, 3… in commit order, without gaps. */
  seq: number;
  type: string;
  /** JSON text of the payload subscribers receive. */
  data: string;
  created_at: string;
}

/** Requests of a billing cycle that ended 2xx, per key; added to in batches (migration 004). */
export interface UsageCountTable {
  account_id: string;
  /** Start of the billing cycle, ISO 8601 UTC. */
  period_start: string;
  key_id: string;
  used: number;
}

/** One row per usage alert announced; the primary key (account_id, marker) makes it once only. */
export interface UsageAlertTable {
  account_id: string;
  marker: string;
  created_at: string;
}

/** A webhook endpoint of an account (CONTRACT.md §10). */
export interface WebhookEndpointTable {
  id: string;
  account_id: string;
  url: string;
  description: string;
  /** JSON array of event names, or ["*"]. */
  events: string;
  /** 1 or 0 (the same integer in both dialects). */
  enabled: number;
  /** whsec_… (signing needs the secret itself, so it cannot be stored as a hash). */
  secret: string;
  /** The secret before the last rotation; it still signs until previous_secret_expires_at. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  /** Why the endpoint is disabled: requested, gone (410) or failing (3 days); null while enabled. */
  disabled_reason: string | null;
  disabled_at: string | null;
  /** Start of the current run of failed attempts; null after a success. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

/** One delivery attempt of one event to one endpoint. */
export interface WebhookDeliveryTable {
  id: string;
  account_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: string;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: string;
  attempted_at: string | null;
  /** While pending: when the attempt is due. Once failed: when the next attempt is due (null: none). */
  next_attempt_at: string | null;
  /** A worker's claim on a pending attempt: its token and when the claim lapses. */
  lease: string | null;
  locked_until: string | null;
  /** The body to send when it is not an event of the log (webhook.test pings). */
  payload: string | null;
}

/** A dashboard sign-in (migration 006); the cookie holds the token, the row only its hash. */
export interface SessionTable {
  id: string;
  token_hash: string;
  account_id: string;
  user_id: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_agent: string | null;
}

/** Requests that ended 2xx per account and UTC day (YYYY-MM-DD); added to in batches (migration 006). */
export interface UsageDayTable {
  account_id: string;
  day: string;
  used: number;
}

/** An OAuth app (client) registered by a user of an account (migration 007). */
export interface OAuthAppTable {
  id: string;
  account_id: string;
  user_id: string;
  name: string;
  /** confidential or public. */
  type: string;
  /** JSON array of URLs. */
  redirect_uris: string;
  /** JSON array of scope names: the most the app may ask for. */
  scopes: string;
  /** SHA-256 of the client secret; null for public apps. */
  secret_hash: string | null;
  created_at: string;
  updated_at: string;
}

/** A person's consent to an app (a connected app); tokens of the authorization code flow hang off it. */
export interface OAuthGrantTable {
  id: string;
  account_id: string;
  user_id: string;
  app_id: string;
  /** JSON array of the scopes granted. */
  scopes: string;
  /** The authorization server's record of the grant, JSON. */
  payload: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
}

/** An access or refresh token, or an authorization code, stored by the SHA-256 hash of its value. */
export interface OAuthTokenTable {
  hash: string;
  kind: string;
  app_id: string;
  grant_id: string | null;
  user_id: string;
  /** Space-separated, as OAuth writes scopes. */
  scope: string;
  payload: string;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
}

/** Short-lived records of the authorization server (sign-ins and consents in progress). */
export interface OAuthRecordTable {
  kind: string;
  id: string;
  payload: string;
  expires_at: string;
}

/** One e-mail message waiting in the outbox, being sent, sent or given up (migration 008). */
export interface MailOutboxTable {
  id: string;
  account_id: string;
  kind: string;
  recipient: string;
  /** The recipient's domain, lower case: the worker's partition. */
  domain: string;
  subject: string;
  /** The message's parts, erased (null) once it is sent or given up: they may hold a one-time link. */
  text_body: string | null;
  html_body: string | null;
  message_id: string;
  /** pending, sent or failed. */
  status: string;
  /** Attempts made so far. */
  attempts: number;
  last_error: string | null;
  created_at: string;
  /** While pending: when the next attempt is due. */
  next_attempt_at: string | null;
  sent_at: string | null;
  /** A worker's claim on a pending message: its token and when the claim lapses. */
  lease: string | null;
  locked_until: string | null;
}

/** A one-time link to set a password (invitation or reset); only the token's hash is stored. */
export interface PasswordLinkTable {
  token_hash: string;
  account_id: string;
  user_id: string;
  purpose: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** One row per notice sent under a marker; the primary key makes it once only (or once per period). */
export interface MailMarkerTable {
  account_id: string;
  marker: string;
  sent_at: string;
}

/** Calls to a deprecated route per account, billing cycle and key; added to in batches (migration 008). */
export interface DeprecatedCallTable {
  account_id: string;
  period_start: string;
  method: string;
  path: string;
  key_id: string;
  calls: number;
  last_called_at: string;
}

/** An idempotency key of an account and what became of its request (migration 011). */
export interface IdempotencyKeyTable {
  account_id: string;
  key: string;
  fingerprint: string;
  /** running, applied or done. */
  state: string;
  owner: string;
  locked_until: string;
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

export interface Database {
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  event_sequences: EventSequenceTable;
  events: EventTable;
  content_counts: ContentCountTable;
  accounts: AccountTable;
  users: UserTable;
  api_keys: ApiKeyTable;
  content: ContentTable;
  content_revisions: ContentRevisionTable;
  idempotency_keys: IdempotencyKeyTable;
  settings: SettingTable;
  usage_counts: UsageCountTable;
  usage_alerts: UsageAlertTable;
  sessions: SessionTable;
  usage_days: UsageDayTable;
  oauth_apps: OAuthAppTable;
  oauth_grants: OAuthGrantTable;
  oauth_tokens: OAuthTokenTable;
  oauth_records: OAuthRecordTable;
  mail_outbox: MailOutboxTable;
  password_links: PasswordLinkTable;
  mail_markers: MailMarkerTable;
  deprecated_calls: DeprecatedCallTable;
}

export type Dialect = 'sqlite' | 'postgres';
export type { Generated };
