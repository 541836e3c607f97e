// /v1/api-keys as a client sees it (CONTRACT.md §4, §7): the key shown once, scopes, who sees and
// revokes which keys, expiry, and revocation reaching every instance.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { untilStatus, type Client, type Response } from './helpers/client.js';
import { startSecondInstance } from './helpers/instance.js';
import { addKey, addUser } from './helpers/people.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const RECORD_FIELDS = ['created_at', 'expires_at', 'id', 'kind', 'last_used_at', 'name', 'prefix', 'scopes', 'user_id'];
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const EVERYONE = ['content:read', 'events:read', 'keys:write', 'users:read'];
/** Every scope each role may hold (§4), sorted: what a key created without scopes gets. */
const DEFAULT_SCOPES: Record<string, string[]> = {
  viewer: EVERYONE,
  author: [...EVERYONE, 'content:write'].sort(),
  editor: [...EVERYONE, 'content:write'].sort(),
  admin: [...EVERYONE, 'content:write', 'users:write', 'webhooks:write'].sort(),
  owner: [...EVERYONE, 'content:write', 'users:write', 'webhooks:write'].sort(),
};

function fieldCodes(res: Response): Record<string, string> {
  return Object.fromEntries((res.body.errors as { field: string; code: string }[]).map((e) => [e.field, e.code]));
}

function assertError(res: Response, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code);
}


for (const store of testStores()) {
  describe(`API keys (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store);
    });
    after(() => server.close());

    const get = (path: string, key: string, client: Client = server.client) => client.get(path, { key });
    const post = (path: string, key: string, json: unknown) => server.client.post(path, { key, json });
    const del = (path: string, key: string) => server.client.delete(path, { key });
    /** Every live key the caller sees, as `GET /v1/api-keys` lists them. */
    const listed = async (key: string, query = '') => (await get(`/v1/api-keys?limit=100${query}`, key)).body;

    /** A user of `role` in `account`, made by its owner, with a key of every scope the role may hold. */
    async function member(account: TestAccount, role: string): Promise<{ id: string; key: string; keyId: string }> {
      const user = await addUser(server, account.key, role);
      const key = await addKey(server, account.key, { user_id: user.id });
      return { id: user.id, key: key.key, keyId: key.id };
    }

    it('creates a key: 201 with Location, the key shown this once, its prefix and every scope of the role', async () => {
      const account = await server.account();
      const res = await post('/v1/api-keys', account.key, { name: 'Deploy bot' });
      assert.equal(res.status, 201, res.text);
      const created = res.body.data;
      assert.deepEqual(Object.keys(created).sort(), [...RECORD_FIELDS, 'key'].sort());
      assert.match(created.id, /^key_[0-9a-z]{26}$/);
      assert.equal(res.headers.location, `/v1/api-keys/${created.id}`);
      assert.match(created.key, /^cms_live_[0-9A-Za-z]{40}$/);
      assert.equal(created.prefix, created.key.slice(0, 12));
      assert.deepEqual([...created.scopes].sort(), DEFAULT_SCOPES.owner);
      assert.equal(created.user_id, account.userId);
      assert.equal(created.name, 'Deploy bot');
      assert.match(created.created_at, ISO_MS);
      assert.equal(created.last_used_at, null);
      assert.equal(created.expires_at, null);
      assert.equal((await get('/v1/content', created.key)).status, 200);

      // Afterwards the record is listed without the key, and the key appears nowhere.
      const list = await get('/v1/api-keys', account.key);
      const record = list.body.data.find((k: { id: string }) => k.id === created.id);
      assert.deepEqual(Object.keys(record).sort(), RECORD_FIELDS);
      assert.deepEqual(record.scopes, created.scopes);
      assert.ok(!list.text.includes(created.key.slice(12)));
      assert.ok(record.last_used_at === null || ISO_MS.test(record.last_used_at));
    });

    it('gives a key created without scopes every scope its user’s role may hold', async () => {
      const account = await server.account();
      for (const role of ['owner', 'admin', 'editor', 'author', 'viewer']) {
        const user = await addUser(server, account.key, role);
        const forUser = await addKey(server, account.key, { user_id: user.id });
        assert.deepEqual([...forUser.scopes].sort(), DEFAULT_SCOPES[role], role);
        assert.equal(forUser.user_id, user.id);
        // The user's own key, made with that key: the same defaults.
        const own = await addKey(server, forUser.key);
        assert.deepEqual([...own.scopes].sort(), DEFAULT_SCOPES[role], role);
        assert.equal(own.user_id, user.id);
      }
    });

    it('limits a key to the scopes it was given', async () => {
      const account = await server.account();
      const reader = await addKey(server, account.key, { scopes: ['content:read'] });
      assert.deepEqual(reader.scopes, ['content:read']);
      assert.equal((await get('/v1/content', reader.key)).status, 200);
      assertError(await get('/v1/users', reader.key), 403, 'forbidden');
      assertError(await post('/v1/content', reader.key, { title: 'T', type: 'blog', content: 'C' }), 403, 'forbidden');
      assertError(await get('/v1/api-keys', reader.key), 403, 'forbidden');
    });

    it('records last_used_at once the instance that saw the use writes it (at shutdown at the latest)', async () => {
      const account = await server.account();
      const key = await addKey(server, account.key, { name: 'Used elsewhere' });
      const record = () => listed(account.key).then((body) => body.data.find((k: { id: string }) => k.id === key.id));
      assert.equal((await record()).last_used_at, null);

      const second = await startSecondInstance(server);
      try {
        const before = new Date().toISOString();
        assert.equal((await get('/v1/content', key.key, second.client)).status, 200);
        const usedBy = new Date().toISOString();
        await second.close();
        const lastUsed = (await record()).last_used_at;
        assert.match(lastUsed, ISO_MS);
        assert.ok(lastUsed >= before && lastUsed <= usedBy, `${before} <= ${lastUsed} <= ${usedBy}`);
      } finally {
        await second.close();
      }
    });

    describe('listing', () => {
      let account: TestAccount;
      let admin: Awaited<ReturnType<typeof member>>;
      let editor: Awaited<ReturnType<typeof member>>;
      let viewer: Awaited<ReturnType<typeof member>>;
      let editorExtra: string[];
      before(async () => {
        account = await server.account();
        admin = await member(account, 'admin');
        editor = await member(account, 'editor');
        viewer = await member(account, 'viewer');
        editorExtra = [(await addKey(server, editor.key, { name: 'Two' })).id, (await addKey(server, editor.key, { name: 'Three' })).id];
        // Keys of another account never show up.
        await addKey(server, (await server.account()).key);
      });

      it('shows a non-admin only their own keys, newest first', async () => {
        const mine = await listed(editor.key);
        assert.deepEqual(
          mine.data.map((k: { id: string }) => k.id),
          [...editorExtra].reverse().concat(editor.keyId),
        );
        assert.deepEqual(mine.pagination, { total: 3, limit: 100, offset: 0, has_more: false });
        const page = await get('/v1/api-keys?limit=2&offset=2', editor.key);
        assert.deepEqual(page.body.pagination, { total: 3, limit: 2, offset: 2, has_more: false });
        assert.deepEqual(
          page.body.data.map((k: { id: string }) => k.id),
          [editor.keyId],
        );
        const viewers = await listed(viewer.key);
        assert.deepEqual(
          viewers.data.map((k: { id: string }) => k.id),
          [viewer.keyId],
        );
        assert.deepEqual((await listed(viewer.key, `&user_id=${viewer.id}`)).data, viewers.data);
        // Asking for someone else's keys shows nothing of them.
        assert.deepEqual((await listed(viewer.key, `&user_id=${editor.id}`)).data, []);
      });

      it('shows admins and owners every key of the account, and ?user_id narrows it', async () => {
        // Owner's first key + one per member + the editor's two extra.
        for (const key of [account.key, admin.key]) {
          const all = await listed(key);
          assert.equal(all.pagination.total, 6);
          assert.deepEqual(new Set(all.data.map((k: { user_id: string }) => k.user_id)), new Set([account.userId, admin.id, editor.id, viewer.id]));
          const editors = await listed(key, `&user_id=${editor.id}`);
          assert.equal(editors.pagination.total, 3);
          assert.ok(editors.data.every((k: { user_id: string }) => k.user_id === editor.id));
        }
      });

      it('drops revoked keys from every list', async () => {
        assert.equal((await del(`/v1/api-keys/${editorExtra[0]}`, editor.key)).status, 204);
        assert.deepEqual(
          (await listed(editor.key)).data.map((k: { id: string }) => k.id),
          [editorExtra[1], editor.keyId],
        );
        assert.equal((await listed(admin.key)).pagination.total, 5);
        assert.ok(!(await listed(account.key)).data.some((k: { id: string }) => k.id === editorExtra[0]));
      });
    });

    it('revokes a key: 204, refused on the very next request, a second revoke is 404', async () => {
      const account = await server.account();
      const key = await addKey(server, account.key);
      assert.equal((await get('/v1/content', key.key)).status, 200);
      const revoked = await del(`/v1/api-keys/${key.id}`, account.key);
      assert.equal(revoked.status, 204);
      assert.equal(revoked.text, '');
      const refused = await get('/v1/content', key.key);
      assertError(refused, 401, 'unauthorized');
      assert.equal(refused.headers['www-authenticate'], 'Bearer');
      assertError(await del(`/v1/api-keys/${key.id}`, account.key), 404, 'not_found');

      // A key may revoke itself; it is refused from then on.
      const self = await addKey(server, account.key);
      assert.equal((await del(`/v1/api-keys/${self.id}`, self.key)).status, 204);
      assertError(await get('/v1/content', self.key), 401, 'unauthorized');
    });

    it('accepts a key until its expires_at, then answers 401; the expired key stays listed until revoked', async () => {
      const account = await server.account();
      const expiresAt = new Date(Date.now() + 2000);
      const key = await addKey(server, account.key, { expires_at: expiresAt.toISOString() });
      assert.equal((await get('/v1/content', key.key)).status, 200);
      const probe = async () => {
        const res = await get('/v1/content', key.key);
        if (res.status === 401) assert.ok(Date.now() >= expiresAt.getTime(), 'refused before expires_at');
        else assert.equal(res.status, 200, res.text);
        return res;
      };
      await untilStatus(probe, 401, 4000);
      assertError(await get('/v1/content', key.key), 401, 'unauthorized');

      const record = (await listed(account.key)).data.find((k: { id: string }) => k.id === key.id);
      assert.equal(record.expires_at, expiresAt.toISOString());
      assert.equal((await del(`/v1/api-keys/${key.id}`, account.key)).status, 204);
      assert.ok(!(await listed(account.key)).data.some((k: { id: string }) => k.id === key.id));
    });

    it('stores expires_at as UTC with milliseconds, whatever offset it was sent with', async () => {
      const account = await server.account();
      const res = await post('/v1/api-keys', account.key, { name: 'Offset', expires_at: '2099-06-01T12:00:00+02:00' });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.data.expires_at, '2099-06-01T10:00:00.000Z');
    });

    describe('validation', () => {
      let account: TestAccount;
      before(async () => {
        account = await server.account();
      });

      it('refuses an expires_at in the past or not a date', async () => {
        const past = await post('/v1/api-keys', account.key, { name: 'Old', expires_at: new Date(Date.now() - 1000).toISOString() });
        assertError(past, 422, 'validation_failed');
        assert.deepEqual(fieldCodes(past), { expires_at: 'invalid_value' });
        assert.deepEqual(fieldCodes(await post('/v1/api-keys', account.key, { name: 'Soon', expires_at: 'tomorrow' })), { expires_at: 'invalid_format' });
      });

      it('names each unknown scope by its position', async () => {
        const res = await post('/v1/api-keys', account.key, { name: 'Bad', scopes: ['content:read', 'content:admin', 'users:read', 'everything'] });
        assertError(res, 422, 'validation_failed');
        assert.deepEqual(fieldCodes(res), { 'scopes[1]': 'invalid_value', 'scopes[3]': 'invalid_value' });
      });

      it("refuses a scope the user's role may not hold", async () => {
        const viewer = await member(account, 'viewer');
        const own = await post('/v1/api-keys', viewer.key, { name: 'Writer', scopes: ['content:read', 'content:write'] });
        assertError(own, 422, 'validation_failed');
        assert.deepEqual(fieldCodes(own), { 'scopes[1]': 'invalid_value' });
        const forEditor = await post('/v1/api-keys', account.key, { name: 'Admin-ish', user_id: (await addUser(server, account.key, 'editor')).id, scopes: ['users:write'] });
        assert.deepEqual(fieldCodes(forEditor), { 'scopes[0]': 'invalid_value' });
      });

      it('lists every failing field of the body: name, unknown and read-only fields', async () => {
        const res = await post('/v1/api-keys', account.key, { name: '', prefix: 'cms_live_abc', key: 'x', colour: 'red' });
        assertError(res, 422, 'validation_failed');
        assert.deepEqual(fieldCodes(res), { name: 'too_short', prefix: 'read_only', key: 'read_only', colour: 'unknown_field' });
        assert.deepEqual(fieldCodes(await post('/v1/api-keys', account.key, { name: 'k'.repeat(101) })), { name: 'too_long' });
        assert.deepEqual(fieldCodes(await post('/v1/api-keys', account.key, {})), { name: 'required' });
        assert.equal((await post('/v1/api-keys', account.key, { name: 'k'.repeat(100) })).status, 201);
      });
    });

    it('lets only admins and owners create keys for others, and only owners for owners', async () => {
      const account = await server.account();
      const admin = await member(account, 'admin');
      const editor = await member(account, 'editor');
      const viewer = await addUser(server, account.key, 'viewer');
      const secondOwner = await addUser(server, account.key, 'owner');

      assertError(await post('/v1/api-keys', editor.key, { name: 'Sneaky', user_id: viewer.id }), 403, 'forbidden');
      assertError(await post('/v1/api-keys', admin.key, { name: 'Escalate', user_id: account.userId }), 403, 'forbidden');
      assertError(await post('/v1/api-keys', admin.key, { name: 'Escalate', user_id: secondOwner.id }), 403, 'forbidden');
      assert.equal((await listed(account.key, `&user_id=${secondOwner.id}`)).pagination.total, 0);

      const forEditor = await addKey(server, admin.key, { user_id: editor.id });
      assert.deepEqual([forEditor.user_id, [...forEditor.scopes].sort()], [editor.id, DEFAULT_SCOPES.editor]);
      const forOwner = await addKey(server, account.key, { user_id: secondOwner.id });
      assert.equal(forOwner.user_id, secondOwner.id);
      // The key acts as its user.
      const item = await server.content(forOwner.key);
      assert.equal(item.author, secondOwner.id);
    });

    it("answers a user id of another account as it answers an unknown one, and never issues the key", async () => {
      const account = await server.account();
      const stranger = await server.account();
      const foreign = await post('/v1/api-keys', account.key, { name: 'Foreign', user_id: stranger.userId });
      const unknown = await post('/v1/api-keys', account.key, { name: 'Foreign', user_id: 'user_00000000000000000000000000' });
      assert.ok([404, 422].includes(foreign.status), foreign.text);
      assert.deepEqual([foreign.status, foreign.body.code, foreign.body.errors], [unknown.status, unknown.body.code, unknown.body.errors]);
      assert.equal((await listed(stranger.key)).pagination.total, 1);
    });

    it("hides other people's keys from non-admins: revoking one is 404 and it keeps working", async () => {
      const account = await server.account();
      const editor = await member(account, 'editor');
      const author = await member(account, 'author');
      for (const [caller, victim] of [
        [editor, author],
        [author, editor],
      ] as const) {
        assertError(await del(`/v1/api-keys/${victim.keyId}`, caller.key), 404, 'not_found');
        assert.equal((await get('/v1/content', victim.key)).status, 200);
      }
      assertError(await del('/v1/api-keys/key_00000000000000000000000000', editor.key), 404, 'not_found');
      const admin = await member(account, 'admin');
      assert.equal((await del(`/v1/api-keys/${editor.keyId}`, admin.key)).status, 204);
      assertError(await get('/v1/content', editor.key), 401, 'unauthorized');
    });

    it("treats another account's key ids as nonexistent", async () => {
      const mine = await server.account();
      const theirs = await server.account();
      const theirKey = await addKey(server, theirs.key);
      assertError(await del(`/v1/api-keys/${theirKey.id}`, mine.key), 404, 'not_found');
      assert.equal((await get('/v1/content', theirKey.key)).status, 200);
      assert.deepEqual((await listed(mine.key, `&user_id=${theirs.userId}`)).data, []);
      assert.ok(!(await listed(mine.key)).data.some((k: { user_id: string }) => k.user_id === theirs.userId));
    });

    describe('a second instance on the same store', () => {
      let second: Awaited<ReturnType<typeof startSecondInstance>>;
      before(async () => {
        second = await startSecondInstance(server);
      });
      after(() => second?.close());

      it('refuses a revoked key within a second, even while it holds the key warm', async () => {
        const account = await server.account();
        const key = await addKey(server, account.key);
        for (let i = 0; i < 3; i++) assert.equal((await get('/v1/content', key.key, second.client)).status, 200);
        assert.equal((await del(`/v1/api-keys/${key.id}`, account.key)).status, 204);
        assertError(await get('/v1/content', key.key), 401, 'unauthorized');
        const took = await untilStatus(() => get('/v1/content', key.key, second.client), 401, 1500);
        assert.ok(took <= 1500, `took ${took} ms`);
        assertError(await get('/v1/content', key.key, second.client), 401, 'unauthorized');
      });

      it("refuses a deleted user's key within a second there too", async () => {
        const account = await server.account();
        const editor = await member(account, 'editor');
        for (let i = 0; i < 3; i++) assert.equal((await get('/v1/content', editor.key, second.client)).status, 200);
        assert.equal((await del(`/v1/users/${editor.id}`, account.key)).status, 204);
        await untilStatus(() => get('/v1/content', editor.key, second.client), 401, 1500);
      });

      it('applies a role change made here there within a second', async () => {
        const account = await server.account();
        const editor = await member(account, 'editor');
        const write = () => second.client.post('/v1/content', { key: editor.key, json: { title: 'T', type: 'blog', content: 'C' } });
        assert.equal((await write()).status, 201);
        assert.equal((await server.client.put(`/v1/users/${editor.id}`, { key: account.key, json: { role: 'viewer' } })).status, 200);
        await untilStatus(write, 403, 1500);
      });

      it('applies a revocation made there to this instance within a second', async () => {
        const account = await server.account();
        const key = await addKey(server, account.key);
        assert.equal((await get('/v1/content', key.key)).status, 200);
        assert.equal((await second.client.delete(`/v1/api-keys/${key.id}`, { key: account.key })).status, 204);
        await untilStatus(() => get('/v1/content', key.key), 401, 1500);
      });
    });
  });
}
