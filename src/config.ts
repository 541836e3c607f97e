// Environment → checked Config, in two steps: read the raw strings, then turn them into typed values.
// A bad value throws ConfigError naming the variable, so start-up stops with one clear line.
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const PLANS = ['free', 'basic', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Rate limits and usage quotas (CONTRACT.md §8, docs/limits.md). */
export interface LimitsConfig {
  /** `RATE_LIMITS=off`: no limits, quotas, usage counting or rate-limit headers (benchmark baselines, development). */
  enabled: boolean;
  /** Requests per hour of each plan; an account's own `rate_limit` overrides it. */
  hourly: Record<Plan, number>;
  /** Requests per billing cycle (month) of each plan; an account's own `quota` overrides it. */
  monthly: Record<Plan, number>;
  /** Requests per minute from one client address without a valid key. */
  perAddress: number;
  /** Prepended to every Redis key, so several deployments (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  /** `RATE_LIMIT_ON_REDIS_DOWN`: count in each instance alone (`open`) or answer 503 (`closed`) while Redis is unreachable. */
  onRedisDown: 'open' | 'closed';
}

export interface Deprecation {
  method: string;
  /** Route pattern as registered, e.g. `/v1/content/:id`. */
  path: string;
  /** When the route was (or will be) deprecated. */
  deprecatedAt: Date;
  sunset?: Date;
  link?: string;
}

export interface Config {
  host: string;
  port: number;
  /**
   * `WORKERS`: server processes sharing the port (node:cluster), 1 to 64; by default 1 on SQLite
   * and the number of cores on PostgreSQL. 1 runs the server in this one process, as before (docs/operations.md, "Every core").
   */
  workers: number;
  /**
   * `SQLITE_WRITER`: with WORKERS > 1 on SQLite, `one` (the default) runs every write in worker 1,
   * the others handing it their writes over a local socket; `every` lets each worker write itself
   * (the lock then serialises them). Ignored on PostgreSQL, where every worker writes (docs/cluster.md).
   */
  sqliteWriter: 'one' | 'every';
  /**
   * `PUBLIC_URL`: the origin people and OAuth clients see (e-mail links, the OAuth issuer). Unset, it
   * is `https://<HOST>:<port>` — see publicUrlOf(), which knows the port actually bound.
   */
  publicUrl?: string;
  dataDir: string;
  /** `sqlite` uses `<dataDir>/cms.sqlite`; `postgres` uses databaseUrl. */
  store: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; poolSize: number };
  redisUrl?: string;
  tls: { mode: 'on'; certFile?: string; keyFile?: string } | { mode: 'off'; trustProxy: string[] };
  bootstrap: { plan: Plan; email: string };
  webhookAllowPrivate: boolean;
  webhookRetrySchedule?: number[];
  /** How long a worker's claim on a webhook attempt lasts unless renewed (tests shorten it). */
  webhookLeaseSeconds: number;
  metricsToken?: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  deprecations: Deprecation[];
  /** Seconds in-flight requests get to finish after SIGTERM. */
  shutdownGraceSeconds: number;
  /** Days the event log keeps events (GET /v1/events, WebSocket resume). */
  eventRetentionDays: number;
  /** How many versions of each content item are kept as revisions (REVISIONS_KEEP). */
  revisionsKeep: number;
  /** How long a request's hold on its Idempotency-Key lasts: after a crash, a retry waits this long. */
  idempotencyLeaseSeconds: number;
  /** Content list pages kept per instance (LIST_CACHE_ENTRIES); 0 turns the cache off. */
  listCacheEntries: number;
  /** Megabytes of single content items kept per instance (ITEM_CACHE_MB); 0 turns the cache off. */
  itemCacheMb: number;
  /** Seconds a preview link works (PREVIEW_TTL; default 24 hours). */
  previewTtlSeconds: number;
  limits: LimitsConfig;
  /** Dashboard sign-in sessions (docs/dashboard.md). */
  sessions: SessionConfig;
  /** Connections from clients (docs/reliability.md, "Slow and idle clients"). */
  connections: ConnectionsConfig;
  /** E-mail (docs/email.md). */
  mail: MailConfig;
  /** The media library (docs/media.md). */
  media: MediaConfig;
}

/** The media library (CONTRACT.md §18, docs/media.md). */
export interface MediaConfig {
  /** `MEDIA_STORE`: where the bytes live: `DATA_DIR/media` (disk) or an S3-compatible bucket. */
  store: { kind: 'disk'; dir: string } | { kind: 's3'; endpoint?: string; region: string; bucket: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
  /** `MEDIA_MAX_BYTES`: the largest file accepted (default 25 MiB). */
  maxBytes: number;
  /** `MEDIA_TYPES`: the MIME types accepted, read from the bytes. */
  types: string[];
  /** `MEDIA_LINK_TTL`: seconds a signed link to private media works (default 3600). */
  linkTtlSeconds: number;
  /** `PLAN_STORAGE`: bytes of media each plan may store; an account's own quota overrides it. */
  storage: Record<Plan, number>;
}

export const DEFAULT_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/svg+xml', 'application/pdf', 'text/plain'];

export interface ConnectionsConfig {
  /** A connection must finish its TLS handshake, and each request's headers must arrive, within this. */
  headersTimeoutSeconds: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutSeconds: number;
  /** Connections one client address (an IPv6 /64) may hold open at once; 0 for no cap. Trusted proxies are exempt. */
  maxPerAddress: number;
}

export interface MailConfig {
  /** `SMTP_URL`: smtp:// (STARTTLS when offered) or smtps:// (implicit TLS); unset, messages become .eml files in `<dataDir>/mail`. */
  smtpUrl?: string;
  /** `MAIL_FROM`: the From of every message. */
  from: string;
  /** Seconds between attempts; the last step repeats until a message is 24 hours old. */
  retrySchedule?: number[];
}

export interface SessionConfig {
  /** A session nobody used for this long ends (renewed by use, to the minute). */
  idleMinutes: number;
  /** A session ends this long after sign-in, however busy. */
  maxHours: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function readEnv(env: Env): Env {
  const raw: Env = {};
  for (const [name, value] of Object.entries(env)) {
    // An empty variable means "not set", as most shells and compose files intend.
    if (value !== undefined && value.trim() !== '') raw[name] = value.trim();
  }
  return raw;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = env[name];
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

function integer(env: Env, name: string, min: number, max: number, fallback: number): number {
  const value = env[name];
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${value}")`);
  }
  return Number(value);
}

function bool(env: Env, name: string): boolean {
  return oneOf(env, name, ['true', 'false'], 'false') === 'true';
}

function cidr(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || address === undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** An origin such as `https://cms.example.com` (no path, query or fragment); a trailing slash is dropped. */
function origin(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, `must be an absolute URL such as https://cms.example.com (got "${value}")`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError(name, `must be an https:// origin without a path, query or credentials, such as https://cms.example.com (got "${value}")`);
  }
  return url.origin;
}

/**
 * The public base URL: PUBLIC_URL when set, otherwise `https://<HOST>:<port>` (a wildcard HOST shown
 * as localhost). `boundPort` is the port actually listened on, for PORT=0.
 */
export function publicUrlOf(config: Config, boundPort: number = config.port): string {
  if (config.publicUrl !== undefined) return config.publicUrl;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const scheme = config.tls.mode === 'on' ? 'https' : 'http';
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
}

/** A comma-separated list of whole seconds ≥ 1, or undefined when unset. */
function secondsList(env: Env, name: string): number[] | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const parts = value.split(',').map((s) => s.trim());
  if (parts.some((p) => !/^\d+$/.test(p) || Number(p) < 1)) throw new ConfigError(name, 'must be a comma-separated list of whole seconds ≥ 1');
  return parts.map(Number);
}

function mail(env: Env): MailConfig {
  const smtpUrl = env.SMTP_URL;
  if (smtpUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(smtpUrl);
    } catch {
      url = undefined;
    }
    // The value is not repeated: it may hold the SMTP password.
    if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
      throw new ConfigError('SMTP_URL', 'must be an smtp:// (STARTTLS) or smtps:// (TLS) URL such as smtp://user:password@smtp.example.com:587');
    }
  }
  const from = env.MAIL_FROM ?? 'Content Service <no-reply@localhost>';
  if (!/^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(from)) {
    throw new ConfigError('MAIL_FROM', `must be an address such as no-reply@example.com or "Name <no-reply@example.com>" (got "${from}")`);
  }
  return { smtpUrl, from, retrySchedule: secondsList(env, 'MAIL_RETRY_SCHEDULE') };
}

function deprecations(env: Env): Deprecation[] {
  const value = env.DEPRECATIONS;
  if (value === undefined) return [];
  const bad = (why: string) => new ConfigError('DEPRECATIONS', why);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw bad('must be a JSON array');
  }
  if (!Array.isArray(parsed)) throw bad('must be a JSON array');
  return parsed.map((entry: Record<string, unknown>, i) => {
    const date = (field: string, required: boolean): Date | undefined => {
      const v = entry?.[field];
      if (v === undefined && !required) return undefined;
      const d = typeof v === 'string' ? new Date(v) : new Date(NaN);
      if (Number.isNaN(d.getTime())) throw bad(`entry ${i}: "${field}" must be an ISO 8601 date`);
      return d;
    };
    if (typeof entry?.method !== 'string' || typeof entry.path !== 'string') {
      throw bad(`entry ${i}: "method" and "path" are required strings`);
    }
    if (entry.link !== undefined && typeof entry.link !== 'string') throw bad(`entry ${i}: "link" must be a string`);
    return {
      method: entry.method.toUpperCase(),
      path: entry.path,
      deprecatedAt: date('deprecated_at', true)!,
      sunset: date('sunset', false),
      link: entry.link as string | undefined,
    };
  });
}

/** `free=100,pro=20000`: figures per plan over the defaults; any plan left out keeps its default. */
function planFigures(env: Env, name: string, defaults: Record<Plan, number>): Record<Plan, number> {
  const value = env[name];
  const figures = { ...defaults };
  if (value === undefined) return figures;
  for (const entry of value.split(',').map((s) => s.trim())) {
    const [plan, figure, extra] = entry.split('=').map((s) => s.trim());
    if (!(PLANS as readonly string[]).includes(plan ?? '') || extra !== undefined || !/^\d+$/.test(figure ?? '') || Number(figure) < 1) {
      throw new ConfigError(name, `must look like "free=100,basic=1000" with plans ${PLANS.join(', ')} and whole numbers ≥ 1 (got "${entry}")`);
    }
    figures[plan as Plan] = Number(figure);
  }
  return figures;
}

function media(env: Env, dataDir: string): MediaConfig {
  const kind = oneOf(env, 'MEDIA_STORE', ['disk', 's3'], 'disk');
  let store: MediaConfig['store'] = { kind: 'disk', dir: path.join(dataDir, 'media') };
  if (kind === 's3') {
    if (env.S3_BUCKET === undefined) throw new ConfigError('S3_BUCKET', 'is required when MEDIA_STORE=s3');
    if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
      throw new ConfigError(env.S3_ACCESS_KEY_ID === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY', 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
    }
    if (env.S3_ENDPOINT !== undefined && !/^https?:\/\/[^/]+\/?$/.test(env.S3_ENDPOINT)) {
      throw new ConfigError('S3_ENDPOINT', `must be an http(s):// origin such as https://s3.example.com (got "${env.S3_ENDPOINT}")`);
    }
    store = {
      kind: 's3',
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION ?? 'us-east-1',
      bucket: env.S3_BUCKET,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE'),
    };
  }
  const types = env.MEDIA_TYPES === undefined ? DEFAULT_MEDIA_TYPES : env.MEDIA_TYPES.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean);
  const badType = types.find((t) => !/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(t));
  if (badType !== undefined || types.length === 0) throw new ConfigError('MEDIA_TYPES', `must be a comma-separated list of MIME types such as image/png,application/pdf (got "${badType ?? ''}")`);
  return {
    store,
    maxBytes: integer(env, 'MEDIA_MAX_BYTES', 1, 5 * 1024 ** 3, 25 * 1024 * 1024),
    types,
    linkTtlSeconds: integer(env, 'MEDIA_LINK_TTL', 1, 7 * 86_400, 3600),
    // Enterprise is "custom": set per account (cms accounts plan --storage); this applies until then.
    storage: planFigures(env, 'PLAN_STORAGE', { free: 100 * 1024 ** 2, basic: 1024 ** 3, pro: 10 * 1024 ** 3, enterprise: 100 * 1024 ** 3 }),
  };
}

function limits(env: Env): LimitsConfig {
  return {
    enabled: oneOf(env, 'RATE_LIMITS', ['on', 'off'], 'on') === 'on',
    // Enterprise is "custom": set per account (cms accounts create/plan --rate-limit --quota); these apply until then.
    hourly: planFigures(env, 'PLAN_RATE_LIMITS', { free: 100, basic: 1_000, pro: 10_000, enterprise: 100_000 }),
    monthly: planFigures(env, 'PLAN_QUOTAS', { free: 2_000, basic: 20_000, pro: 200_000, enterprise: 2_000_000 }),
    perAddress: integer(env, 'IP_RATE_LIMIT', 1, 1_000_000, 60),
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'cms:',
    onRedisDown: oneOf(env, 'RATE_LIMIT_ON_REDIS_DOWN', ['open', 'closed'], 'open'),
  };
}

/** Turns the process environment into a checked Config, or throws ConfigError. */
export function loadConfig(environment: Env = process.env): Config {
  const env = readEnv(environment);
  const dataDir = path.resolve(env.DATA_DIR ?? './data');

  const databaseUrl = env.DATABASE_URL;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must be a postgres:// or postgresql:// URL');
  }
  if (env.REDIS_URL !== undefined && !/^rediss?:\/\//.test(env.REDIS_URL)) {
    throw new ConfigError('REDIS_URL', 'must be a redis:// or rediss:// URL');
  }

  const tlsMode = oneOf(env, 'TLS', ['on', 'off'], 'on');
  if ((env.TLS_CERT_FILE === undefined) !== (env.TLS_KEY_FILE === undefined)) {
    throw new ConfigError(env.TLS_CERT_FILE === undefined ? 'TLS_CERT_FILE' : 'TLS_KEY_FILE', 'TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  const trustProxy = (env.TRUST_PROXY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const badCidr = trustProxy.find((entry) => !cidr(entry));
  if (badCidr !== undefined) throw new ConfigError('TRUST_PROXY', `"${badCidr}" is not an IP address or CIDR range`);
  if (tlsMode === 'off' && trustProxy.length === 0) {
    throw new ConfigError('TRUST_PROXY', 'must list the proxy addresses (CIDR) when TLS=off');
  }

  const email = env.BOOTSTRAP_EMAIL ?? 'owner@example.com';
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new ConfigError('BOOTSTRAP_EMAIL', `"${email}" is not an e-mail address`);

  return {
    host: env.HOST ?? '127.0.0.1',
    port: integer(env, 'PORT', 0, 65535, 8443),
    // One process on SQLite until two workers are measured to beat it there (docs/cluster.md, "The default").
    workers: integer(env, 'WORKERS', 1, 64, databaseUrl ? Math.min(64, os.availableParallelism()) : 1),
    sqliteWriter: oneOf(env, 'SQLITE_WRITER', ['one', 'every'], 'one'),
    publicUrl: origin(env, 'PUBLIC_URL'),
    dataDir,
    store: databaseUrl ? { kind: 'postgres', url: databaseUrl, poolSize: integer(env, 'DATABASE_POOL_SIZE', 1, 1000, 10) } : { kind: 'sqlite', file: path.join(dataDir, 'cms.sqlite') },
    redisUrl: env.REDIS_URL,
    tls: tlsMode === 'on' ? { mode: 'on', certFile: env.TLS_CERT_FILE, keyFile: env.TLS_KEY_FILE } : { mode: 'off', trustProxy },
    bootstrap: { plan: oneOf(env, 'BOOTSTRAP_PLAN', PLANS, 'pro'), email: email.toLowerCase() },
    webhookAllowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE'),
    webhookRetrySchedule: secondsList(env, 'WEBHOOK_RETRY_SCHEDULE'),
    webhookLeaseSeconds: integer(env, 'WEBHOOK_LEASE_SECONDS', 1, 3600, 30),
    metricsToken: env.METRICS_TOKEN,
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    deprecations: deprecations(env),
    shutdownGraceSeconds: integer(env, 'SHUTDOWN_GRACE_SECONDS', 0, 600, 10),
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 1, 3650, 7),
    revisionsKeep: integer(env, 'REVISIONS_KEEP', 1, 100_000, 100),
    idempotencyLeaseSeconds: integer(env, 'IDEMPOTENCY_LEASE_SECONDS', 1, 3600, 60),
    listCacheEntries: integer(env, 'LIST_CACHE_ENTRIES', 0, 1_000_000, 2000),
    itemCacheMb: integer(env, 'ITEM_CACHE_MB', 0, 4096, 16),
    previewTtlSeconds: integer(env, 'PREVIEW_TTL', 60, 30 * 86_400, 86_400),
    limits: limits(env),
    sessions: {
      idleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 1, 7 * 24 * 60, 60),
      maxHours: integer(env, 'SESSION_MAX_HOURS', 1, 30 * 24, 12),
    },
    mail: mail(env),
    media: media(env, dataDir),
    connections: {
      headersTimeoutSeconds: integer(env, 'HEADERS_TIMEOUT_SECONDS', 1, 60, 10),
      // Behind a proxy, longer than the proxy's own idle timeout (60 s on common load balancers),
      // so that the proxy never reuses a connection the service is closing.
      keepAliveTimeoutSeconds: integer(env, 'KEEP_ALIVE_TIMEOUT_SECONDS', 1, 600, tlsMode === 'on' ? 5 : 75),
      maxPerAddress: integer(env, 'MAX_CONNECTIONS_PER_ADDRESS', 0, 1_000_000, 256),
    },
  };
}
