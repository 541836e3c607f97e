// Slugs (CONTRACT.md §19): made from the title with transliteration, unique per account and type
// (a made clash takes -2, -3…; a given slug in use is 409 naming `slug`), old slugs kept as aliases
// reserved for the item's life, and the `slug=` filter (with or without `type`) finding an item by
// its current slug or an alias, with `data[0].slug` the current one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

for (const store of testStores()) {
  describe(`slugs (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store);
    });
    after(() => server.close());

    const bySlug = async (key: string, query: string) => {
      const res = await server.client.get(`/v1/content?${query}`, { key });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };

    it('makes slugs from titles, transliterated, with -2, -3… on a clash within a type', async () => {
      const { key } = await server.account();
      const made = [];
      for (const type of ['blog', 'blog', 'blog', 'manual']) made.push(await server.content(key, { title: 'Crème Brûlée: Q3!', type }));
      assert.deepEqual(made.map((i) => i.slug), ['creme-brulee-q3', 'creme-brulee-q3-2', 'creme-brulee-q3-3', 'creme-brulee-q3']);
      assert.equal((await server.content(key, { title: 'Ünïcödé — Straße' })).slug, 'uenicoede-strasse');
      assert.equal((await server.content(key, { title: '🎉🎉' })).slug, 'untitled');
      const long = await server.content(key, { title: 'word '.repeat(40).trim() });
      assert.ok((long.slug as string).length <= 200 && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(long.slug as string), long.slug as string);
      // The list shows the slug too.
      const listed = await server.client.get('/v1/content?limit=100', { key });
      assert.ok(listed.body.data.every((i: { slug: string }) => typeof i.slug === 'string'));
      // A title change keeps the slug (links stay valid).
      const renamed = await server.client.put(`/v1/content/${made[0]!.id}`, { key, json: { title: 'Something else' } });
      assert.equal(renamed.body.data.slug, 'creme-brulee-q3');
    });

    it('takes a slug given on create or update, refusing one in use with 409 naming slug', async () => {
      const { key } = await server.account();
      const a = await server.content(key, { title: 'A', slug: 'hello-world' });
      assert.equal(a.slug, 'hello-world');
      const clash = await server.client.post('/v1/content', { key, json: { title: 'B', type: 'blog', content: 'x', slug: 'hello-world' } });
      assert.equal(clash.status, 409, clash.text);
      assert.equal(clash.body.code, 'conflict');
      assert.deepEqual(clash.body.errors.map((e: { field: string }) => e.field), ['slug']);
      // Another type may hold it; a made slug skips a given one in its way.
      assert.equal((await server.content(key, { title: 'C', type: 'manual', slug: 'hello-world' })).slug, 'hello-world');
      assert.equal((await server.content(key, { title: 'Hello, World' })).slug, 'hello-world-2');
      for (const [slug, code] of [['Hello', 'invalid_format'], ['a--b', 'invalid_format'], ['-a', 'invalid_format'], ['', 'too_short'], ['a'.repeat(201), 'too_long']]) {
        const res = await server.client.post('/v1/content', { key, json: { title: 'D', type: 'blog', content: 'x', slug } });
        assert.equal(res.status, 422, slug);
        assert.deepEqual(res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]), [['slug', code]], slug);
      }
      const b = await server.content(key, { title: 'B' });
      const taken = await server.client.put(`/v1/content/${b.id}`, { key, json: { slug: 'hello-world' } });
      assert.equal(taken.status, 409);
      assert.equal(taken.body.errors[0].field, 'slug');
      assert.equal((await server.client.get(`/v1/content/${b.id}`, { key })).body.data.version, 1, 'nothing changed');
    });

    it('keeps old slugs as aliases, reserved for the item\'s life, and finds an item by any of them', async () => {
      const { key } = await server.account();
      const post = await server.content(key, { title: 'First name' });
      assert.equal(post.slug, 'first-name');
      const renamed = await server.client.put(`/v1/content/${post.id}`, { key, json: { slug: 'second-name' } });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.body.data.slug, 'second-name');
      for (const query of ['slug=first-name', 'slug=second-name', 'slug=first-name&type=blog']) {
        const found = await bySlug(key, query);
        assert.deepEqual(found.data.map((i: { id: string; slug: string }) => [i.id, i.slug]), [[post.id, 'second-name']], query);
        assert.equal(found.pagination.total, 1);
      }
      assert.deepEqual((await bySlug(key, 'slug=first-name&type=manual')).data, []);
      assert.deepEqual((await bySlug(key, 'slug=no-such-slug')).data, []);
      // Reserved: nobody else takes the alias, and a made slug steps over it.
      const other = await server.client.post('/v1/content', { key, json: { title: 'Other', type: 'blog', content: 'x', slug: 'first-name' } });
      assert.equal(other.status, 409);
      assert.equal((await server.content(key, { title: 'First name' })).slug, 'first-name-2');
      // The item may take its own alias back.
      const back = await server.client.put(`/v1/content/${post.id}`, { key, json: { slug: 'first-name' } });
      assert.equal(back.status, 200);
      assert.equal((await bySlug(key, 'slug=second-name')).data[0].slug, 'first-name');
      // Deleting the item frees all its slugs.
      assert.equal((await server.client.delete(`/v1/content/${post.id}`, { key })).status, 204);
      assert.equal((await server.content(key, { title: 'X', slug: 'second-name' })).slug, 'second-name');
      assert.equal((await server.content(key, { title: 'Y', slug: 'first-name' })).slug, 'first-name');
    });

    it('finds a slug in every type without `type`, and keeps slugs to their account', async () => {
      const owner = await server.account();
      const other = await server.account();
      const blog = await server.content(owner.key, { title: 'Pricing', type: 'blog' });
      const manual = await server.content(owner.key, { title: 'Pricing', type: 'manual' });
      await server.content(other.key, { title: 'Pricing' });
      const both = await bySlug(owner.key, 'slug=pricing');
      assert.deepEqual(both.data.map((i: { id: string }) => i.id).sort(), [blog.id, manual.id].sort());
      assert.equal(both.pagination.total, 2);
      assert.deepEqual((await bySlug(owner.key, 'slug=pricing&type=manual')).data.map((i: { id: string }) => i.id), [manual.id]);
      assert.equal((await bySlug(other.key, 'slug=pricing')).data.length, 1);
      // With other filters: a status that does not match finds nothing.
      assert.deepEqual((await bySlug(owner.key, 'slug=pricing&status=published')).data, []);
    });

    it('takes an item\'s slugs along when its type changes, making a new one if the current is taken there', async () => {
      const { key } = await server.account();
      const a = await server.content(key, { title: 'Guide', type: 'blog' });
      const moved = await server.client.put(`/v1/content/${a.id}`, { key, json: { type: 'manual' } });
      assert.equal(moved.body.data.slug, 'guide');
      assert.deepEqual((await bySlug(key, 'slug=guide&type=manual')).data.map((i: { id: string }) => i.id), [a.id]);
      assert.deepEqual((await bySlug(key, 'slug=guide&type=blog')).data, []);
      const b = await server.content(key, { title: 'Guide', type: 'blog' });
      assert.equal(b.slug, 'guide');
      const clash = await server.client.put(`/v1/content/${b.id}`, { key, json: { type: 'manual' } });
      assert.equal(clash.status, 200);
      assert.equal(clash.body.data.slug, 'guide-2');
      const given = await server.client.put(`/v1/content/${b.id}`, { key, json: { type: 'blog', slug: 'guide' } });
      assert.equal(given.status, 200);
      assert.equal(given.body.data.slug, 'guide');
    });

    it('gives an item written before slugs existed one on its next write', async () => {
      const { key, accountId } = await server.account();
      const item = await server.content(key, { title: 'Legacy post' });
      // As the migration leaves an existing item: no slug, none reserved.
      await server.app.store.db.deleteFrom('content_slugs').where('content_id', '=', item.id as string).execute();
      await server.app.store.db.updateTable('content').set({ slug: null }).where('account_id', '=', accountId).where('id', '=', item.id as string).execute();
      const read = await server.client.get(`/v1/content/${item.id}?render=html`, { key });
      assert.equal(read.status, 200);
      assert.equal(read.body.data.slug, null, 'still readable');
      const written = await server.client.put(`/v1/content/${item.id}`, { key, json: { content: 'New body' } });
      assert.equal(written.body.data.slug, 'legacy-post');
      assert.equal((await bySlug(key, 'slug=legacy-post')).data[0].id, item.id);
    });
  });
}
