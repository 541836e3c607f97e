// The `cms` administration command, spawned with the server's configuration: JSON on stdout, exit 1 and a clear message on error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { killChildren, runCli, startServerProcess, storeEnv, type Finished, type ServerProcess } from './helpers/process.js';
import { signIn, signInRequest } from './helpers/sessions.js';
import { testStores } from './helpers/stores.js';

const KEY = /^cms_live_[0-9A-Za-z]{40}$/;
const id = (prefix: string) => new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{26}$`);

after(killChildren);

function assertFailed(result: Finished, message: RegExp): void {
  assert.equal(result.code, 1, `exit code; stderr: ${result.stderr}`);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, message);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'a stack trace');
}

for (const store of testStores()) {
  describe(`cms (${store})`, { concurrency: 2 }, () => {
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    let server: ServerProcess;
    let migrated: Finished & { json: unknown };
    let created: Finished & { json: unknown };
    let account: { account_id: string; user_id: string; api_key: string; password: string };
    const cms = (...args: string[]) => runCli(args, env);

    before(async () => {
      ({ env, cleanup } = await storeEnv(store));
      migrated = await cms('migrate');
      created = await cms('accounts', 'create', '--email', 'a@b.co', '--plan', 'free');
      account = created.json as typeof account;
      server = await startServerProcess(env);
    });
    after(async () => {
      await server?.stop();
      await cleanup();
    });

    it('accounts create prints the account, its owner and a key that works against the server', async () => {
      assert.equal(created.code, 0, created.stderr);
      assert.deepEqual(Object.keys(account).sort(), ['account_id', 'api_key', 'password', 'user_id']);
      assert.match(account.password, /^[A-Za-z0-9_-]{24}$/);
      assert.match(account.account_id, id('acct'));
      assert.match(account.user_id, id('user'));
      assert.match(account.api_key, KEY);
      const listed = await server.client.get('/v1/content', { key: account.api_key });
      assert.equal(listed.status, 200, listed.text);
      const posted = await server.client.post('/v1/content', { key: account.api_key, json: { title: 'By the owner', type: 'blog', content: 'x' } });
      assert.equal(posted.status, 201, posted.text);
      assert.equal(posted.body.data.author, account.user_id);
    });

    it("accounts create gives the owner a password that signs in to the dashboard", async () => {
      const res = await signInRequest(server.client, 'a@b.co', account.password);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.user.id, account.user_id);
    });

    it('users set-password sets a password piped in, or generates one; either ends the sessions the user had', async () => {
      const made = await runCli(['accounts', 'create', '--email', 'pw@b.co'], env);
      const owner = made.json as typeof account;
      const before = await signIn(server.client, 'pw@b.co', owner.password);

      const piped = await runCli(['users', 'set-password', '--user', 'PW@b.co'], env, 'a brand new passphrase\n');
      assert.equal(piped.code, 0, piped.stderr);
      assert.deepEqual(piped.json, { user_id: owner.user_id, account_id: owner.account_id, email: 'pw@b.co', sessions_ended: 1 });
      assert.equal((await before.send('GET', '/v1/content')).status, 401, 'signed out everywhere');
      assert.equal((await signInRequest(server.client, 'pw@b.co', owner.password)).status, 401, 'the old password is gone');
      await signIn(server.client, 'pw@b.co', 'a brand new passphrase');

      const generated = await cms('users', 'set-password', '--user', owner.user_id);
      assert.equal(generated.code, 0, generated.stderr);
      const { password, sessions_ended } = generated.json as { password: string; sessions_ended: number };
      assert.match(password, /^[A-Za-z0-9_-]{24}$/);
      assert.equal(sessions_ended, 1);
      await signIn(server.client, 'pw@b.co', password);

      assertFailed(await runCli(['users', 'set-password', '--user', 'pw@b.co'], env, 'short'), /password: Must be at least 12 characters/);
      assertFailed(await cms('users', 'set-password', '--user', 'nobody@b.co'), /User not found/);
    });

    it('accounts create refuses an e-mail already in use', async () => {
      assertFailed(await cms('accounts', 'create', '--email', 'a@b.co'), /a@b\.co is already in use/i);
    });

    it('keys create issues a key limited to the scopes asked for', async () => {
      const result = await cms('keys', 'create', '--user', 'a@b.co', '--scopes', 'content:read');
      assert.equal(result.code, 0, result.stderr);
      const key = result.json as { id: string; api_key: string };
      assert.deepEqual(Object.keys(key).sort(), ['api_key', 'id']);
      assert.match(key.id, id('key'));
      assert.match(key.api_key, KEY);
      assert.equal((await server.client.get('/v1/content', { key: key.api_key })).status, 200);
      const write = await server.client.post('/v1/content', { key: key.api_key, json: { title: 'Nope', type: 'blog', content: 'x' } });
      assert.equal(write.status, 403, write.text);
      assert.equal(write.body.code, 'forbidden');
    });

    it('keys create finds the user by id too, and defaults to every scope of the role', async () => {
      const result = await cms('keys', 'create', '--user', account.user_id, '--name', 'deploy');
      assert.equal(result.code, 0, result.stderr);
      const { api_key } = result.json as { api_key: string };
      const posted = await server.client.post('/v1/content', { key: api_key, json: { title: 'By key two', type: 'blog', content: 'x' } });
      assert.equal(posted.status, 201, posted.text);
    });

    it('keys create rejects an unknown scope', async () => {
      assertFailed(await cms('keys', 'create', '--user', 'a@b.co', '--scopes', 'content:read,bogus'), /bogus/);
    });

    it('accounts plan changes the plan and the limits, and rejects an unknown account', async () => {
      const result = await cms('accounts', 'plan', '--account', account.account_id, '--plan', 'basic', '--rate-limit', '5000');
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(result.json, { account_id: account.account_id, plan: 'basic', rate_limit: 5000, quota: null });
      assertFailed(await cms('accounts', 'plan', '--account', 'acct_01jzzzzzzzzzzzzzzzzzzzzzzz', '--plan', 'basic'), /account not found/i);
    });

    it('migrate applies the migrations of an empty store once, and says which', async () => {
      assert.equal(migrated.code, 0, migrated.stderr);
      const { applied } = migrated.json as { applied: string[] };
      assert.ok(applied.length > 0 && applied.every((name) => typeof name === 'string'), migrated.stdout);
      const again = await cms('migrate');
      assert.equal(again.code, 0, again.stderr);
      assert.deepEqual(again.json, { applied: [] });
    });
  });
}

describe('cms usage errors', { concurrency: 2 }, () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  before(async () => ({ env, cleanup } = await storeEnv('sqlite')));
  after(() => cleanup());

  it('rejects an unknown command or option with the usage', async () => {
    for (const args of [['frobnicate'], ['accounts', 'create', '--email', 'c@d.co', '--colour', 'red']]) {
      const result = await runCli(args, env);
      assertFailed(result, /Usage:/);
      assert.match(result.stderr, /cms accounts create --email/);
    }
  });

  it('rejects a rate limit that is not a number', async () => {
    assertFailed(await runCli(['accounts', 'create', '--email', 'e@f.co', '--rate-limit', 'abc'], env), /--rate-limit must be a whole number/);
  });

  it('stops on a bad configuration, naming the variable', async () => {
    assertFailed(await runCli(['migrate'], { ...env, DATABASE_URL: 'mysql://x' }), /DATABASE_URL/);
  });
});
