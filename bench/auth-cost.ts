// What authentication adds to the list endpoint: the CPU cost of one warm key resolution against
// the cost of the same list request without it, measured in process on the 10,000-item account;
// and a warm OAuth access token's resolution beside the key's (the same cache, issue 12).
// In process (Fastify inject, no TLS) the route is cheaper than over the network, so the ratio
// printed here is an upper bound of the overhead a real client sees.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openServices } from '../src/services.js';

const ITEMS = 10_000;
const REQUESTS = 4_000;
const AUTHS = 200_000;

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-auth-bench-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', PORT: '0' });
const app = await createApp(config);
try {
  const { account_id: accountId, user_id: userId, api_key: key } = await app.accounts.createAccount({ email: 'bench@example.com' });
  const types = ['blog', 'manual', 'whitepaper', 'strategy'];
  const statuses = ['draft', 'published', 'archived'];
  await app.store.transaction(async (tx) => {
    for (let i = 0; i < ITEMS; i++) {
      const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
      await tx
        .insertInto('content')
        .values({
          id: `content_${String(i).padStart(26, '0')}`, account_id: accountId, title: `Item ${i}`, type: types[i % 4]!,
          content: 'Body', status: statuses[i % 3]!, author: userId, created_at: at, updated_at: at, published_at: null, version: 1, title_sort: `item ${i}`,
        })
        .execute();
    }
  });

  const list = () => app.http.inject({ method: 'GET', url: '/v1/content?limit=10', headers: { authorization: `Bearer ${key}` } });
  for (let i = 0; i < 500; i++) await list(); // warm-up: JIT, statement cache, key cache
  const start = cpuMicros();
  for (let i = 0; i < REQUESTS; i++) {
    const res = await list();
    if (res.statusCode !== 200) throw new Error(`list answered ${res.statusCode}`);
  }
  const routeMicros = (cpuMicros() - start) / REQUESTS;

  // The same Authenticator code on the same store, called the way the route's hook calls it.
  const services = await openServices(config);
  const warmAuth = async (credential: string) => {
    for (let i = 0; i < 1000; i++) await services.auth.authenticate(credential);
    const begun = cpuMicros();
    for (let i = 0; i < AUTHS; i++) await services.auth.authenticate(credential);
    return (cpuMicros() - begun) / AUTHS;
  };
  const authMicros = await warmAuth(key);
  // An OAuth access token of the same person (client credentials of an app they registered).
  const registered = await app.http.inject({
    method: 'POST', url: '/v1/oauth/apps', headers: { authorization: `Bearer ${key}` }, payload: { name: 'Bench', redirect_uris: ['https://bench.example/cb'] },
  });
  const { id: clientId, client_secret: secret } = registered.json().data as { id: string; client_secret: string };
  const issued = await app.http.inject({
    method: 'POST', url: '/oauth/token', payload: 'grant_type=client_credentials&scope=content:read',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
  });
  if (issued.statusCode !== 200) throw new Error(`token endpoint answered ${issued.statusCode}: ${issued.body}`);
  const tokenMicros = await warmAuth(issued.json().access_token as string);
  await services.close();

  const overhead = authMicros / (routeMicros - authMicros);
  console.log(`list route (inject, ${ITEMS} items, limit=10): ${routeMicros.toFixed(1)} µs CPU per request`);
  console.log(`warm authentication (cache hit, hash + lookup): ${authMicros.toFixed(2)} µs CPU per request`);
  console.log(`authentication adds ${(overhead * 100).toFixed(2)} % to the list route without it (target ≤ 5 %): ${overhead <= 0.05 ? 'PASS' : 'MISS'}`);
  const extra = (tokenMicros - authMicros) / routeMicros;
  console.log(`warm OAuth access token: ${tokenMicros.toFixed(2)} µs CPU per request, ${(extra * 100).toFixed(2)} % of the list route more than a key (target ≤ 5 %): ${extra <= 0.05 ? 'PASS' : 'MISS'}`);
} finally {
  await app.shutdown();
  await fs.rm(dataDir, { recursive: true, force: true });
}
