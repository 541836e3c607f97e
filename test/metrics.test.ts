// GET /metrics (CONTRACT.md §13): Prometheus text outside /v1, by route pattern, behind
// METRICS_TOKEN when set, and never counted against anyone's limits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from './helpers/server.js';
import { WsClient } from './helpers/ws.js';

/** The value of one sample line, e.g. `cms_http_requests_total{method="GET",route="/v1/content",status="200"}`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('metrics', () => {
  let server: TestServer;
  let guarded: TestServer;
  before(async () => {
    server = await startServer('sqlite');
    guarded = await startServer('sqlite', { env: { METRICS_TOKEN: 'scrape-secret-123' } });
  });
  after(async () => {
    await server.close();
    await guarded.close();
  });

  it('counts requests by route pattern and status, with durations, in Prometheus text', async () => {
    const { key } = await server.account();
    const item = await server.content(key);
    for (let i = 0; i < 3; i++) assert.equal((await server.client.get(`/v1/content/${String(item.id)}`, { key })).status, 200);
    assert.equal((await server.client.get('/v1/content/content_01jd2x3m4n5p6q7r8s9t0v1w2x', { key })).status, 404);
    const res = await server.client.get('/metrics');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    assert.equal(sample(res.text, 'cms_http_requests_total', { method: 'GET', route: '/v1/content/:id', status: '200' }), 3);
    assert.equal(sample(res.text, 'cms_http_requests_total', { method: 'GET', route: '/v1/content/:id', status: '404' }), 1);
    assert.equal(sample(res.text, 'cms_http_requests_total', { method: 'POST', route: '/v1/content', status: '201' }), 1);
    assert.equal(sample(res.text, 'cms_http_request_duration_seconds_count', { method: 'GET', route: '/v1/content/:id' }), 4);
    assert.ok(!res.text.includes(String(item.id)), 'ids never become labels');
    assert.match(res.text, /^cms_process_resident_memory_bytes \d+/m);
    assert.match(res.text, /^cms_nodejs_eventloop_lag_p99_seconds /m);
  });

  it('exports the event-loop delay as a histogram from 1 ms to 1 s', async () => {
    // Hold the loop for about 60 ms: at least one sample is at or over 50 ms.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const until = Date.now() + 60;
    while (Date.now() < until);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const text = (await server.client.get('/metrics')).text;
    assert.match(text, /^# TYPE cms_event_loop_delay_seconds histogram$/m);
    const bucket = (le: string) => Number(text.split('\n').find((line) => line.startsWith(`cms_event_loop_delay_seconds_bucket{le="${le}"} `))?.split(' ')[1]);
    const count = Number(text.match(/^cms_event_loop_delay_seconds_count (\d+)$/m)?.[1]);
    assert.ok(count > 0, 'samples were taken');
    assert.equal(bucket('+Inf'), count);
    assert.ok(bucket('0.001') <= bucket('0.05') && bucket('0.05') <= bucket('1'));
    assert.ok(bucket('0.025') < count, 'the held loop shows past 25 ms');
  });

  it('shows open WebSocket connections', async () => {
    const { key } = await server.account();
    const client = await WsClient.open(server, key);
    assert.match((await server.client.get('/metrics')).text, /^cms_websocket_connections 1$/m);
    await client.close();
    // The server learns of the close a moment after the client.
    let text = '';
    for (let i = 0; i < 50 && !/^cms_websocket_connections 0$/m.test(text); i++) text = (await server.client.get('/metrics')).text;
    assert.match(text, /^cms_websocket_connections 0$/m);
  });

  it('is outside the API: no key, no envelope, no rate-limit headers', async () => {
    const res = await server.client.get('/metrics');
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-ratelimit-limit'], undefined);
    assert.equal(res.headers.ratelimit, undefined);
  });

  it('needs the token when METRICS_TOKEN is set', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'Bearer scrape-secret-12' }] as Record<string, string>[]) {
      const res = await guarded.client.get('/metrics', { headers });
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'unauthorized');
      assert.equal(res.headers['www-authenticate'], 'Bearer');
    }
    const ok = await guarded.client.get('/metrics', { headers: { authorization: 'Bearer scrape-secret-123' } });
    assert.equal(ok.status, 200);
    assert.match(ok.text, /cms_http_requests_total/);
  });
});
