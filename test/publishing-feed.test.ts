// The Atom feed (CONTRACT.md §19): GET /v1/content/feed.atom answers the 50 most recently published
// items as Atom 1.0 (application/atom+xml), each entry's content the body rendered as the API renders
// it, with a `type` filter, for management and delivery keys, with an ETag honoured by If-None-Match.
// Checked with a real feed parser (@rowanmanning/feed-parser) and a strict XML validator.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { addKey } from './helpers/people.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

/** Well-formed XML with the elements Atom 1.0 (RFC 4287) requires of a feed and of each entry. */
function assertAtom(xml: string): void {
  assert.equal(XMLValidator.validate(xml), true, 'well-formed XML');
  const doc = new XMLParser({ ignoreAttributes: false }).parse(xml) as { feed: Record<string, unknown> };
  assert.equal(doc.feed['@_xmlns'], 'http://www.w3.org/2005/Atom');
  for (const element of ['id', 'title', 'updated']) assert.ok(doc.feed[element] !== undefined, `feed has ${element}`);
  const entries = doc.feed.entry === undefined ? [] : Array.isArray(doc.feed.entry) ? doc.feed.entry : [doc.feed.entry];
  for (const entry of entries as Record<string, unknown>[]) {
    for (const element of ['id', 'title', 'updated', 'content', 'author']) assert.ok(entry[element] !== undefined, `entry has ${element}`);
  }
}

for (const store of testStores()) {
  describe(`Atom feed (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store);
    });
    after(() => server.close());

    it('lists published items newest first, with rendered content, for management and delivery keys', async () => {
      const owner = await server.account();
      const first = await server.content(owner.key, { title: 'First post', status: 'published', content: '# Hello\n\nSome *emphasis*.' });
      await server.content(owner.key, { title: 'A draft', content: 'not yet' });
      const second = await server.content(owner.key, { title: 'Q&A: <tips> & "tricks"', status: 'published', content: 'A [link](https://example.com) and <script>alert(1)</script>' });
      const manual = await server.content(owner.key, { title: 'The manual', type: 'manual', status: 'published', content: '| a | b |\n|---|---|\n| 1 | 2 |' });

      const res = await server.client.get('/v1/content/feed.atom', { key: owner.key });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers['content-type'], 'application/atom+xml; charset=utf-8');
      assertAtom(res.text);
      const feed = parseFeed(res.text);
      assert.equal(feed.meta.type, 'atom');
      assert.equal(feed.meta.version, '1.0');
      assert.equal(feed.title, 'Published content');
      assert.deepEqual(feed.items.map((i) => i.title), ['The manual', 'Q&A: <tips> & "tricks"', 'First post'], 'published only, newest first; titles as plain text');
      const entry = feed.items.find((i) => i.title === 'First post')!;
      assert.equal(entry.id, `${server.app.publicUrl()}/v1/content/${first.id}`);
      const rendered = await server.client.get(`/v1/content/${first.id}?render=html`, { key: owner.key });
      // The parser trims the text; the document holds the rendering as it is.
      assert.equal(entry.content, rendered.body.data.content_html.trim(), 'the API\'s rendering');
      assert.ok(res.text.includes(rendered.body.data.content_html));
      assert.equal(entry.published?.toISOString(), first.published_at);
      assert.equal(entry.authors[0]?.name, 'Owner');
      const risky = feed.items.find((i) => i.id?.endsWith(second.id as string))!;
      assert.doesNotMatch(risky.content ?? '', /<script/);
      assert.match(risky.content ?? '', /rel="noopener noreferrer nofollow"/);

      const manuals = await server.client.get('/v1/content/feed.atom?type=manual', { key: owner.key });
      assertAtom(manuals.text);
      assert.deepEqual(parseFeed(manuals.text).items.map((i) => i.id), [`${server.app.publicUrl()}/v1/content/${manual.id}`]);
      assert.equal((await server.client.get('/v1/content/feed.atom?type=poem', { key: owner.key })).status, 400);

      const delivery = await addKey(server, owner.key, { name: 'Site', kind: 'delivery' });
      const viaDelivery = await server.client.get('/v1/content/feed.atom', { key: delivery.key });
      assert.equal(viaDelivery.status, 200);
      assert.equal(viaDelivery.text, res.text);
      assert.equal(viaDelivery.headers['cache-control'], 'public, max-age=60, stale-while-revalidate=600');
    });

    it('holds the 50 most recently published, and answers 304 while it is unchanged', async () => {
      const owner = await server.account();
      const ids: string[] = [];
      for (let i = 0; i < 52; i++) ids.push((await server.content(owner.key, { title: `Post ${i}`, status: 'published', content: `Body ${i}` })).id as string);
      const res = await server.client.get('/v1/content/feed.atom', { key: owner.key });
      const feed = parseFeed(res.text);
      assert.equal(feed.items.length, 50);
      assert.equal(feed.items[0]!.title, 'Post 51');
      assert.equal(feed.items[49]!.title, 'Post 2');

      const tag = res.headers.etag as string;
      assert.match(tag, /^W\/"/);
      const same = await server.client.get('/v1/content/feed.atom', { key: owner.key, headers: { 'if-none-match': tag } });
      assert.equal(same.status, 304);
      assert.equal(same.text, '');
      await server.client.put(`/v1/content/${ids[51]}`, { key: owner.key, json: { title: 'Post 51, edited' } });
      const changed = await server.client.get('/v1/content/feed.atom', { key: owner.key, headers: { 'if-none-match': tag } });
      assert.equal(changed.status, 200);
      assert.equal(parseFeed(changed.text).items[0]!.title, 'Post 51, edited');
    });

    it('is empty but valid for an account with nothing published', async () => {
      const owner = await server.account();
      await server.content(owner.key, { title: 'Only a draft' });
      const res = await server.client.get('/v1/content/feed.atom', { key: owner.key });
      assertAtom(res.text);
      assert.deepEqual(parseFeed(res.text).items, []);
    });
  });
}
