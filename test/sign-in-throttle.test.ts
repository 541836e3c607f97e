// Sign-in throttling (docs/dashboard.md): attempts are counted by the API's own limiter, per client
// address (the window of requests without a key) and per e-mail address, in this instance's memory
// or in Redis; over either limit the answer is 429 with Retry-After, even for the right password.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countersEnv, counterKinds, manualClock, redisKeys, type Counters } from './helpers/limits.js';
import { startServer, type TestServer } from './helpers/server.js';
import { setCookieOf, signInRequest } from './helpers/sessions.js';
import { testStores } from './helpers/stores.js';

const PER_EMAIL = 10;

for (const store of testStores()) {
  for (const kind of counterKinds()) {
    describe(`sign-in throttling (${store}, ${kind} counters)`, () => {
      const time = manualClock('2027-06-01T10:00:00.000Z');
      let server: TestServer;
      let counters: ReturnType<typeof countersEnv>;
      before(async () => {
        counters = countersEnv(kind as Counters);
        server = await startServer(store, { clock: time.clock, env: { ...counters.env, IP_RATE_LIMIT: '1000' } });
      });
      after(async () => {
        await server.close();
        await counters.cleanup();
      });

      it(`allows ${PER_EMAIL} attempts per e-mail address in 15 minutes, then refuses even the right password until the window ends`, async () => {
        const owner = await server.account();
        for (let i = 1; i <= PER_EMAIL; i++) {
          const res = await signInRequest(server.client, owner.email, 'a wrong password');
          assert.equal(res.status, 401, `attempt ${i}: ${res.text}`);
        }
        const refused = await signInRequest(server.client, owner.email.toUpperCase(), owner.password);
        assert.equal(refused.status, 429, refused.text);
        assert.equal(refused.body.code, 'rate_limited');
        assert.match(refused.body.message, /Too many sign-in attempts for this e-mail address; retry in \d+ s\./);
        assert.equal(refused.headers['retry-after'], String(15 * 60));
        assert.equal(setCookieOf(refused), undefined);
        if (kind === 'redis') assert.ok((await redisKeys(counters.prefix)).some((k) => k.includes('signin:')), 'counted in Redis');

        const other = await server.account();
        assert.equal((await signInRequest(server.client, other.email, other.password)).status, 200, 'another e-mail address is not affected');

        time.advance(15 * 60_000);
        assert.equal((await signInRequest(server.client, owner.email, owner.password)).status, 200, 'a new window');
      });
    });

    describe(`sign-in throttling per address (${store}, ${kind} counters)`, () => {
      let server: TestServer;
      let counters: ReturnType<typeof countersEnv>;
      before(async () => {
        counters = countersEnv(kind as Counters);
        server = await startServer(store, { env: { ...counters.env, IP_RATE_LIMIT: '5' } });
      });
      after(async () => {
        await server.close();
        await counters.cleanup();
      });

      it('shares the per-address window of requests without a key: many e-mail addresses from one address are refused too', async () => {
        const first = await signInRequest(server.client, `a-${Date.now()}@example.com`, 'guess one');
        assert.equal(first.status, 401);
        assert.equal(first.headers['ratelimit-policy'], '"ip";q=5;w=60');
        assert.equal(first.headers['x-ratelimit-remaining'], '4');
        assert.equal((await server.client.get('/v1/content')).status, 401, 'a request without a key counts in the same window');
        for (let i = 0; i < 3; i++) assert.equal((await signInRequest(server.client, `b${i}-${Date.now()}@example.com`, 'guess')).status, 401);
        const refused = await signInRequest(server.client, `c-${Date.now()}@example.com`, 'guess');
        assert.equal(refused.status, 429, refused.text);
        assert.match(refused.body.message, /Too many requests without a valid API key from this address/);
      });
    });
  }
}
