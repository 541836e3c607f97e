// GET /metrics (CONTRACT.md §13): Prometheus text for operators — requests by route and status,
// their durations, open WebSocket connections, and the process's own figures (CPU, memory, event
// loop delay, GC). Outside /v1, never counted or rate limited; behind METRICS_TOKEN when it is set.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DomainError } from '../domain/errors.js';
import type { CacheStats } from '../domain/content/page-cache.js';
import { bearerToken } from './auth.js';
import { registerEventLoopDelay } from './event-loop-delay.js';

export interface MetricsOptions {
  /** When set, a scrape must send `Authorization: Bearer <token>`. */
  token?: string;
  /** Open WebSocket connections of this instance, read at scrape time. */
  openSockets: () => number;
  /** Connections attached to the live event stream (subscribed at least once). */
  streamSubscribers: () => number;
  /** Client connections open, and refused for their address's cap. */
  connections: { readonly open: number; readonly refused: number };
  /** Seconds spent with Redis unreachable (rate limits counted alone, or refused). */
  rateLimitDegradedSeconds: () => number;
  /** The answer caches of this instance, by name (content_list, content_item). */
  caches: () => Record<string, CacheStats>;
  /** Media variants this instance made (each is made once across instances). */
  variantsMade?: () => number;
  /** With WORKERS > 1: a scrape answers every worker's figures, summed, rather than this one's. */
  cluster?: ClusterMetrics;
}

/** The cluster coordinator as /metrics uses it (src/cluster/coordinator.ts). */
export interface ClusterMetrics {
  /** This worker's slot, 1..WORKERS. */
  readonly worker: number;
  /** Answers the primary's collections with this worker's metrics. */
  serveMetrics(collect: () => Promise<unknown>): void;
  /** Every worker's metrics, aggregated (Prometheus text). */
  aggregateMetrics(): Promise<string>;
}

/** Counts one answered request; called from the request pipeline's one response hook. */
export type RecordRequest = (request: FastifyRequest, reply: FastifyReply) => void;

function sameSecret(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Registers the collectors and the route; one registry per app (tests run several apps in one
 * process). Returns what counts each answered request.
 */
export function registerMetrics(app: FastifyInstance, options: MetricsOptions): RecordRequest {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'cms_' });
  const stopDelay = registerEventLoopDelay(registry);
  app.addHook('onClose', async () => stopDelay());
  const requests = new Counter({
    name: 'cms_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'cms_http_request_duration_seconds',
    help: 'Time from the request arriving to the response being sent, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  new Gauge({
    name: 'cms_media_variants_made_total',
    help: 'Image variants this instance made (each variant is made once across instances, then served from the store).',
    registers: [registry],
    collect() {
      this.set(options.variantsMade?.() ?? 0);
    },
  });
  new Gauge({
    name: 'cms_websocket_connections',
    help: 'Open WebSocket connections on this instance.',
    registers: [registry],
    collect() {
      this.set(options.openSockets());
    },
  });
  new Gauge({
    name: 'cms_event_stream_subscribers',
    help: 'Connections receiving live events on this instance.',
    registers: [registry],
    collect() {
      this.set(options.streamSubscribers());
    },
  });

  new Gauge({
    name: 'cms_connections',
    help: 'Client connections open on this instance (HTTP, TLS and WebSocket).',
    registers: [registry],
    collect() {
      this.set(options.connections.open);
    },
  });
  new Counter({
    name: 'cms_connections_refused_total',
    help: 'Client connections closed at once because their address held MAX_CONNECTIONS_PER_ADDRESS already.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(options.connections.refused);
    },
  });

  new Counter({
    name: 'cms_rate_limit_degraded_seconds_total',
    help: 'Seconds this instance has spent with Redis unreachable: limits counted here alone (RATE_LIMIT_ON_REDIS_DOWN=open) or requests refused (closed).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(options.rateLimitDegradedSeconds());
    },
  });

  const cacheGauge = (name: string, help: string, field: keyof CacheStats, kind: typeof Gauge | typeof Counter) =>
    new kind({
      name,
      help,
      labelNames: ['cache'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [cache, stats] of Object.entries(options.caches())) this.labels(cache).inc(stats[field]);
      },
    });
  cacheGauge('cms_cache_hits_total', 'Answers served from an answer cache of this instance, by cache.', 'hits', Counter);
  cacheGauge('cms_cache_misses_total', 'Answers an answer cache of this instance did not hold (or held stale), by cache.', 'misses', Counter);
  cacheGauge('cms_cache_entries', 'Entries held by an answer cache of this instance, by cache.', 'entries', Gauge);
  cacheGauge('cms_cache_bytes', 'Approximate bytes held by an answer cache of this instance (0 where only entries are bounded), by cache.', 'bytes', Gauge);

  const { cluster } = options;
  // Which worker answered: one series per worker, so a scrape shows that every one of them serves.
  const perWorker = cluster
    ? new Counter({ name: 'cms_worker_requests_total', help: 'HTTP requests answered, by worker (WORKERS > 1).', labelNames: ['worker'] as const, registers: [registry] })
    : undefined;
  const byWorker = perWorker?.labels(String(cluster?.worker ?? ''));

  app.get('/metrics', { schema: { hide: true }, config: { raw: true } }, async (request, reply) => {
    if (options.token !== undefined && !sameSecret(bearerToken(request.headers.authorization), options.token)) {
      throw new DomainError('unauthorized', 'Send the metrics token as "Authorization: Bearer <token>".');
    }
    reply.type(registry.contentType);
    return cluster ? cluster.aggregateMetrics() : registry.metrics();
  });
  cluster?.serveMetrics(() => registry.getMetricsAsJSON());

  // The labelled children, looked up once per method, route and status rather than per request.
  const children = new Map<string, { count: () => void; time: (seconds: number) => void }>();
  return (request, reply) => {
    // The route pattern, never the raw path: ids would make every item a label of its own.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let child = children.get(key);
    if (!child) {
      const counter = requests.labels(request.method, route, String(reply.statusCode));
      const histogram = durations.labels(request.method, route);
      child = { count: () => counter.inc(), time: (seconds) => histogram.observe(seconds) };
      children.set(key, child);
    }
    child.count();
    child.time(reply.elapsedTime / 1000);
    byWorker?.inc();
  };
}
