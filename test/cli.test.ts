// The `cms` administration command, spawned with the server's configuration: JSON on stdout, exit 1 and a clear message on error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { killChildren, runCli, startServerProcess, storeEnv, type Finished, type ServerProcess } from './helpers/process.js';
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
    let account: { account_id: string; user_id: string; api_key: string };
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
      assert.deepEqual(Object.keys(account).sort(), ['account_id', 'api_key', 'user_id']);
      assert.match(account.account_id, id('acct'));
      assert.match(account.user_id, id('user'));
      assert.match(account.api_key, KEY);
      const listed = await server.client.get('/v1/content', { key: account.api_key });
      assert.equal(listed.status, 200, listed.text);
      const posted = await server.client.post('/v1/content', { key: account.api_key, json: { title: 'By the owner', type: 'blog', content: 'x' } });
      assert.equal(posted.status, 201, posted.text);
      assert.equal(posted.body.data.author, account.user_id);
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
