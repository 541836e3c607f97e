// Text fields are searchable (issue 25 item 5): `q` matches the values of an item's `text`-kind
// fields (and lists of text) as it matches its body, on both stores; the index follows every write
// (create, update, null, type change, restore) and every model change that makes a field text or
// stops it being text (removed, kind changed). Other kinds are not searched.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const MODEL = [
  { name: 'summary', kind: 'text' },
  { name: 'notes', kind: 'list', of: 'text' },
  { name: 'code', kind: 'string' },
];

for (const store of testStores()) {
  describe(`content model search (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store);
    });
    after(() => server.close());

    const ids = async (key: string, q: string): Promise<string[]> => {
      const res = await server.client.get(`/v1/content?q=${encodeURIComponent(q)}`, { key });
      assert.equal(res.status, 200, res.text);
      return res.body.data.map((item: { id: string }) => item.id).sort();
    };
    const create = async (key: string, body: Record<string, unknown>): Promise<string> => {
      const res = await server.client.post('/v1/content', { key, json: { content: 'plain body', ...body } });
      assert.equal(res.status, 201, res.text);
      return res.body.data.id as string;
    };
    const putModel = async (key: string, type: string, fields: unknown[]) => {
      const res = await server.client.put(`/v1/content-types/${type}`, { key, json: { fields } });
      assert.equal(res.status, 200, res.text);
    };

    it('finds items by their text fields, stemmed and by prefix, with the title and body words', async () => {
      const { key } = await server.account();
      await putModel(key, 'manual', MODEL);
      const a = await create(key, { title: 'Admin guide', type: 'manual', fields: { summary: 'Configuring the zeppelin hangars', code: 'walrus' } });
      const b = await create(key, { title: 'User guide', type: 'manual', fields: { notes: ['first note', 'mentions zeppelins twice'] } });
      const c = await create(key, { title: 'Zeppelin history', type: 'blog' });
      assert.deepEqual(await ids(key, 'zeppelin'), [a, b, c].sort());
      assert.deepEqual(await ids(key, 'hangar'), [a]);
      assert.deepEqual(await ids(key, 'hang'), [a], 'the last word matches as a prefix');
      // Words from the title, the body and a text field together.
      assert.deepEqual(await ids(key, 'admin plain hangars'), [a]);
      // A string field is not searched.
      assert.deepEqual(await ids(key, 'walrus'), []);
      // The title tier still ranks the title match first.
      const ranked = await server.client.get('/v1/content?q=zeppelin', { key });
      assert.equal(ranked.body.data[0].id, c);
      // Another account does not see them.
      const other = await server.account();
      assert.deepEqual(await ids(other.key, 'zeppelin'), []);
    });

    it('follows updates, null, type changes and restores', async () => {
      const { key } = await server.account();
      await putModel(key, 'manual', MODEL);
      const id = await create(key, { title: 'Guide', type: 'manual', fields: { summary: 'about aardvarks' } });
      assert.deepEqual(await ids(key, 'aardvark'), [id]);
      const changed = await server.client.put(`/v1/content/${id}`, { key, json: { fields: { summary: 'about bandicoots' } } });
      assert.equal(changed.status, 200, changed.text);
      assert.deepEqual(await ids(key, 'aardvark'), []);
      assert.deepEqual(await ids(key, 'bandicoot'), [id]);
      // An update without fields keeps the text searchable.
      assert.equal((await server.client.put(`/v1/content/${id}`, { key, json: { title: 'Guide 2' } })).status, 200);
      assert.deepEqual(await ids(key, 'bandicoot'), [id]);
      assert.equal((await server.client.put(`/v1/content/${id}`, { key, json: { fields: { summary: null } } })).status, 200);
      assert.deepEqual(await ids(key, 'bandicoot'), []);
      // Restore version 2 (summary: bandicoots).
      const restored = await server.client.post(`/v1/content/${id}/revisions/2/restore`, { key });
      assert.equal(restored.status, 200, restored.text);
      assert.deepEqual(await ids(key, 'bandicoot'), [id]);
      // Becoming a blog (whose model has no fields) drops the text.
      const retyped = await server.client.put(`/v1/content/${id}`, { key, json: { type: 'blog' } });
      assert.equal(retyped.status, 200, retyped.text);
      assert.deepEqual(retyped.body.data.fields, {});
      assert.deepEqual(await ids(key, 'bandicoot'), []);
      assert.equal((await server.client.delete(`/v1/content/${id}`, { key })).status, 204);
    });

    it('follows model changes: a removed text field and kinds changed to and from text', async () => {
      const { key } = await server.account();
      await putModel(key, 'whitepaper', MODEL);
      const id = await create(key, { title: 'Paper', type: 'whitepaper', fields: { summary: 'capybara facts', code: 'quokka', notes: ['an okapi', 'a tapir'] } });
      const plain = await create(key, { title: 'Plain', type: 'whitepaper', fields: { code: 'quokka too' } });
      assert.deepEqual(await ids(key, 'capybara'), [id]);
      assert.deepEqual(await ids(key, 'quokka'), []);
      // code becomes text: its value is searchable now; summary becomes a string: it is not.
      await putModel(key, 'whitepaper', [{ name: 'summary', kind: 'string' }, MODEL[1], { name: 'code', kind: 'text' }]);
      assert.deepEqual(await ids(key, 'quokka'), [id, plain].sort());
      assert.deepEqual(await ids(key, 'capybara'), []);
      assert.deepEqual(await ids(key, 'okapi tapir'), [id], 'the list of text is still searched');
      // A write after the change keeps the text the change made (the same text either way).
      assert.equal((await server.client.put(`/v1/content/${plain}`, { key, json: { title: 'Plain 2' } })).status, 200);
      assert.deepEqual(await ids(key, 'quokka'), [id, plain].sort());
      // Removing the text field removes its words.
      await putModel(key, 'whitepaper', [{ name: 'summary', kind: 'string' }]);
      assert.deepEqual(await ids(key, 'quokka'), []);
      assert.deepEqual(await ids(key, 'okapi'), []);
      const item = await server.client.get(`/v1/content/${id}`, { key });
      assert.deepEqual(item.body.data.fields, { summary: 'capybara facts' });
      // The body is still searched.
      assert.deepEqual(await ids(key, 'plain body paper'), [id]);
    });
  });
}
