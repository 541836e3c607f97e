// Content model (CONTRACT.md §20): GET/PUT /v1/content-types/{type} with versioned definitions,
// If-Match, one content_type.updated event per change, admins only; items' `fields` validated
// against it with every failure named fields.<name>, references checked, defaults on create, merge
// and null on update; fields in events, revisions and restore.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { addKey, addUser } from './helpers/people.js';

export const MANUAL = [
  { name: 'product', kind: 'enum', values: ['cms', 'crm'], required: true, default: 'cms' },
  { name: 'version', kind: 'string', indexed: true, max_length: 20 },
  { name: 'pages', kind: 'integer', min: 1, max: 10000, indexed: true },
  { name: 'released', kind: 'date', indexed: true },
  { name: 'tags', kind: 'list', of: 'string' },
  { name: 'summary', kind: 'text' },
  { name: 'related', kind: 'reference', types: ['blog'] },
];

for (const store of testStores()) {
  describe(`content model (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store);
    });
    after(() => server.close());

    const put = (key: string, type: string, fields: unknown[], headers: Record<string, string> = {}) =>
      server.client.put(`/v1/content-types/${type}`, { key, json: { fields }, headers });
    const codes = (res: { body: { errors?: { field: string; code: string }[] } }) => (res.body.errors ?? []).map((e) => [e.field, e.code]);

    it('answers the empty model, stores a versioned one with If-Match, one event per change', async () => {
      const { key } = await server.account();
      const empty = await server.client.get('/v1/content-types/manual', { key });
      assert.equal(empty.status, 200, empty.text);
      assert.deepEqual(empty.body.data, { type: 'manual', fields: [], version: 0, updated_at: null });
      assert.equal(empty.headers.etag, '"0"');
      const all = await server.client.get('/v1/content-types', { key });
      assert.deepEqual(all.body.data.map((m: { type: string }) => m.type), ['blog', 'manual', 'whitepaper', 'strategy']);

      const first = await put(key, 'manual', MANUAL, { 'if-match': '"0"' });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.data.version, 1);
      assert.deepEqual(first.body.data.fields, MANUAL);
      assert.match(first.body.data.updated_at, /Z$/);
      const stale = await put(key, 'manual', MANUAL.slice(0, 3), { 'if-match': '"0"' });
      assert.equal(stale.status, 412, stale.text);
      // The same model again changes nothing: no new version, no event.
      assert.equal((await put(key, 'manual', MANUAL)).body.data.version, 1);
      const read = await server.client.get('/v1/content-types/manual', { key });
      assert.equal(read.body.data.version, 1);
      assert.equal(read.headers.etag, '"1"');
      const events = await server.client.get('/v1/events?limit=100', { key });
      const updates = events.body.data.filter((e: { type: string }) => e.type === 'content_type.updated');
      assert.equal(updates.length, 1);
      assert.deepEqual(updates[0].data.fields, MANUAL);
      assert.equal((await server.client.get('/v1/content-types/nope', { key })).status, 404);
    });

    it('lets only admins and owners change a model (403 before the body is read)', async () => {
      const { key } = await server.account();
      const editor = await addUser(server, key, 'editor');
      const { key: editorKey } = await addKey(server, key, { user_id: editor.id });
      const refused = await server.client.put('/v1/content-types/blog', { key: editorKey, json: { fields: 'nonsense' } });
      assert.equal(refused.status, 403, refused.text);
      assert.equal((await server.client.get('/v1/content-types/blog', { key: editorKey })).status, 200);
      const admin = await addUser(server, key, 'admin');
      const { key: adminKey } = await addKey(server, key, { user_id: admin.id });
      assert.equal((await put(adminKey, 'blog', [{ name: 'subtitle', kind: 'string' }])).status, 200);
    });

    it('refuses bad definitions, each named after the definition', async () => {
      const { key } = await server.account();
      const cases: [unknown[], string[][]][] = [
        [[{ name: 'a', kind: 'color' }], [['fields[0].kind', 'invalid_value']]],
        [Array.from({ length: 51 }, (_, i) => ({ name: `f${i}`, kind: 'string' })), [['fields', 'too_long']]],
        [[{ name: 'a', kind: 'string' }, { name: 'a', kind: 'integer' }], [['fields[1].name', 'invalid_value']]],
        [[{ name: 'a', kind: 'integer', max: 5, default: 7 }], [['fields[0].default', 'out_of_range']]],
        [[{ name: 'a', kind: 'enum', values: [] }], [['fields[0].values', 'too_short']]],
        [[{ name: 'a', kind: 'enum' }], [['fields[0].values', 'required']]],
        [[{ name: 'Bad', kind: 'string' }], [['fields[0].name', 'invalid_format']]],
        [[{ name: 'a', kind: 'list' }], [['fields[0].of', 'required']]],
        [[{ name: 'a', kind: 'integer', values: ['x'] }], [['fields[0].values', 'invalid_value']]],
        [[{ name: 'a', kind: 'text', indexed: true }], [['fields[0].indexed', 'invalid_value']]],
        // A manual that needs a manual: no first manual could be written.
        [[{ name: 'parent', kind: 'reference', types: ['manual'], required: true }], [['fields[0].types', 'invalid_value']]],
      ];
      for (const [fields, expected] of cases) {
        const res = await put(key, 'manual', fields);
        assert.equal(res.status, 422, `${JSON.stringify(fields).slice(0, 80)}: ${res.text}`);
        assert.deepEqual(codes(res), expected, JSON.stringify(fields).slice(0, 80));
      }
      // A cycle through two types: blog needs a manual, then manual needing a blog is refused.
      assert.equal((await put(key, 'blog', [{ name: 'manual', kind: 'reference', types: ['manual'], required: true }])).status, 200);
      const cycle = await put(key, 'manual', [{ name: 'post', kind: 'reference', types: ['blog'], required: true }]);
      assert.deepEqual(codes(cycle), [['fields[0].types', 'invalid_value']]);
      assert.equal((await server.client.get('/v1/content-types/manual', { key })).body.data.version, 0);
    });

    it('validates item fields with the contract codes, fills defaults, merges updates, removes with null', async () => {
      const { key } = await server.account();
      assert.equal((await put(key, 'manual', MANUAL)).status, 200);
      const post = await server.content(key, { title: 'A post' });
      const created = await server.client.post('/v1/content', {
        key,
        json: { title: 'Guide', type: 'manual', content: 'x', fields: { version: '2.1', pages: 120, released: '2026-10-01', tags: ['a', 'b'], summary: 'line 1\nline 2', related: post.id } },
      });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.body.data.fields, { product: 'cms', version: '2.1', pages: 120, released: '2026-10-01', tags: ['a', 'b'], summary: 'line 1\nline 2', related: post.id });

      const bad = await server.client.post('/v1/content', {
        key,
        json: {
          title: 'Bad', type: 'manual', content: 'x',
          fields: { product: 'erp', version: 'x'.repeat(21), pages: 0, released: '2026-13-01', tags: ['ok', 3], summary: 'y'.repeat(1024 * 1024), related: 'content_01jd2x3m4n5p6q7r8s9t0v1w2x', colour: 'red' },
        },
      });
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(new Map(codes(bad) as [string, string][]), new Map([
        ['fields.colour', 'unknown_field'],
        ['fields.product', 'invalid_value'],
        ['fields.version', 'too_long'],
        ['fields.pages', 'out_of_range'],
        ['fields.released', 'invalid_format'],
        ['fields.tags[1]', 'invalid_type'],
        ['fields.summary', 'too_long'],
      ]));
      const wrongType = await server.client.post('/v1/content', { key, json: { title: 'W', type: 'manual', content: 'x', fields: { pages: 1.5, related: created.body.data.id } } });
      assert.deepEqual(codes(wrongType), [['fields.pages', 'invalid_type']]);
      const missing = await server.client.post('/v1/content', { key, json: { title: 'W', type: 'manual', content: 'x', fields: { related: 'content_01jd2x3m4n5p6q7r8s9t0v1w2x' } } });
      assert.deepEqual(codes(missing), [['fields.related', 'invalid_reference']]);
      const otherType = await server.client.post('/v1/content', { key, json: { title: 'W', type: 'manual', content: 'x', fields: { related: created.body.data.id } } });
      assert.deepEqual(codes(otherType), [['fields.related', 'invalid_reference']]);
      let deep: unknown = 1;
      for (let i = 0; i < 1000; i++) deep = [deep];
      // Refused before it is parsed (JSON deeper than 64 levels: docs/api.md, issue 21's F-1); 60 deep reaches the field's rule.
      const nested = await server.client.post('/v1/content', { key, json: { title: 'N', type: 'manual', content: 'x', fields: { tags: deep } } });
      assert.equal(nested.status, 400, nested.text);
      assert.equal(nested.body.code, 'invalid_json');
      let within: unknown = 1;
      for (let i = 0; i < 60; i++) within = [within];
      const nestedWithin = await server.client.post('/v1/content', { key, json: { title: 'N', type: 'manual', content: 'x', fields: { tags: within } } });
      assert.equal(nestedWithin.status, 422, nestedWithin.text);
      assert.equal(codes(nestedWithin)[0]![0], 'fields.tags[0]');

      const id = created.body.data.id;
      const merged = await server.client.put(`/v1/content/${id}`, { key, json: { fields: { pages: 130, tags: null } } });
      assert.equal(merged.status, 200, merged.text);
      assert.deepEqual(merged.body.data.fields, { product: 'cms', version: '2.1', pages: 130, released: '2026-10-01', summary: 'line 1\nline 2', related: post.id });
      const required = await server.client.put(`/v1/content/${id}`, { key, json: { fields: { product: null } } });
      assert.deepEqual(codes(required), [['fields.product', 'required']]);
      // Lists and single reads carry fields; a type without a model has {}.
      const listed = await server.client.get('/v1/content?type=manual', { key });
      assert.deepEqual(listed.body.data[0].fields, merged.body.data.fields);
      assert.deepEqual((await server.client.get(`/v1/content/${post.id}`, { key })).body.data.fields, {});
      // Events carry them; revisions keep each version's, and a restore brings them back.
      const events = await server.client.get('/v1/events?limit=100', { key });
      const updated = events.body.data.filter((e: { type: string; data: { id: string } }) => e.type === 'content.updated' && e.data.id === id);
      assert.equal(updated.at(-1).data.fields.pages, 130);
      const v1 = await server.client.get(`/v1/content/${id}/revisions/1`, { key });
      assert.deepEqual(v1.body.data.fields.tags, ['a', 'b']);
      const restored = await server.client.post(`/v1/content/${id}/revisions/1/restore`, { key });
      assert.equal(restored.status, 200, restored.text);
      assert.deepEqual(restored.body.data.fields.tags, ['a', 'b']);
      assert.equal(restored.body.data.fields.pages, 120);
    });

    it('replays an idempotent create with the same fields, one item', async () => {
      const { key } = await server.account();
      await put(key, 'strategy', [{ name: 'quarter', kind: 'enum', values: ['Q1', 'Q2', 'Q3', 'Q4'] }, { name: 'owner', kind: 'string' }]);
      const json = { title: 'Plan', type: 'strategy', content: 'x', fields: { quarter: 'Q3', owner: 'Ana' } };
      const headers = { 'idempotency-key': `k-${Date.now()}` };
      const first = await server.client.post('/v1/content', { key, json, headers });
      const again = await server.client.post('/v1/content', { key, json, headers });
      assert.equal(first.status, 201);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.deepEqual(again.body.data, first.body.data);
      assert.equal((await server.client.get('/v1/content?type=strategy', { key })).body.pagination.total, 1);
    });
    it('checks model changes against the items: 409 with counts; a removed field leaves the items, not their revisions', async () => {
      const { key } = await server.account();
      const base = [{ name: 'owner', kind: 'string' }, { name: 'pages', kind: 'integer' }, { name: 'level', kind: 'string' }];
      assert.equal((await put(key, 'whitepaper', base)).status, 200);
      const a = await server.content(key, { title: 'A', type: 'whitepaper', fields: { owner: 'Ana', pages: 12, level: 'intro' } });
      await server.content(key, { title: 'B', type: 'whitepaper', fields: { pages: 300, level: 'deep' } });
      await server.content(key, { title: 'C', type: 'whitepaper', fields: { level: 'x'.repeat(30) } });
      // Requiring owner without a default: two items lack it. Narrowing pages: one holds 300. Changing kind: three strings are not integers.
      const refused = await put(key, 'whitepaper', [
        { name: 'owner', kind: 'string', required: true },
        { name: 'pages', kind: 'integer', max: 100 },
        { name: 'level', kind: 'integer' },
      ]);
      assert.equal(refused.status, 409, refused.text);
      assert.equal(refused.body.code, 'conflict');
      assert.deepEqual(refused.body.errors.map((e: { field: string; items: number }) => [e.field, e.items]), [['fields.owner', 2], ['fields.pages', 1], ['fields.level', 3]]);
      // With a default, requiring is fine (the default fills new items, not existing ones); a kind change that fits is fine.
      const fine = await put(key, 'whitepaper', [{ name: 'owner', kind: 'string', required: true, default: 'nobody' }, { name: 'pages', kind: 'number', max: 1000 }, { name: 'level', kind: 'string', max_length: 30 }]);
      assert.equal(fine.status, 200, fine.text);
      const c = await server.content(key, { title: 'D', type: 'whitepaper' });
      assert.equal((c.fields as { owner: string }).owner, 'nobody');
      // Removing a field drops it from the items without a new version or event; the revision keeps it.
      const before = (await server.client.get('/v1/events?limit=100', { key })).body.data.length;
      assert.equal((await put(key, 'whitepaper', [{ name: 'owner', kind: 'string' }, { name: 'pages', kind: 'number' }])).status, 200);
      const after = await server.client.get(`/v1/content/${a.id}`, { key });
      assert.deepEqual(after.body.data.fields, { owner: 'Ana', pages: 12 });
      assert.equal(after.body.data.version, 1);
      const events = (await server.client.get('/v1/events?limit=100', { key })).body.data;
      assert.equal(events.length, before + 1);
      assert.equal(events.at(-1).type, 'content_type.updated');
      assert.equal((await server.client.get(`/v1/content/${a.id}/revisions/1`, { key })).body.data.fields.level, 'intro');
    });

    it('serves the JSON Schema of a type as read', async () => {
      const { key } = await server.account();
      await put(key, 'manual', MANUAL);
      const res = await server.client.get('/v1/content-types/manual/schema', { key });
      assert.equal(res.status, 200, res.text);
      assert.match(res.headers['content-type'] as string, /^application\/schema\+json/);
      const schema = JSON.parse(res.text);
      assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
      assert.equal(schema.data, undefined);
      const fields = schema.properties.fields;
      assert.deepEqual(fields.required, ['product']);
      assert.deepEqual(fields.properties.product.enum, ['cms', 'crm']);
      assert.equal(fields.properties.pages.type, 'integer');
      assert.equal(fields.properties.tags.type, 'array');
      assert.equal((await server.client.get('/v1/content-types/nope/schema', { key })).status, 404);
    });
  });
}
