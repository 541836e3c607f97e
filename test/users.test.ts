// /v1/users as a client sees it (CONTRACT.md §3, §4, §6): listing, validation, role rules, tenancy.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { addKey, addUser, uniqueEmail } from './helpers/people.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const USER_FIELDS = ['created_at', 'email', 'id', 'name', 'role', 'updated_at'];
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** `errors` of a 400/422 as {field: code}. */
function fieldCodes(res: Response): Record<string, string> {
  return Object.fromEntries((res.body.errors as { field: string; code: string }[]).map((e) => [e.field, e.code]));
}

function assertError(res: Response, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code);
}

for (const store of testStores()) {
  describe(`users (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store);
    });
    after(() => server.close());

    const get = (path: string, key: string) => server.client.get(path, { key });
    const put = (path: string, key: string, json: unknown) => server.client.put(path, { key, json });
    const post = (path: string, key: string, json: unknown) => server.client.post(path, { key, json });
    const del = (path: string, key: string) => server.client.delete(path, { key });

    /** A user of `role` in `account`, made by its owner, with a key of every scope the role may hold. */
    async function member(account: TestAccount, role: string): Promise<{ id: string; key: string }> {
      const user = await addUser(server, account.key, role);
      return { id: user.id, key: (await addKey(server, account.key, { user_id: user.id })).key };
    }

    describe('listing', () => {
      let account: TestAccount;
      let newestFirst: string[];
      before(async () => {
        account = await server.account();
        const made = [];
        for (const role of ['editor', 'author', 'viewer', 'editor']) made.push((await addUser(server, account.key, role)).id);
        newestFirst = [...made.reverse(), account.userId];
      });

      it('lists newest first with exact totals and has_more', async () => {
        const all = await get('/v1/users?limit=100', account.key);
        assert.equal(all.status, 200);
        assert.deepEqual(
          all.body.data.map((u: { id: string }) => u.id),
          newestFirst,
        );
        assert.deepEqual(all.body.pagination, { total: 5, limit: 100, offset: 0, has_more: false });
        for (const user of all.body.data) assert.deepEqual(Object.keys(user).sort(), USER_FIELDS);
        assert.ok(!/password/i.test(all.text));

        const pages = [];
        for (let offset = 0; offset < 5; offset += 2) {
          const page = await get(`/v1/users?limit=2&offset=${offset}`, account.key);
          assert.deepEqual(page.body.pagination, { total: 5, limit: 2, offset, has_more: offset + 2 < 5 });
          pages.push(...page.body.data.map((u: { id: string }) => u.id));
        }
        assert.deepEqual(pages, newestFirst);

        const beyond = await get('/v1/users?offset=9', account.key);
        assert.deepEqual(beyond.body.data, []);
        assert.deepEqual(beyond.body.pagination, { total: 5, limit: 10, offset: 9, has_more: false });
        assert.equal((await get('/v1/users?limit=1000', account.key)).body.pagination.limit, 100);
      });

      it('filters by role, keeping the order and an exact total', async () => {
        const editors = await get('/v1/users?role=editor', account.key);
        assert.equal(editors.status, 200);
        assert.deepEqual(
          editors.body.data.map((u: { id: string }) => u.id),
          [newestFirst[0], newestFirst[3]],
        );
        assert.deepEqual(editors.body.pagination, { total: 2, limit: 10, offset: 0, has_more: false });
        const owners = await get('/v1/users?role=owner&limit=1', account.key);
        assert.deepEqual(owners.body.pagination, { total: 1, limit: 1, offset: 0, has_more: false });
        assert.deepEqual((await get('/v1/users?role=admin', account.key)).body.data, []);
      });

      it('rejects bad query parameters with 400 invalid_parameter, listing each one', async () => {
        const bogus = await get('/v1/users?role=superuser', account.key);
        assertError(bogus, 400, 'invalid_parameter');
        assert.deepEqual(fieldCodes(bogus), { role: 'invalid_value' });

        const many = await get('/v1/users?role=Owner&limit=0&offset=-1&colour=red', account.key);
        assertError(many, 400, 'invalid_parameter');
        assert.deepEqual(Object.keys(fieldCodes(many)).sort(), ['colour', 'limit', 'offset', 'role']);
        assert.equal(fieldCodes(many).colour, 'unknown_field');

        assert.deepEqual(fieldCodes(await get('/v1/users?role=', account.key)), { role: 'invalid_value' });
        assert.deepEqual(fieldCodes(await get('/v1/users?role=editor&role=viewer', account.key)), { role: 'invalid_value' });
        assertError(await get('/v1/users?limit=1.5', account.key), 400, 'invalid_parameter');
      });
    });

    it('gets one user, and 404 for an unknown id', async () => {
      const account = await server.account();
      const got = await get(`/v1/users/${account.userId}`, account.key);
      assert.equal(got.status, 200);
      assert.deepEqual(Object.keys(got.body.data).sort(), USER_FIELDS);
      assert.equal(got.body.data.id, account.userId);
      assert.equal(got.body.data.role, 'owner');
      assert.match(got.body.data.created_at, ISO_MS);
      assertError(await get('/v1/users/user_00000000000000000000000000', account.key), 404, 'not_found');
    });

    it('creates a user: 201 with Location, the e-mail trimmed and lower-cased, the password never shown', async () => {
      const account = await server.account();
      const local = `Ed.${Date.now()}`;
      const created = await post('/v1/users', account.key, { email: ` ${local}@Example.COM `, name: 'Ed', role: 'editor', password: 'correct horse battery' });
      assert.equal(created.status, 201, created.text);
      const user = created.body.data;
      assert.match(user.id, /^user_[0-9a-z]{26}$/);
      assert.equal(created.headers.location, `/v1/users/${user.id}`);
      assert.equal(user.email, `${local.toLowerCase()}@example.com`);
      assert.deepEqual(Object.keys(user).sort(), USER_FIELDS);
      assert.equal(user.name, 'Ed');
      assert.equal(user.role, 'editor');
      assert.match(user.created_at, ISO_MS);
      assert.equal(user.updated_at, user.created_at);

      const responses = [
        created,
        await get(`/v1/users/${user.id}`, account.key),
        await get('/v1/users', account.key),
        await put(`/v1/users/${account.userId}`, account.key, { password: 'another long secret' }),
      ];
      for (const res of responses) {
        assert.ok(res.status < 300, res.text);
        assert.ok(!/password/i.test(res.text), res.text);
      }
      assert.deepEqual(responses[1]!.body.data, user);
    });

    it('refuses a duplicate e-mail with 409, whatever its case and whichever account has it', async () => {
      const first = await server.account();
      const second = await server.account();
      const email = uniqueEmail('dup');
      assert.equal((await post('/v1/users', first.key, { email, name: 'One', role: 'viewer' })).status, 201);

      assertError(await post('/v1/users', first.key, { email: ` ${email.toUpperCase()} `, name: 'Two', role: 'viewer' }), 409, 'conflict');
      assertError(await post('/v1/users', second.key, { email, name: 'Three', role: 'viewer' }), 409, 'conflict');
      const ownerEmail = (await get(`/v1/users/${first.userId}`, first.key)).body.data.email;
      assertError(await post('/v1/users', second.key, { email: ownerEmail, name: 'Four', role: 'viewer' }), 409, 'conflict');

      const other = await addUser(server, second.key, 'viewer');
      assertError(await put(`/v1/users/${other.id}`, second.key, { email: email.toUpperCase() }), 409, 'conflict');
      assert.equal((await get(`/v1/users/${other.id}`, second.key)).body.data.email, other.email);
      assert.equal((await get('/v1/users', second.key)).body.pagination.total, 2);
    });

    describe('validation', () => {
      let account: TestAccount;
      before(async () => {
        account = await server.account();
      });

      it('lists every failing field of a create in one 422', async () => {
        const res = await post('/v1/users', account.key, {
          email: 'not-an-email',
          name: '',
          role: 'superuser',
          password: 'elevenchars',
          id: 'user_01jd2x3m4n5p6q7r8s9t0v1w2x',
          created_at: '2026-01-01T00:00:00.000Z',
          favourite_colour: 'blue',
        });
        assertError(res, 422, 'validation_failed');
        assert.deepEqual(fieldCodes(res), {
          email: 'invalid_format',
          name: 'too_short',
          role: 'invalid_value',
          password: 'too_short',
          id: 'read_only',
          created_at: 'read_only',
          favourite_colour: 'unknown_field',
        });
        for (const error of res.body.errors) assert.ok(typeof error.message === 'string' && error.message.length > 0);
        assert.equal((await get('/v1/users', account.key)).body.pagination.total, 1);
      });

      it('names missing, too long, blank and badly typed fields', async () => {
        assert.deepEqual(fieldCodes(await post('/v1/users', account.key, {})), { email: 'required', name: 'required', role: 'required' });
        const long = await post('/v1/users', account.key, { email: uniqueEmail(), name: 'n'.repeat(101), role: 'viewer' });
        assert.deepEqual(fieldCodes(long), { name: 'too_long' });
        const blank = await post('/v1/users', account.key, { email: uniqueEmail(), name: '   ', role: 'viewer', password: 12345678901234 });
        assert.deepEqual(fieldCodes(blank), { name: 'too_short', password: 'invalid_type' });
        assert.deepEqual(fieldCodes(await post('/v1/users', account.key, ['not', 'an', 'object'])), { '': 'invalid_type' });
      });

      it('accepts the boundaries: a 100-character name, a 12-character password', async () => {
        const res = await post('/v1/users', account.key, { email: uniqueEmail(), name: 'n'.repeat(100), role: 'viewer', password: 'twelve-chars' });
        assert.equal(res.status, 201, res.text);
        assert.equal(res.body.data.name.length, 100);
      });

      it('refuses an empty update, read-only and unknown fields on PUT', async () => {
        const user = await addUser(server, account.key, 'viewer');
        const empty = await put(`/v1/users/${user.id}`, account.key, {});
        assertError(empty, 422, 'validation_failed');
        assert.deepEqual(empty.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]), [['', 'empty_update']]);
        const bad = await put(`/v1/users/${user.id}`, account.key, { updated_at: '2026-01-01T00:00:00.000Z', nickname: 'x', role: 'root', email: 'a@b' });
        assert.deepEqual(fieldCodes(bad), { updated_at: 'read_only', nickname: 'unknown_field', role: 'invalid_value', email: 'invalid_format' });
        assert.deepEqual((await get(`/v1/users/${user.id}`, account.key)).body.data, user);
      });
    });

    it('changes only the fields a PUT sends', async () => {
      const account = await server.account();
      const user = await addUser(server, account.key, 'editor');
      const renamed = await put(`/v1/users/${user.id}`, account.key, { name: 'Renamed' });
      assert.equal(renamed.status, 200, renamed.text);
      assert.deepEqual({ ...renamed.body.data, updated_at: user.updated_at }, { ...user, name: 'Renamed' });
      assert.ok(renamed.body.data.updated_at >= user.updated_at);
      assert.match(renamed.body.data.updated_at, ISO_MS);

      const local = `Moved.${Date.now()}`;
      const moved = await put(`/v1/users/${user.id}`, account.key, { email: ` ${local}@Example.org ` });
      assert.equal(moved.body.data.email, `${local.toLowerCase()}@example.org`);
      assert.equal(moved.body.data.name, 'Renamed');
      assert.deepEqual((await get(`/v1/users/${user.id}`, account.key)).body.data, moved.body.data);
    });

    it('lets nobody change their own role, while sending the role one has is allowed', async () => {
      const account = await server.account();
      const self = `/v1/users/${account.userId}`;
      assertError(await put(self, account.key, { role: 'admin' }), 403, 'forbidden');
      assert.equal((await get(self, account.key)).body.data.role, 'owner');
      const same = await put(self, account.key, { role: 'owner', name: 'Still the owner' });
      assert.equal(same.status, 200, same.text);
      assert.deepEqual([same.body.data.role, same.body.data.name], ['owner', 'Still the owner']);

      const admin = await member(account, 'admin');
      assertError(await put(`/v1/users/${admin.id}`, admin.key, { role: 'editor' }), 403, 'forbidden');
      assertError(await put(`/v1/users/${admin.id}`, admin.key, { role: 'owner' }), 403, 'forbidden');
      assert.equal((await put(`/v1/users/${admin.id}`, admin.key, { role: 'admin', name: 'Admin' })).status, 200);
      assert.equal((await get(`/v1/users/${admin.id}`, account.key)).body.data.role, 'admin');
    });

    it('keeps an owner: 403 for an admin touching an owner, 409 for removing the last one', async () => {
      const account = await server.account();
      const a = { id: account.userId, key: account.key };
      const b = await member(account, 'owner');
      assert.equal((await put(`/v1/users/${b.id}`, a.key, { role: 'admin' })).status, 200);

      // B is an admin now: owners are out of reach.
      assertError(await put(`/v1/users/${a.id}`, b.key, { name: 'Hijacked' }), 403, 'forbidden');
      assertError(await del(`/v1/users/${a.id}`, b.key), 403, 'forbidden');
      // A is the last owner: their own role is checked first (403), removing them is a conflict.
      assertError(await put(`/v1/users/${a.id}`, a.key, { role: 'admin' }), 403, 'forbidden');
      assertError(await del(`/v1/users/${a.id}`, a.key), 409, 'conflict');
      assert.equal((await get(`/v1/users/${a.id}`, a.key)).body.data.role, 'owner');

      // With two owners again, one may remove the other; then the survivor is the last one.
      assert.equal((await put(`/v1/users/${b.id}`, a.key, { role: 'owner' })).status, 200);
      assert.equal((await del(`/v1/users/${a.id}`, b.key)).status, 204);
      assertError(await get('/v1/users', a.key), 401, 'unauthorized');
      assertError(await del(`/v1/users/${b.id}`, b.key), 409, 'conflict');
      assert.equal((await get('/v1/users?role=owner', b.key)).body.pagination.total, 1);
    });

    it('leaves exactly one owner when two owners demote each other at once', async () => {
      for (let round = 0; round < 5; round++) {
        const account = await server.account();
        const b = await member(account, 'owner');
        const results = await Promise.all([
          put(`/v1/users/${b.id}`, account.key, { role: 'admin' }),
          put(`/v1/users/${account.userId}`, b.key, { role: 'admin' }),
        ]);
        const statuses = results.map((r) => r.status).sort();
        assert.equal(statuses[0], 200, results.map((r) => r.text).join(' | '));
        assert.ok([403, 409].includes(statuses[1]!), `second answer ${statuses[1]}`);
        assert.equal((await get('/v1/users?role=owner', account.key)).body.pagination.total, 1);
      }
    });

    it('lets admins manage users up to admin but never owners', async () => {
      const account = await server.account();
      const admin = await member(account, 'admin');
      const editor = await addUser(server, account.key, 'editor');
      const owner = `/v1/users/${account.userId}`;
      const before = (await get(owner, account.key)).body.data;

      assertError(await put(owner, admin.key, { name: 'Mine now' }), 403, 'forbidden');
      assertError(await del(owner, admin.key), 403, 'forbidden');
      assertError(await put(`/v1/users/${editor.id}`, admin.key, { role: 'owner' }), 403, 'forbidden');
      assertError(await post('/v1/users', admin.key, { email: uniqueEmail(), name: 'Boss', role: 'owner' }), 403, 'forbidden');
      assert.deepEqual((await get(owner, account.key)).body.data, before);
      assert.equal((await get(`/v1/users/${editor.id}`, account.key)).body.data.role, 'editor');
      assert.equal((await get('/v1/users?role=owner', account.key)).body.pagination.total, 1);

      assert.equal((await put(`/v1/users/${editor.id}`, admin.key, { role: 'admin' })).status, 200);
      assert.equal((await del(`/v1/users/${editor.id}`, admin.key)).status, 204);
    });

    it('deletes a user: 204, their keys refused on the very next request, their content kept', async () => {
      const account = await server.account();
      const editor = await member(account, 'editor');
      const spare = await addKey(server, account.key, { user_id: editor.id, name: 'Spare' });
      const item = await server.content(editor.key, { title: 'Outlives its author' });
      assert.equal((await get('/v1/content', editor.key)).status, 200);
      assert.equal((await get('/v1/content', spare.key)).status, 200);

      const deleted = await del(`/v1/users/${editor.id}`, account.key);
      assert.equal(deleted.status, 204);
      assert.equal(deleted.text, '');
      for (const key of [editor.key, spare.key]) {
        const refused = await get('/v1/content', key);
        assertError(refused, 401, 'unauthorized');
        assert.equal(refused.headers['www-authenticate'], 'Bearer');
      }

      assertError(await get(`/v1/users/${editor.id}`, account.key), 404, 'not_found');
      assertError(await del(`/v1/users/${editor.id}`, account.key), 404, 'not_found');
      const kept = await get(`/v1/content/${item.id}`, account.key);
      assert.equal(kept.status, 200);
      assert.equal(kept.body.data.author, editor.id);
      const keys = (await get('/v1/api-keys?limit=100', account.key)).body.data as { user_id: string }[];
      assert.ok(!keys.some((k) => k.user_id === editor.id));
    });

    it("applies a role change to the user's existing keys at once", async () => {
      const account = await server.account();
      const editor = await member(account, 'editor');
      assert.equal((await post('/v1/content', editor.key, { title: 'T', type: 'blog', content: 'C' })).status, 201);
      assert.equal((await put(`/v1/users/${editor.id}`, account.key, { role: 'viewer' })).status, 200);
      assertError(await post('/v1/content', editor.key, { title: 'T', type: 'blog', content: 'C' }), 403, 'forbidden');
      assert.equal((await get('/v1/content', editor.key)).status, 200);
    });

    it("treats another account's users as nonexistent: 404, never listed", async () => {
      const mine = await server.account();
      const theirs = await server.account();
      const stranger = await addUser(server, theirs.key, 'editor');
      for (const id of [theirs.userId, stranger.id]) {
        assertError(await get(`/v1/users/${id}`, mine.key), 404, 'not_found');
        assertError(await put(`/v1/users/${id}`, mine.key, { name: 'Hijacked' }), 404, 'not_found');
        assertError(await del(`/v1/users/${id}`, mine.key), 404, 'not_found');
      }
      assert.equal((await get(`/v1/users/${stranger.id}`, theirs.key)).body.data.name, stranger.name);
      assert.equal((await get(`/v1/users/${theirs.userId}`, theirs.key)).status, 200);
      const listed = await get('/v1/users?limit=100', mine.key);
      assert.deepEqual(
        listed.body.data.map((u: { id: string }) => u.id),
        [mine.userId],
      );
      assert.equal(listed.body.pagination.total, 1);
    });
  });
}
