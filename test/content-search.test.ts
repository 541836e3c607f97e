// Full-text search of content (CONTRACT.md §17): every word must match, in the title or the body,
// case- and accent-blind, English stems, a prefix on the last word; title matches first, then
// newest; combined with filters, sort and cursors; the index follows every change; other accounts
// never match; a count that stops at 10,000.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { manualClock } from './helpers/limits.js';
import { ContentRepository } from '../src/storage/content-repository.js';

type Item = { id: string; title: string; created_at: string };

function listPage(res: Response) {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.pagination.has_more, res.body.pagination.next_cursor !== null);
  return res.body as { data: Item[]; pagination: { total: number; offset: number | null; has_more: boolean; next_cursor: string | null; total_exact?: boolean } };
}

function parameterErrors(res: Response): string[] {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.code, 'invalid_parameter');
  return res.body.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`).sort();
}

for (const store of testStores()) {
  describe(`content search (${store})`, () => {
    const time = manualClock('2033-01-01T00:00:00.000Z');
    let server: TestServer;
    let account: TestAccount;
    const made: Record<string, Item> = {};
    before(async () => {
      server = await startServer(store, { clock: time.clock });
      account = await server.account();
      const items: [string, string, string, Record<string, string>?][] = [
        ['strategy', 'Q3 strategy', 'Our plan for growth in the third quarter.', { type: 'strategy', status: 'published' }],
        ['cafe', 'Café culture', 'Notes on the résumé of a barista.'],
        ['publishing', 'Publishing guide', 'How we publish manuals.', { type: 'manual' }],
        ['published', 'Release notes', 'Everything published this year about strategies.', { type: 'blog', status: 'published' }],
        ['growth', 'Growth', 'A strategy for the long term.', { type: 'strategy' }],
        ['unrelated', 'Holidays', 'Nothing to see here.'],
        ['planning', 'Planning ahead', 'Strategic planning for beginners.', { type: 'whitepaper' }],
      ];
      for (const [key, title, content, fields] of items) {
        time.advance(1000);
        made[key] = (await server.content(account.key, { title, content, ...fields })) as Item;
      }
    });
    after(() => server.close());

    const search = async (query: string, key = account.key) => listPage(await server.client.get(`/v1/content?${query}`, { key }));
    const found = async (q: string, extra = '') => (await search(`q=${encodeURIComponent(q)}${extra}&limit=100`)).data.map((i) => i.id).sort();
    const idsOf = (...keys: string[]) => keys.map((k) => made[k]!.id).sort();

    it('finds items whose title or body contain every word, in any order', async () => {
      assert.deepEqual(await found('growth quarter'), idsOf('strategy'));
      assert.deepEqual(await found('quarter growth'), idsOf('strategy'));
      assert.deepEqual(await found('plan growth'), idsOf('strategy'));
      assert.deepEqual(await found('holidays'), idsOf('unrelated'));
      assert.deepEqual(await found('holidays growth'), []);
      assert.deepEqual(await found('nonexistentword'), []);
    });

    it('ignores case and accents, in the query and in the text', async () => {
      for (const q of ['cafe', 'CAFÉ', 'café', 'Cafe\u0301', 'resume', 'RÉSUMÉ', 'barista résumé']) {
        assert.deepEqual(await found(q), idsOf('cafe'), q);
      }
    });

    it('stems English words: publishing finds published, strategies finds strategy', async () => {
      assert.deepEqual(await found('publishing guide'), idsOf('publishing'));
      assert.deepEqual(await found('published manuals'), idsOf('publishing'));
      assert.deepEqual(await found('publishing'), idsOf('publishing', 'published'));
      assert.deepEqual(await found('strategies'), idsOf('strategy', 'published', 'growth'));
    });

    it('matches the last word as a prefix, and only the last', async () => {
      assert.deepEqual(await found('strat'), idsOf('strategy', 'published', 'growth', 'planning'));
      assert.deepEqual(await found('planning beginn'), idsOf('planning'));
      assert.deepEqual(await found('begi planning'), []);
      assert.deepEqual(await found('holi'), idsOf('unrelated'));
    });

    it('leaves common English words out, except as the last word’s prefix', async () => {
      assert.deepEqual(await found('the growth of the quarter'), idsOf('strategy'));
      assert.deepEqual(await found('for a growth'), await found('growth'));
      assert.deepEqual(await found('with holi'), idsOf('unrelated'));
    });

    it('ranks items whose title matches first, then newest first', async () => {
      const { data } = await search('q=strategy');
      // Title matches: "Q3 strategy"; body only: growth (newer), published (older).
      assert.deepEqual(data.map((i) => i.id), [made.strategy!.id, made.growth!.id, made.published!.id]);
      const planning = await search('q=plan');
      assert.deepEqual(planning.data.map((i) => i.id), [made.planning!.id, made.strategy!.id]);
    });

    it('combines with filters, sort and cursors, with exact totals', async () => {
      assert.deepEqual(await found('strategy', '&type=strategy'), idsOf('strategy', 'growth'));
      assert.deepEqual(await found('strategy', '&status=published'), idsOf('strategy', 'published'));
      assert.deepEqual(await found('strategy', '&type=strategy&status=draft'), idsOf('growth'));
      const byTitle = await search('q=strat&sort=title');
      assert.deepEqual(byTitle.data.map((i) => i.title), ['Growth', 'Planning ahead', 'Q3 strategy', 'Release notes']);
      assert.equal(byTitle.pagination.total, 4);
      assert.equal(byTitle.pagination.total_exact, undefined);
      // Page by one through the relevance order.
      const all = (await search('q=strat&limit=100')).data.map((i) => i.id);
      const seen: string[] = [];
      let page = await search('q=strat&limit=1');
      for (;;) {
        seen.push(...page.data.map((i) => i.id));
        assert.equal(page.pagination.total, 4);
        if (!page.pagination.next_cursor) break;
        page = await search(`cursor=${encodeURIComponent(page.pagination.next_cursor)}&limit=1`);
        assert.equal(page.pagination.offset, null);
      }
      assert.deepEqual(seen, all);
      assert.equal(seen.length, 4);
    });

    it('keeps the index in step with every change, in the change’s transaction', async () => {
      const item = (await server.content(account.key, { title: 'Zeppelin', content: 'Airship history.' })) as Item;
      assert.deepEqual(await found('zeppelin airship'), [item.id]);
      await server.client.put(`/v1/content/${item.id}`, { key: account.key, json: { title: 'Blimp' } });
      assert.deepEqual(await found('zeppelin'), []);
      assert.deepEqual(await found('blimp airship'), [item.id]);
      await server.client.put(`/v1/content/${item.id}`, { key: account.key, json: { content: 'Balloon travel.' } });
      assert.deepEqual(await found('airship'), []);
      assert.deepEqual(await found('blimp balloon'), [item.id]);
      // Status changes leave the text alone.
      await server.client.post(`/v1/content/${item.id}/archive`, { key: account.key });
      assert.deepEqual(await found('blimp', '&status=archived'), [item.id]);
      assert.equal((await server.client.delete(`/v1/content/${item.id}`, { key: account.key })).status, 204);
      assert.deepEqual(await found('blimp'), []);
    });

    it('never finds another account’s items', async () => {
      const other = await server.account();
      await server.content(other.key, { title: 'Q3 strategy', content: 'growth quarter' });
      assert.deepEqual(await found('growth quarter'), idsOf('strategy'));
      const theirs = await search('q=growth+quarter', other.key);
      assert.equal(theirs.pagination.total, 1);
      assert.notEqual(theirs.data[0]!.id, made.strategy!.id);
    });

    it('validates q: 1 to 200 characters with a letter or digit', async () => {
      const list = (query: string) => server.client.get(`/v1/content?${query}`, { key: account.key });
      assert.deepEqual(parameterErrors(await list('q=')), ['q:invalid_value']);
      assert.deepEqual(parameterErrors(await list(`q=${'a'.repeat(201)}`)), ['q:too_long']);
      assert.deepEqual(parameterErrors(await list(`q=${encodeURIComponent('!!! ---')}`)), ['q:invalid_value']);
      assert.deepEqual(parameterErrors(await list('q=a&q=b')), ['q:invalid_value']);
      assert.equal((await list(`q=${'é'.repeat(200)}`)).status, 200);
      // Search syntax of either store is only text.
      for (const q of ['"unbalanced', 'a AND OR NOT', "x'):* | !", 'title:secret', 'NEAR(a b)', '*', 'growth*']) {
        assert.equal((await list(`q=${encodeURIComponent(q)}`)).status, q === '*' ? 400 : 200, q);
      }
    });

    it('indexes a 1 MiB body of distinct words without failing', async () => {
      const words: string[] = [];
      for (let i = 0, size = 0; size < 1024 * 1024 - 20; i++) {
        const word = `w${i.toString(36)}`;
        words.push(word);
        size += word.length + 1;
      }
      const res = await server.client.post('/v1/content', { key: account.key, json: { title: 'Big', type: 'manual', content: words.join(' ').slice(0, 1024 * 1024) } });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(await found('big w0 w1'), [res.body.data.id]);
    });
  });

  describe(`search totals beyond 10,000 (${store})`, () => {
    let server: TestServer;
    let account: TestAccount;
    /** A title match created now (2026), before the items loaded below (2034): older than all of them by date and by creation order. */
    let old: string;
    before(async () => {
      server = await startServer(store);
      account = await server.account();
      old = (await server.client.post('/v1/content', { key: account.key, json: { title: 'Shared notes', type: 'manual', content: 'x' } })).body.data.id as string;
      // Bulk-loaded through the storage layer (creating 10,050 items over HTTPS would take minutes).
      const repo = new ContentRepository(server.app.store.dialect);
      const start = Date.parse('2034-01-01T00:00:00.000Z');
      await server.app.store.transaction(async (tx) => {
        for (let batch = 0; batch < 10_050; batch += 500) {
          const rows = Array.from({ length: Math.min(500, 10_050 - batch) }, (_, j) => {
            const i = batch + j;
            const at = new Date(start + i).toISOString();
            return {
              id: `content_${String(i).padStart(26, '0')}`,
              title: i % 2 ? `Common word ${i}` : `Rare gem ${i}`,
              type: i % 2 ? 'blog' : 'manual',
              content: 'Shared body text.',
              status: 'draft',
              author: account.userId,
              created_at: at,
              updated_at: at,
              published_at: null,
              version: 1,
            };
          });
          await repo.insertMany(tx, account.accountId, rows);
        }
      });
    });
    after(() => server.close());

    const search = async (query: string) => listPage(await server.client.get(`/v1/content?${query}`, { key: account.key }));

    it('stops counting at 10,000 and says so with total_exact: false', async () => {
      const page = await search('q=shared');
      assert.equal(page.pagination.total, 10_000);
      assert.equal(page.pagination.total_exact, false);
      assert.equal(page.pagination.has_more, true);
      const deep = await search('q=shared&offset=10046');
      assert.equal(deep.data.length, 5);
      assert.equal(deep.pagination.has_more, false);
      assert.equal(deep.pagination.next_cursor, null);
    });

    it('counts exactly below the cap, also with filters', async () => {
      for (const [query, total] of [['q=rare', 5025], ['q=shared&type=blog', 5025], ['q=common+word&type=manual', 0]] as const) {
        const page = await search(query);
        assert.equal(page.pagination.total, total, query);
        assert.ok(!('total_exact' in page.pagination), query);
      }
      // Every "rare" match is a title match: the page is the newest of them, and its cursor goes on from there.
      const seeded = (i: number) => `content_${String(i).padStart(26, '0')}`;
      const rare = await search('q=rare&limit=3');
      assert.deepEqual(rare.data.map((i) => i.id), [seeded(10_048), seeded(10_046), seeded(10_044)]);
      const next = await search(`cursor=${rare.pagination.next_cursor}&limit=3`);
      assert.deepEqual(next.data.map((i) => i.id), [seeded(10_042), seeded(10_040), seeded(10_038)]);
      // Without q the total is exact at any size.
      const all = await search('limit=1');
      assert.equal(all.pagination.total, 10_051);
      assert.ok(!('total_exact' in all.pagination));
    });

    // Runs last: it adds items to the account.
    it('ranks the newest 1,000 matches by relevance and the older ones newest first, cursors keeping the window', async () => {
      // The oldest item is a title match: outside the window of the newest 1,000 matches, it
      // follows every one of them instead of leading.
      const seeded = (i: number) => `content_${String(i).padStart(26, '0')}`;
      const first = await search('q=shared&limit=3');
      assert.deepEqual(first.data.map((i) => i.id), [seeded(10_049), seeded(10_048), seeded(10_047)]);
      const boundary = await search('q=shared&offset=999&limit=2');
      assert.deepEqual(boundary.data.map((i) => i.id), [seeded(9_050), seeded(9_049)]);
      const last = await search('q=shared&offset=10050&limit=5');
      assert.deepEqual(last.data.map((i) => i.id), [old]);

      // Within the window relevance leads: a newer title match comes first.
      const inWindow = seeded(9_500);
      assert.equal((await server.client.put(`/v1/content/${inWindow}`, { key: account.key, json: { title: 'Shared title' } })).status, 200);
      assert.deepEqual((await search('q=shared&limit=2')).data.map((i) => i.id), [inWindow, seeded(10_049)]);

      // Paging by cursor across the window's edge neither skips nor repeats while newer matches
      // arrive: they would push the window's oldest items out of a window found again, but the
      // cursor keeps the first page's window (the new items rank above it and are not seen).
      const expected = [inWindow, ...Array.from({ length: 1_300 }, (_, i) => seeded(10_049 - i)).filter((id) => id !== inWindow)].slice(0, 1_300);
      const repo = new ContentRepository(server.app.store.dialect);
      const seen: string[] = [];
      let page = await search('q=shared&limit=250');
      for (let n = 0; seen.length < 1_300; n++) {
        seen.push(...page.data.map((i) => i.id));
        const newer = Array.from({ length: 100 }, (_, j) => {
          const at = new Date(Date.parse('2035-01-01T00:00:00.000Z') + n * 100 + j).toISOString();
          return { id: `content_1${String(n * 100 + j).padStart(25, '0')}`, title: 'News', type: 'blog', content: 'Shared body text.', status: 'draft', author: account.userId, created_at: at, updated_at: at, published_at: null, version: 1 };
        });
        await server.app.store.transaction((tx) => repo.insertMany(tx, account.accountId, newer));
        page = await search(`cursor=${page.pagination.next_cursor}&limit=250`);
      }
      assert.deepEqual(seen.slice(0, 1_300), expected);
    });
  });
}
