// Content and media together: `media:` references checked on write (422 invalid_reference, another
// account's id included), used_by kept, deletion refused while in use (409 used_by) unless force,
// render=html resolving to the url (private: a signed link that works), and `media` fields
// (checked, and counted in used_by).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { multipart, png } from './helpers/multipart.js';

for (const store of testStores()) {
  describe(`media references (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store);
      owner = await server.account();
    });
    after(() => server.close());

    const upload = async (key = owner.key, filename = 'shot.png') => {
      const { body, headers } = multipart([{ name: 'file', value: await png(20, 10), filename }]);
      const res = await server.client.post('/v1/media', { key, raw: body, headers });
      assert.equal(res.status, 201, res.text);
      return res.body.data as { id: string; filename: string };
    };

    it('refuses a reference to media the account does not have, another account\'s included', async () => {
      const other = await server.account();
      const theirs = await upload(other.key);
      for (const id of [theirs.id, 'media_01jd2x3m4n5p6q7r8s9t0v1w2x']) {
        const res = await server.client.post('/v1/content', { key: owner.key, json: { title: 'T', type: 'blog', content: `![x](media:${id})` } });
        assert.equal(res.status, 422, res.text);
        assert.deepEqual(res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]), [['content', 'invalid_reference']]);
      }
    });

    it('keeps used_by with each write; deletion is 409 with used_by until force', async () => {
      const media = await upload();
      const item = await server.content(owner.key, { content: `See ![shot](media:${media.id}) and [it](media:${media.id}).` });
      let got = await server.client.get(`/v1/media/${media.id}`, { key: owner.key });
      assert.deepEqual(got.body.data.used_by, [item.id]);
      const refused = await server.client.delete(`/v1/media/${media.id}`, { key: owner.key });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.code, 'conflict');
      assert.deepEqual(refused.body.used_by, [item.id]);
      await server.client.put(`/v1/content/${String(item.id)}`, { key: owner.key, json: { content: 'No picture now.' } });
      got = await server.client.get(`/v1/media/${media.id}`, { key: owner.key });
      assert.deepEqual(got.body.data.used_by, []);
      await server.client.put(`/v1/content/${String(item.id)}`, { key: owner.key, json: { content: `Back: ![s](media:${media.id})` } });
      assert.equal((await server.client.delete(`/v1/media/${media.id}?force=true`, { key: owner.key })).status, 204);
      const second = await server.content(owner.key, { content: 'plain' });
      await server.client.delete(`/v1/content/${String(second.id)}`, { key: owner.key });
    });

    it('render=html turns references into URLs: public media their url, private ones a signed link that works', async () => {
      const open = await upload(owner.key, 'open.png');
      await server.client.put(`/v1/media/${open.id}`, { key: owner.key, json: { public: true } });
      const closed = await upload(owner.key, 'closed.png');
      const item = await server.content(owner.key, { content: `![a](media:${open.id})\n\n![b](media:${closed.id})` });
      const res = await server.client.get(`/v1/content/${String(item.id)}?render=html`, { key: owner.key });
      const html = String(res.body.data.content_html);
      assert.ok(html.includes(`src="${server.baseUrl}/media/${open.id}/open.png"`), html);
      const signed = new RegExp(`src="${server.baseUrl}/media/${closed.id}/closed\\.png\\?expires=(\\d+)&amp;sig=([A-Za-z0-9_-]+)"`).exec(html);
      assert.ok(signed, html);
      const link = `/media/${closed.id}/closed.png?expires=${signed[1]}&sig=${signed[2]}`;
      assert.equal((await server.client.get(link)).status, 200);
      assert.equal((await server.client.get(`/media/${closed.id}/closed.png?expires=${signed[1]}&sig=${signed[2]!.slice(1)}x`)).status, 404);
      assert.equal((await server.client.get(`/media/${closed.id}/closed.png?expires=${Number(signed[1]) + 60}&sig=${signed[2]}`)).status, 404);
    });

    it('checks `media` fields of the content model against the account\'s media', async () => {
      const model = await server.client.put('/v1/content-types/blog', { key: owner.key, json: { fields: [{ name: 'cover', kind: 'media' }] } });
      assert.equal(model.status, 200, model.text);
      const media = await upload();
      const good = await server.client.post('/v1/content', { key: owner.key, json: { title: 'T', type: 'blog', content: 'x', fields: { cover: media.id } } });
      assert.equal(good.status, 201, good.text);
      const bad = await server.client.post('/v1/content', { key: owner.key, json: { title: 'T', type: 'blog', content: 'x', fields: { cover: 'media_01jd2x3m4n5p6q7r8s9t0v1w2x' } } });
      assert.equal(bad.status, 422);
      assert.deepEqual(bad.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]), [['fields.cover', 'invalid_reference']]);
    });

    it('counts media named by typed fields in used_by: deletion is 409 until the field lets go', async () => {
      const model = await server.client.put('/v1/content-types/manual', { key: owner.key, json: { fields: [
        { name: 'datasheet', kind: 'media' },
        { name: 'screenshots', kind: 'list', of: 'media' },
        { name: 'code', kind: 'string' },
      ] } });
      assert.equal(model.status, 200, model.text);
      const [sheet, first, second] = [await upload(), await upload(), await upload()];
      const created = await server.client.post('/v1/content', { key: owner.key, json: {
        title: 'Manual', type: 'manual', content: `Cover: ![c](media:${first.id})`,
        // A string field that only looks like a media id is no reference.
        fields: { datasheet: sheet.id, screenshots: [first.id, second.id], code: 'media_01jd2x3m4n5p6q7r8s9t0v1w2x' },
      } });
      assert.equal(created.status, 201, created.text);
      const id = created.body.data.id as string;
      for (const media of [sheet, first, second]) {
        assert.deepEqual((await server.client.get(`/v1/media/${media.id}`, { key: owner.key })).body.data.used_by, [id]);
      }
      const refused = await server.client.delete(`/v1/media/${sheet.id}`, { key: owner.key });
      assert.equal(refused.status, 409);
      assert.deepEqual(refused.body.used_by, [id]);
      // The field lets go of the datasheet and one screenshot: those are free, the other still held.
      const updated = await server.client.put(`/v1/content/${id}`, { key: owner.key, json: { fields: { datasheet: null, screenshots: [first.id] } } });
      assert.equal(updated.status, 200, updated.text);
      assert.deepEqual((await server.client.get(`/v1/media/${sheet.id}`, { key: owner.key })).body.data.used_by, []);
      assert.deepEqual((await server.client.get(`/v1/media/${second.id}`, { key: owner.key })).body.data.used_by, []);
      assert.deepEqual((await server.client.get(`/v1/media/${first.id}`, { key: owner.key })).body.data.used_by, [id]);
      assert.equal((await server.client.delete(`/v1/media/${sheet.id}`, { key: owner.key })).status, 204);
    });
  });
}
