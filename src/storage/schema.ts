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

export interface Database {
  event_sequences: EventSequenceTable;
  events: EventTable;
  content_counts: ContentCountTable;
  accounts: AccountTable;
  users: UserTable;
  api_keys: ApiKeyTable;
  content: ContentTable;
  settings: SettingTable;
  usage_counts: UsageCountTable;
  usage_alerts: UsageAlertTable;
}

export type Dialect = 'sqlite' | 'postgres';
export type { Generated };
