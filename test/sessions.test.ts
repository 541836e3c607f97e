// Dashboard sessions as a browser's requests meet them (docs/dashboard.md): sign-in and its cookie,
// the session acting as its user, CSRF on every state-changing request, sign-out, idle and absolute
// expiry, deletion and role changes, and two instances on one store.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addKey, addUser } from './helpers/people.js';
import { startSecondInstance } from './helpers/instance.js';
import { manualClock } from './helpers/limits.js';
import { startServer, type TestServer } from './helpers/server.js';
import { sessionCookieOf, sessionFor, setCookieOf, signIn, signInRequest } from './helpers/sessions.js';
import { testStores } from './helpers/stores.js';

const PASSWORD = 'correct horse battery staple';
const ITEM = { title: 'From the dashboard', type: 'blog', content: '# Hi' };

for (const store of testStores()) {
  describe(`dashboard sessions (${store})`, { concurrency: 4 }, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store);
    });
    after(() => server.close());

    it('signs in with e-mail and password: a __Host- cookie that is HttpOnly, Secure and SameSite=Strict, and the session it opens', async () => {
      const owner = await server.account();
      const res = await signInRequest(server.client, `  ${owner.email.toUpperCase()} `, owner.password);
      assert.equal(res.status, 200, res.text);
      const cookie = setCookieOf(res)!;
      assert.match(cookie, /^__Host-cms_session=cms_sess_[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; Secure; HttpOnly; SameSite=Strict$/);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.deepEqual(res.body.data.user, { id: owner.userId, email: owner.email, name: 'Owner', role: 'owner' });
      assert.deepEqual(res.body.data.account, { id: owner.accountId, plan: 'pro' });
      assert.ok(res.body.data.scopes.includes('webhooks:write'));
      assert.match(res.body.data.csrf_token, /^[A-Za-z0-9_-]{43}$/);
      assert.doesNotMatch(res.text, /scrypt|password/);

      const session = await server.client.get('/auth/session', { headers: { cookie: sessionCookieOf(res)! } });
      assert.equal(session.status, 200, session.text);
      assert.deepEqual(session.body.data.user, res.body.data.user);
      assert.equal(session.body.data.csrf_token, res.body.data.csrf_token);
      assert.equal((await server.client.get('/auth/session')).status, 401);
    });

    it('answers a wrong password, an unknown e-mail and a user without a password identically, after the same scrypt work', async () => {
      const owner = await server.account();
      const keyOnly = await addUser(server, owner.key, 'editor');
      const attempts = {
        wrong: () => signInRequest(server.client, owner.email, 'not the password at all'),
        unknown: () => signInRequest(server.client, `nobody-${Date.now()}@example.com`, 'not the password at all'),
        noPassword: () => signInRequest(server.client, keyOnly.email, 'not the password at all'),
      };
      const answers: Record<string, { status: number; code: string; message: string; cookie: string | undefined; ms: number[] }> = {};
      // Taken in turns, five rounds, so that a spell of load on the machine (other test files run
      // beside this one) weighs on every kind of attempt alike rather than on whichever ran then.
      for (let round = 0; round < 5; round++) {
        for (const [name, attempt] of Object.entries(attempts)) {
          const started = performance.now();
          const res = await attempt();
          const ms = [...(answers[name]?.ms ?? []), performance.now() - started];
          answers[name] = { status: res.status, code: res.body.code, message: res.body.message, cookie: setCookieOf(res), ms };
        }
      }
      const shown = ({ status, code, message, cookie }: (typeof answers)[string]) => ({ status, code, message, cookie });
      assert.deepEqual(shown(answers.wrong!), { status: 401, code: 'unauthorized', message: 'The e-mail address or the password is not right.', cookie: undefined });
      assert.deepEqual(shown(answers.unknown!), shown(answers.wrong!));
      assert.deepEqual(shown(answers.noPassword!), shown(answers.wrong!));
      // The unknown e-mail is verified against a decoy hash: it costs what a real check costs, not nothing.
      const median = (ms: number[]) => [...ms].sort((a, b) => a - b)[2]!;
      assert.ok(median(answers.unknown!.ms) >= median(answers.wrong!.ms) * 0.4, `unknown ${answers.unknown!.ms} vs wrong ${answers.wrong!.ms}`);
    });

    it('acts as its user with every scope the role may hold, counted under dashboard:<user id>', async () => {
      const owner = await server.account();
      const viewer = await addUser(server, owner.key, 'viewer', { password: PASSWORD });
      const mine = await signIn(server.client, viewer.email, PASSWORD);
      assert.deepEqual(mine.res.body.data.scopes, ['content:read', 'users:read', 'keys:write', 'events:read']);
      assert.equal((await mine.send('GET', '/v1/users')).status, 200);
      assert.equal((await mine.send('GET', '/v1/content')).status, 200);
      const refused = await mine.send('POST', '/v1/content', { json: ITEM });
      assert.equal(refused.status, 403, refused.text);
      // A viewer may manage their own keys: the key made through the session is theirs.
      const key = await mine.send('POST', '/v1/api-keys', { json: { name: 'from the dashboard' } });
      assert.equal(key.status, 201, key.text);
      assert.equal(key.body.data.user_id, viewer.id);

      const boss = await signIn(server.client, owner.email, owner.password);
      const created = await boss.send('POST', '/v1/content', { json: ITEM });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.data.author, owner.userId);
      const usage = await boss.send('GET', '/v1/usage');
      assert.match(String(usage.headers['x-ratelimit-limit']), /^\d+$/, 'a session request is rate limited like any other');
      const names = Object.fromEntries(usage.body.data.keys.map((k: { key_id: string; name: string; used: number }) => [k.key_id, [k.name, k.used]]));
      assert.deepEqual(names[`dashboard:${viewer.id}`], ['Dashboard', 3], 'three 2xx (the 403 is not counted)');
      assert.deepEqual(names[`dashboard:${owner.userId}`], ['Dashboard', 1]);
    });

    it('refuses a state-changing request made with the cookie unless it carries the Origin of the service and the session\'s CSRF token', async () => {
      const owner = await server.account();
      const session = await signIn(server.client, owner.email, owner.password);
      const attempts = [
        ['no Origin, no token', { origin: null, csrf: null }],
        ['another Origin, the right token', { origin: 'https://evil.example' }],
        ['the right Origin, no token', { csrf: null }],
        ['the right Origin, another session\'s token', { csrf: (await signIn(server.client, owner.email, owner.password)).csrf }],
        ['the right Origin, a made-up token', { csrf: 'x'.repeat(43) }],
      ] as const;
      for (const [name, options] of attempts) {
        const res = await session.send('POST', '/v1/content', { json: ITEM, ...options });
        assert.equal(res.status, 403, `${name}: ${res.text}`);
        assert.equal(res.body.code, 'forbidden');
        assert.match(res.body.message, /^Cross-site request refused/);
        const del = await session.send('DELETE', `/v1/api-keys/key_${'0'.repeat(26)}`, options);
        assert.equal(del.status, 403, `${name} (DELETE): ${del.text}`);
      }
      const list = await server.client.get('/v1/content', { key: owner.key });
      assert.equal(list.body.pagination.total, 0, 'nothing was created');

      assert.equal((await session.send('GET', '/v1/content', { headers: { origin: 'https://evil.example' } })).status, 200, 'reads need no token');
      assert.equal((await session.send('POST', '/v1/content', { json: ITEM })).status, 201);
    });

    it('leaves Bearer-key requests alone: no token or Origin needed, and a key wins over a cookie', async () => {
      const owner = await server.account();
      const viewer = await addUser(server, owner.key, 'viewer', { password: PASSWORD });
      const session = await signIn(server.client, viewer.email, PASSWORD);
      const res = await server.client.post('/v1/content', { key: owner.key, json: ITEM, headers: { origin: 'https://evil.example', cookie: session.cookie } });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.data.author, owner.userId, 'acted as the key, not the session');
    });

    it('refuses a sign-in posted from another site (login CSRF)', async () => {
      const owner = await server.account();
      const res = await signInRequest(server.client, owner.email, owner.password, { origin: 'https://evil.example' });
      assert.equal(res.status, 403, res.text);
      assert.equal(setCookieOf(res), undefined);
    });

    it('signs out: needs the CSRF token, deletes the session everywhere and clears the cookie', async () => {
      const owner = await server.account();
      const session = await signIn(server.client, owner.email, owner.password);
      const forged = await session.send('POST', '/auth/sign-out', { csrf: null, origin: 'https://evil.example' });
      assert.equal(forged.status, 403, forged.text);
      assert.equal((await session.send('GET', '/v1/content')).status, 200, 'a forged sign-out changes nothing');

      const out = await session.send('POST', '/auth/sign-out');
      assert.equal(out.status, 204, out.text);
      assert.equal(setCookieOf(out), '__Host-cms_session=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Strict');
      const after = await session.send('GET', '/v1/content');
      assert.equal(after.status, 401);
      assert.equal(after.body.message, 'Your dashboard session has ended; sign in again.');
      const rows = await server.app.store.db.selectFrom('sessions').select('id').where('user_id', '=', owner.userId).execute();
      assert.deepEqual(rows, [], 'the row is gone');
    });

    it('ends the sessions of a deleted user at once, and a role change applies to the next request', async () => {
      const owner = await server.account();
      const admin = await addUser(server, owner.key, 'admin', { password: PASSWORD });
      const editor = await addUser(server, owner.key, 'editor', { password: PASSWORD });
      const adminSession = await signIn(server.client, admin.email, PASSWORD);
      const editorSession = await signIn(server.client, editor.email, PASSWORD);
      assert.equal((await adminSession.send('GET', '/v1/webhooks')).status, 200);

      assert.equal((await server.client.put(`/v1/users/${admin.id}`, { key: owner.key, json: { role: 'viewer' } })).status, 200);
      assert.equal((await adminSession.send('GET', '/v1/webhooks')).status, 403, 'no longer an admin');
      assert.equal((await adminSession.send('POST', '/v1/content', { json: ITEM })).status, 403);
      assert.equal((await server.client.get('/auth/session', { headers: { cookie: adminSession.cookie } })).body.data.user.role, 'viewer');

      assert.equal((await server.client.delete(`/v1/users/${editor.id}`, { key: owner.key })).status, 204);
      assert.equal((await editorSession.send('GET', '/v1/content')).status, 401);
      const rows = await server.app.store.db.selectFrom('sessions').select('id').where('user_id', '=', editor.id).execute();
      assert.deepEqual(rows, []);
    });

    it('ends every session of a user whose password is changed through the API (their own key); the new password signs in', async () => {
      const owner = await server.account();
      const editor = await addUser(server, owner.key, 'admin', { password: PASSWORD });
      const editorKey = (await addKey(server, owner.key, { user_id: editor.id })).key;
      const first = await signIn(server.client, editor.email, PASSWORD);
      const second = await signIn(server.client, editor.email, PASSWORD);
      assert.equal((await first.send('GET', '/v1/content')).status, 200);
      const renamed = await server.client.put(`/v1/users/${editor.id}`, { key: owner.key, json: { name: 'Renamed' } });
      assert.equal(renamed.status, 200);
      assert.equal((await first.send('GET', '/v1/content')).status, 200, 'other changes keep the sessions');

      const fresh = 'a brand new passphrase';
      assert.equal((await server.client.put(`/v1/users/${editor.id}`, { key: editorKey, json: { password: fresh } })).status, 200);
      assert.equal((await first.send('GET', '/v1/content')).status, 401);
      assert.equal((await second.send('GET', '/v1/content')).status, 401);
      assert.equal((await signInRequest(server.client, editor.email, PASSWORD)).status, 401, 'the old password is gone');
      const again = await signIn(server.client, editor.email, fresh);
      assert.equal((await again.send('GET', '/v1/content')).status, 200);
    });

    it('works on every instance of the store, and a sign-out on one is honoured by the other within a second', async () => {
      const second = await startSecondInstance(server);
      try {
        const owner = await server.account();
        const session = await signIn(server.client, owner.email, owner.password);
        const elsewhere = sessionFor(second.client, session.cookie, session.csrf, session.res);
        const created = await elsewhere.send('POST', '/v1/content', { json: ITEM, origin: second.client.baseUrl });
        assert.equal(created.status, 201, created.text);
        assert.equal((await session.send('POST', '/auth/sign-out')).status, 204);
        await new Promise((resolve) => setTimeout(resolve, 1100));
        assert.equal((await elsewhere.send('GET', '/v1/content')).status, 401);
      } finally {
        await second.close();
      }
    });
  });

  describe(`dashboard session expiry (${store})`, () => {
    const time = manualClock('2027-05-01T08:00:00.000Z');
    let server: TestServer;
    before(async () => {
      server = await startServer(store, { clock: time.clock, env: { SESSION_IDLE_MINUTES: '30', SESSION_MAX_HOURS: '2' } });
    });
    after(() => server.close());

    it('ends a session left idle, is kept alive by use, and ends at its absolute limit however busy', async () => {
      const owner = await server.account();
      const idle = await signIn(server.client, owner.email, owner.password);
      const busy = await signIn(server.client, owner.email, owner.password);
      assert.equal(busy.res.body.data.expires_at, '2027-05-01T10:00:00.000Z');
      assert.equal(busy.res.body.data.idle_expires_at, '2027-05-01T08:30:00.000Z');
      for (let minutes = 25; minutes <= 100; minutes += 25) {
        time.advance(25 * 60_000);
        assert.equal((await busy.send('GET', '/v1/content')).status, 200, `busy after ${minutes} min`);
      }
      assert.equal((await idle.send('GET', '/v1/content')).status, 401, 'idle for 100 minutes');
      time.set('2027-05-01T09:59:00.000Z');
      assert.equal((await busy.send('GET', '/v1/content')).status, 200);
      time.set('2027-05-01T10:00:00.000Z');
      const ended = await busy.send('GET', '/v1/content');
      assert.equal(ended.status, 401);
      assert.equal(ended.body.message, 'Your dashboard session has ended; sign in again.');
      assert.equal((await server.client.get('/auth/session', { headers: { cookie: busy.cookie } })).status, 401);
    });
  });
}
