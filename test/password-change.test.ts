// Changing one's own password from the dashboard (POST /auth/password, docs/dashboard.md): the
// session's person, with the current password, CSRF-checked and throttled like sign-in; the new
// password ends every other session of theirs while this one stays open.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from './helpers/server.js';
import { signIn, signInRequest } from './helpers/sessions.js';
import { testStores } from './helpers/stores.js';

for (const store of testStores()) {
  describe(`changing one's own password (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store);
    });
    after(() => server.close());

    const change = (session: Awaited<ReturnType<typeof signIn>>, current: string, next: string, options: { csrf?: string | null } = {}) =>
      session.send('POST', '/auth/password', { json: { current_password: current, new_password: next }, ...options });

    it('sets the new password, ends the other sessions and keeps this one', async () => {
      const owner = await server.account();
      const here = await signIn(server.client, owner.email, owner.password);
      const elsewhere = await signIn(server.client, owner.email, owner.password);
      const res = await change(here, owner.password, 'my new passphrase!');
      assert.equal(res.status, 204, res.text);
      assert.equal((await here.send('GET', '/v1/content')).status, 200, 'this session stays open');
      assert.equal((await elsewhere.send('GET', '/v1/content')).status, 401, 'the other one ended');
      assert.equal((await signInRequest(server.client, owner.email, owner.password)).status, 401);
      assert.equal((await signInRequest(server.client, owner.email, 'my new passphrase!')).status, 200);
      const events = await server.client.get('/v1/events?limit=100', { key: owner.key });
      const updated = events.body.data.filter((e: { type: string }) => e.type === 'user.updated');
      assert.equal(updated.length, 1);
      assert.equal(updated[0].data.id, owner.userId);
      assert.equal(updated[0].data.password_hash, undefined);
    });

    it('refuses a wrong current password or a short new one, changing nothing', async () => {
      const owner = await server.account();
      const session = await signIn(server.client, owner.email, owner.password);
      const wrong = await change(session, 'not the password', 'another passphrase');
      assert.equal(wrong.status, 422);
      assert.deepEqual(wrong.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]), [['current_password', 'invalid_value']]);
      const short = await change(session, owner.password, 'short');
      assert.equal(short.status, 422);
      assert.deepEqual(short.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]), [['new_password', 'too_short']]);
      assert.equal((await signInRequest(server.client, owner.email, owner.password)).status, 200, 'unchanged');
    });

    it('needs a session, its CSRF token and this service\'s Origin; an API key is not enough', async () => {
      const owner = await server.account();
      const session = await signIn(server.client, owner.email, owner.password);
      assert.equal((await change(session, owner.password, 'cross site attempt', { csrf: null })).status, 403);
      const foreign = await session.send('POST', '/auth/password', { json: { current_password: owner.password, new_password: 'cross site attempt' }, origin: 'https://evil.example' });
      assert.equal(foreign.status, 403);
      const withKey = await server.client.post('/auth/password', { key: owner.key, json: { current_password: owner.password, new_password: 'with a key instead' } });
      assert.equal(withKey.status, 401);
      assert.equal((await signInRequest(server.client, owner.email, owner.password)).status, 200, 'unchanged');
    });

    it('throttles guesses of the current password like sign-in attempts', async () => {
      const owner = await server.account();
      const session = await signIn(server.client, owner.email, owner.password); // one attempt of the window
      const statuses = [];
      for (let i = 0; i < 10; i++) statuses.push((await change(session, `guess number ${i}`, 'a new passphrase')).status);
      assert.deepEqual(statuses, [...Array(9).fill(422), 429]);
    });
  });
}
