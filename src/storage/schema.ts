// Row types of every table, as Kysely sees them. Timestamps are ISO 8601 UTC strings with
// milliseconds in both dialects, so they sort as text and need no per-dialect conversion.
import type { ColumnType, Generated } from 'kysely';

export interface AccountTable {
  id: string;
  name: string;
  plan: string;
  /** Overrides the plan's hourly limit when set. */
  rate_limit: number | null;
  /** Overrides the plan's monthly quota when set. */
  quota: number | null;
  /** How long public caches may keep a delivery key's answers (seconds); null: 60 (migration 015). */
  delivery_cache_seconds: number | null;
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
  /** management or delivery (migration 015). */
  kind: Generated<string>;
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
  /** The current slug; null until the backfill or the item's next write gives it one (migration 015). */
  slug: string | null;
  /** When the item is to be published or archived; null: not scheduled. */
  publish_at: string | null;
  unpublish_at: string | null;
  /**
   * The item's typed fields (migration 016): jsonb on PostgreSQL (read back as an object), JSON text
   * on SQLite; written as JSON text on both. Read it through content-fields.ts: parseFields.
   */
  fields: ColumnType<unknown, string | undefined, string>;
  /** The values of the item's `text`-kind fields, for search (migration 019; fields-step.ts writes it). */
  fields_text: ColumnType<string, string | undefined, string>;
}

/**
 * SQLite only (migration 021): each item's list keys, kept by triggers on content, the table the
 * typed fields' expression indexes are built on (storage/dialect/sqlite-content-keys.ts). `item` is
 * content's rowid. A list with typed fields reads it under the name `content`.
 */
export interface ContentKeysTable {
  item: number;
  id: string;
  account_id: string;
  type: string;
  status: string;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  publish_at: string | null;
  title_sort: string;
  fields: ColumnType<unknown, string, string>;
}

/** An account's model of one content type (migration 016): its field definitions, versioned. */
export interface ContentTypeTable {
  account_id: string;
  type: string;
  /** JSON array of field definitions, in order. */
  fields: string;
  version: number;
  updated_at: string;
}

/** Every slug an item holds, current and aliases, reserved per account and type (migration 015). */
export interface ContentSlugTable {
  account_id: string;
  slug: string;
  type: string;
  content_id: string;
  /** The slug a title made, before its suffix; a given slug is its own base. */
  base: string;
  /** The suffix number (-2, -3…); 1 for none. */
  n: number;
  created_at: string;
}

/** A pending (or failed) scheduled transition of an item, claimed by the outbox worker under a lease. */
export interface ContentScheduleTable {
  id: string;
  account_id: string;
  content_id: string;
  /** publish or unpublish. */
  action: string;
  due_at: string;
  /** The user the transition acts as. */
  scheduled_by: string;
  /** pending or failed. */
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string;
  lease: string | null;
  locked_until: string | null;
  created_at: string;
}

/** One-off work done in batches after a migration (the slug backfill), claimed under a lease. */
export interface BackgroundTaskTable {
  id: string;
  /** pending or done. */
  status: string;
  next_attempt_at: string;
  lease: string | null;
  locked_until: string | null;
  /** Where the task goes on from. */
  position: string | null;
  done: number;
  updated_at: string;
}

/** A bulk job (migration 017). */
export interface ContentJobTable {
  id: string;
  account_id: string;
  action: string;
  filter: string;
  scopes: string;
  /** queued, running, succeeded, failed or cancelled. */
  state: string;
  /** The lease's: pending or done. */
  status: string;
  next_attempt_at: string;
  lease: string | null;
  locked_until: string | null;
  position: string;
  total: number;
  done: number;
  failed: number;
  errors: string;
  created_by: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** set_fields: the fields to set (JSON object); null for the other actions (migration 020). */
  fields: string | null;
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
  /** The version's typed fields, as on content (migration 016). */
  fields: ColumnType<unknown, string | undefined, string>;
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

/** A media record of an account (migration 018). `size` is bigint: a string from PostgreSQL. */
export interface MediaTable {
  id: string;
  account_id: string;
  filename: string;
  content_type: string;
  kind: string;
  size: number | string;
  sha256: string;
  width: number | null;
  height: number | null;
  alt: string;
  title: string;
  /** 0 or 1. */
  public: number;
  version: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** A content item's reference to a media record (migration 018). */
export interface MediaRefTable {
  account_id: string;
  media_id: string;
  content_id: string;
}

/** A variant of some stored bytes, claimed by the instance that makes it (migration 018). */
export interface MediaVariantTable {
  sha256: string;
  variant: string;
  state: string;
  claimed_at: string;
}

/** Bytes of media an account stores, and its own quota (migration 018). */
export interface MediaStorageTable {
  account_id: string;
  used_bytes: number | string;
  quota_bytes: number | string | null;
}

export interface Database {
  media: MediaTable;
  media_refs: MediaRefTable;
  media_variants: MediaVariantTable;
  media_storage: MediaStorageTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  event_sequences: EventSequenceTable;
  events: EventTable;
  content_counts: ContentCountTable;
  accounts: AccountTable;
  users: UserTable;
  api_keys: ApiKeyTable;
  content: ContentTable;
  content_keys: ContentKeysTable;
  content_revisions: ContentRevisionTable;
  content_types: ContentTypeTable;
  content_slugs: ContentSlugTable;
  content_schedules: ContentScheduleTable;
  background_tasks: BackgroundTaskTable;
  content_jobs: ContentJobTable;
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
