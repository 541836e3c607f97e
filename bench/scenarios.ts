// The benchmark's measured requests and how one scenario runs (uncounted warm-up, then autocannon).
import os from 'node:os';
import autocannon from 'autocannon';
import { cpuTimeMs, type RssSampler } from './processes.js';

export const CONNECTIONS = 50;
export const WARMUP_SECONDS = 2;

export interface Scenario {
  name: string;
  /** What is sent, for the table. */
  request: string;
  requests: autocannon.Request[];
  /** Measured on the product only (the peer has no such thing: delivery keys). */
  productOnly?: boolean;
}

/** A delivery key of the benchmark's account and the ids it may read (the published items). */
export interface DeliveryTarget {
  key: string;
  publishedIds: string[];
}

export interface Measurement {
  scenario: Scenario;
  server: 'product' | 'bare' | 'peer';
  rps: number;
  p50: number;
  p99: number;
  peakRss: number;
  /** Server CPU time (user + system) per measured request: what a request costs, whatever the client got. */
  cpuMsPerRequest: number;
  /** Responses that were not 2xx, plus socket errors and timeouts: a valid run has none. */
  failures: number;
  total: number;
  /** The 1-minute load average right after the measured run: how busy the machine was. */
  load: number;
}

/** Cycles through `ids` so that no single row is hot; `vary` gives each request's path and body. */
function rotating(ids: string[], base: autocannon.Request, vary: (id: string, n: number) => autocannon.Request): autocannon.Request {
  let n = 0;
  // `request` already carries the merged headers (authorization + base's own); only path and body change.
  return { ...base, setupRequest: (request) => ({ ...request, ...vary(ids[n++ % ids.length]!, n) }) };
}

const get = (path: string): autocannon.Request => ({ method: 'GET', path });
const json = { 'content-type': 'application/json' };
const newItem = JSON.stringify({ title: 'Benchmark item', type: 'blog', content: '# Hello\n\nCreated by the benchmark.', status: 'published' });

const retitle = (id: string, n: number) => ({ path: `/v1/content/${id}`, body: JSON.stringify({ title: `Updated title ${n}` }) });

/**
 * In this order: reads first, so the creates do not change what the lists count. With a delivery
 * key, its list and get come right after the management key's, in the same run, so the two compare.
 */
export function productScenarios(ids: string[], delivery?: DeliveryTarget): Scenario[] {
  const filtered = '/v1/content?type=blog&status=published';
  return [
    { name: 'list', request: 'GET /v1/content?limit=10', requests: [get('/v1/content?limit=10')] },
    { name: 'list filtered', request: `GET ${filtered}`, requests: [get(filtered)] },
    { name: 'get one', request: 'GET /v1/content/{id}', requests: [rotating(ids, { method: 'GET' }, (id) => ({ path: `/v1/content/${id}` }))] },
    ...(delivery ? deliveryScenarios(delivery) : []),
    { name: 'create', request: 'POST /v1/content', requests: [{ method: 'POST', path: '/v1/content', headers: json, body: newItem }] },
    { name: 'update', request: 'PUT /v1/content/{id} {"title"}', requests: [rotating(ids, { method: 'PUT', headers: json }, retitle)] },
  ];
}

/** The same reads as a delivery key makes them (published items only, public caching headers). */
function deliveryScenarios(delivery: DeliveryTarget): Scenario[] {
  const headers = { authorization: `Bearer ${delivery.key}` };
  return [
    { name: 'list delivery', request: 'GET /v1/content?limit=10 (delivery key: published only)', requests: [{ ...get('/v1/content?limit=10'), headers }], productOnly: true },
    {
      name: 'get delivery',
      request: 'GET /v1/content/{published id} (delivery key)',
      requests: [rotating(delivery.publishedIds, { method: 'GET', headers }, (id) => ({ path: `/v1/content/${id}` }))],
      productOnly: true,
    },
  ];
}

export const bareScenario: Scenario = {
  name: 'bare Fastify',
  request: 'GET /v1/content (from memory)',
  requests: [get('/v1/content?limit=10')],
};

export async function measure(
  scenario: Scenario,
  server: Measurement['server'],
  target: { url: string; pid: number; key?: string; ca: string; sampler: RssSampler; duration: number },
): Promise<Measurement> {
  const options: autocannon.Options = {
    url: target.url,
    connections: CONNECTIONS,
    headers: target.key ? { authorization: `Bearer ${target.key}` } : {},
    requests: scenario.requests,
    tlsOptions: { ca: target.ca },
  };
  target.sampler.reset();
  await autocannon({ ...options, duration: WARMUP_SECONDS });
  const cpuBefore = cpuTimeMs(target.pid);
  const result = await autocannon({ ...options, duration: target.duration });
  const total = result.requests.total ?? 0;
  return {
    scenario,
    server,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    peakRss: target.sampler.peak(),
    cpuMsPerRequest: (cpuTimeMs(target.pid) - cpuBefore) / Math.max(total, 1),
    failures: result.non2xx + result.errors + result.timeouts,
    total,
    load: os.loadavg()[0] ?? 0,
  };
}
