// Who may set a password through the API (CONTRACT.md §6 as amended, issue 21 P3-1). An outside
// probe found two chains to a full-scope key: an OAuth token with `users:write`, or an API key scoped
// `users:write` only, set a password (its own person's, or anyone's), signed in to the dashboard
// with it and minted a key of every scope. Each chain is tried here and must stop at its first step;
// the allowed case (a key holding `keys:write`, for its own user) works and ends the other sessions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { Jar, registerApp, tokensFor, type TestApp } from './helpers/oauth.js';
import { addKey, addUser, uniqueEmail } from './helpers/people.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { signIn, signInRequest } from './helpers/sessions.js';
import { testStores } from './helpers/stores.js';

const NEW_PASSWORD = 'chosen by the attacker';

function assertForbidden(res: Response): void {
  assert.equal(res.status, 403, res.text);
  assert.equal(res.body.code, 'forbidden', res.text);
}

for (const store of testStores()) {
  describe(`setting passwords through the API (${store})`, () => {
    let server: TestServer;
    let maker: TestAccount;
    let app: TestApp;
    before(async () => {
      // Every sign-in here comes from 127.0.0.1: lift the per-address limit.
      server = await startServer(store, { env: { IP_RATE_LIMIT: '1000' } });
      maker = await server.account();
      app = await registerApp(server, maker.key);
    });
    after(() => server.close());

    /** The chain's last steps: the password must not have changed, so it does not sign in, and the old one still does. */
    async function assertPasswordUnchanged(person: { email: string; password: string }): Promise<void> {
      assert.equal((await signInRequest(server.client, person.email, NEW_PASSWORD)).status, 401, 'the chosen password does not open the dashboard');
      assert.equal((await signInRequest(server.client, person.email, person.password)).status, 200, 'the person is not locked out');
    }

    it('refuses an OAuth token with users:write a password, for its own person or anyone, at the first step', async () => {
      const person = await server.account();
      const other = await addUser(server, person.key, 'editor');
      const { access_token: token, scope } = await tokensFor(server, new Jar(server.client), person, app, 'users:read users:write content:read');
      assert.match(scope, /users:write/);
      // The token does write users otherwise: only the password is refused.
      assert.equal((await server.client.put(`/v1/users/${person.userId}`, { key: token, json: { name: 'Renamed by the app' } })).status, 200);

      assertForbidden(await server.client.put(`/v1/users/${person.userId}`, { key: token, json: { password: NEW_PASSWORD } }));
      assertForbidden(await server.client.put(`/v1/users/${other.id}`, { key: token, json: { password: NEW_PASSWORD } }));
      // 403 comes before validation (CONTRACT.md §3): a bad password or another bad field changes nothing about the answer.
      assertForbidden(await server.client.put(`/v1/users/${person.userId}`, { key: token, json: { password: 'short', name: '' } }));
      await assertPasswordUnchanged(person);

      const email = uniqueEmail('via-token');
      assertForbidden(await server.client.post('/v1/users', { key: token, json: { email, name: 'Planted', role: 'admin', password: NEW_PASSWORD } }));
      assert.equal((await signInRequest(server.client, email, NEW_PASSWORD)).status, 401, 'no user was created');
      const listed = await server.client.get('/v1/users?limit=100', { key: person.key });
      assert.ok(!listed.body.data.some((u: { email: string }) => u.email === email));
    });

    it('refuses a key scoped users:write only a password, its own person\'s included, also on POST /v1/users', async () => {
      const person = await server.account();
      const narrow = await addKey(server, person.key, { scopes: ['users:read', 'users:write'] });
      assertForbidden(await server.client.put(`/v1/users/${person.userId}`, { key: narrow.key, json: { password: NEW_PASSWORD } }));
      await assertPasswordUnchanged(person);

      const email = uniqueEmail('via-narrow-key');
      const created = await server.client.post('/v1/users', { key: narrow.key, json: { email, name: 'Planted', role: 'admin', password: NEW_PASSWORD } });
      assertForbidden(created);
      assert.equal((await signInRequest(server.client, email, NEW_PASSWORD)).status, 401, 'no user was created');
      // Without a password the same key still adds users (they are invited).
      assert.equal((await server.client.post('/v1/users', { key: narrow.key, json: { email, name: 'Invited', role: 'viewer' } })).status, 201);
    });

    it('refuses even a full key another person\'s password: admins invite, people reset', async () => {
      const owner = await server.account();
      const editor = await addUser(server, owner.key, 'editor', { password: 'the editor chose this' });
      assertForbidden(await server.client.put(`/v1/users/${editor.id}`, { key: owner.key, json: { password: NEW_PASSWORD } }));
      assert.equal((await signInRequest(server.client, editor.email, 'the editor chose this')).status, 200);
      assertForbidden(await server.client.put('/v1/users/user_00000000000000000000000000', { key: owner.key, json: { password: NEW_PASSWORD } }));
    });

    it('takes a password from a key holding keys:write for its own user, and ends that person\'s sessions', async () => {
      const owner = await server.account();
      const here = await signIn(server.client, owner.email, owner.password);
      const there = await signIn(server.client, owner.email, owner.password);
      assert.equal((await here.send('GET', '/v1/content')).status, 200);
      const own = await addKey(server, owner.key, { scopes: ['users:write', 'keys:write'] });
      const res = await server.client.put(`/v1/users/${owner.userId}`, { key: own.key, json: { password: 'my own new passphrase' } });
      assert.equal(res.status, 200, res.text);
      assert.ok(!/password/i.test(res.text));
      assert.equal((await here.send('GET', '/v1/content')).status, 401, 'the sessions opened with the old password end');
      assert.equal((await there.send('GET', '/v1/content')).status, 401);
      assert.equal((await signInRequest(server.client, owner.email, owner.password)).status, 401);
      assert.equal((await signInRequest(server.client, owner.email, 'my own new passphrase')).status, 200);

      // And a new user created with a password by such a key signs in with it.
      const created = await addUser(server, own.key, 'viewer', { password: 'given at creation' });
      assert.equal((await signInRequest(server.client, created.email, 'given at creation')).status, 200);
    });

    it('lets the dashboard add a user with a password, but sends a person to Profile to change their own', async () => {
      const owner = await server.account();
      const session = await signIn(server.client, owner.email, owner.password);
      const email = uniqueEmail('from-dashboard');
      const created = await session.send('POST', '/v1/users', { json: { email, name: 'Added', role: 'viewer', password: 'set by the admin' } });
      assert.equal(created.status, 201, created.text);
      assertForbidden(await session.send('PUT', `/v1/users/${owner.userId}`, { json: { password: NEW_PASSWORD } }));
      await assertPasswordUnchanged(owner);
    });
  });
}
