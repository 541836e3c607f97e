// Sorting and cursor paging of content lists (CONTRACT.md §17): every sort field in both directions
// and in combination, items without published_at last either way, titles case- and accent-blind,
// cursors that carry their list, refuse other lists and other accounts, and never skip or repeat
// an item that exists throughout while others are created and deleted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { manualClock } from './helpers/limits.js';

type Item = Record<string, unknown> & { id: string; title: string; published_at: string | null };

/** The documented title order: case and accents folded, compared code point by code point. */
const fold = (title: string) => title.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();

/** The contract's order for `sort`, written out independently of the service. */
function sorted(items: Item[], sort: string): Item[] {
  const keys = sort.split(',').map((part) => ({ field: part.replace(/^-/, ''), desc: part.startsWith('-') }));
  return [...items].sort((a, b) => {
    for (const { field, desc } of keys) {
      const va = field === 'title' ? fold(a.title) : (a[field] as string | null);
      const vb = field === 'title' ? fold(b.title) : (b[field] as string | null);
      // Without published_at: after all others, whatever the direction.
      if (va === null || vb === null) {
        if (va === vb) continue;
        return va === null ? 1 : -1;
      }
      if (va !== vb) return (va < vb ? -1 : 1) * (desc ? -1 : 1);
    }
    return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
  });
}

const ids = (items: { id: unknown }[]) => items.map((i) => i.id);

function listPage(res: Response) {
  assert.equal(res.status, 200, res.text);
  const { pagination } = res.body;
  assert.equal(pagination.has_more, pagination.next_cursor !== null);
  return res.body as { data: Item[]; pagination: { total: number; limit: number; offset: number | null; has_more: boolean; next_cursor: string | null } };
}

function parameterErrors(res: Response): string[] {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.code, 'invalid_parameter');
  return res.body.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`).sort();
}

const SORTS = [
  'created_at', '-created_at', 'updated_at', '-updated_at', 'published_at', '-published_at', 'title', '-title',
  '-published_at,title', 'published_at,-title', 'title,-created_at', '-updated_at,published_at', 'title,published_at,updated_at',
];

for (const store of testStores()) {
  describe(`content sort and cursors (${store})`, () => {
    const time = manualClock('2031-01-01T00:00:00.000Z');
    let server: TestServer;
    let account: TestAccount;
    let items: Item[];
    before(async () => {
      server = await startServer(store, { clock: time.clock });
      account = await server.account();
      // Titles that sort differently by bytes and by the folded key; ties of every key.
      const titles = ['banana', 'Apple', 'éclair', 'Zebra', 'apple', 'Éclair two', 'cherry', 'Same', 'same', 'delta', 'Echo', 'zulu'];
      const created: Item[] = [];
      for (const [i, title] of titles.entries()) {
        if (i % 3 !== 2) time.advance(1); // every third item shares its predecessor's created_at
        created.push((await server.content(account.key, { title, status: i % 3 === 0 ? 'published' : 'draft' })) as Item);
      }
      // Publish some drafts and touch others later, so updated_at and published_at tell another story.
      for (const [i, item] of created.entries()) {
        if (i % 4 === 1) {
          time.advance(10);
          const res = await server.client.put(`/v1/content/${item.id}`, { key: account.key, json: { status: 'published' } });
          assert.equal(res.status, 200);
        } else if (i % 5 === 2) {
          time.advance(10);
          assert.equal((await server.client.put(`/v1/content/${item.id}`, { key: account.key, json: { content: 'changed' } })).status, 200);
        }
      }
      items = [];
      for (const item of created) items.push((await server.client.get(`/v1/content/${item.id}`, { key: account.key })).body.data);
      assert.ok(items.some((i) => i.published_at === null) && items.some((i) => i.published_at !== null));
    });
    after(() => server.close());

    const list = (query: string, key = account.key) => server.client.get(`/v1/content?${query}`, { key });

    async function byCursor(first: string, limit: number): Promise<Item[]> {
      const seen: Item[] = [];
      let res = await list(`${first}${first ? '&' : ''}limit=${limit}`);
      for (let pages = 0; ; pages++) {
        const p = listPage(res);
        assert.equal(p.pagination.total, items.length);
        seen.push(...p.data);
        if (!p.pagination.next_cursor) return seen;
        assert.ok(pages < 20, 'next_cursor never became null');
        res = await list(`cursor=${encodeURIComponent(p.pagination.next_cursor)}&limit=${limit}`);
        assert.equal(listPage(res).pagination.offset, null);
      }
    }

    for (const sort of SORTS) {
      it(`sort=${sort}: in the contract's order by offset and by cursor`, async () => {
        const expected = ids(sorted(items, sort));
        const all = listPage(await list(`sort=${sort}&limit=100`));
        assert.deepEqual(ids(all.data), expected);
        assert.equal(all.pagination.offset, 0);
        assert.equal(all.pagination.next_cursor, null);
        assert.deepEqual(ids(await byCursor(`sort=${sort}`, 5)), expected);
        // Offset pages agree, and their cursors continue where they end.
        const second = listPage(await list(`sort=${sort}&limit=4&offset=4`));
        assert.deepEqual(ids(second.data), expected.slice(4, 8));
        const next = listPage(await list(`cursor=${encodeURIComponent(second.pagination.next_cursor!)}&limit=4`));
        assert.deepEqual(ids(next.data), expected.slice(8, 12));
      });
    }

    it('puts items without published_at last in both directions, ordered among themselves by the other keys', async () => {
      const undated = items.filter((i) => i.published_at === null);
      for (const sort of ['published_at', '-published_at']) {
        const listed = listPage(await list(`sort=${sort}&limit=100`)).data;
        assert.deepEqual(ids(listed.slice(-undated.length)), ids(sorted(undated, '-created_at')));
      }
      const listed = listPage(await list('sort=published_at,title&limit=100')).data;
      assert.deepEqual(ids(listed.slice(-undated.length)), ids(sorted(undated, 'title')));
    });

    it('orders titles without regard to case or accents, ties by id descending', async () => {
      const listed = listPage(await list('sort=title&limit=100')).data.map((i) => i.title);
      assert.deepEqual(listed.slice(0, 4).map(fold), ['apple', 'apple', 'banana', 'cherry']);
      assert.ok(listed.indexOf('Echo') < listed.indexOf('éclair') && listed.indexOf('éclair') < listed.indexOf('Éclair two'));
    });

    it('uses -created_at by default, and lets limit change from page to page', async () => {
      const expected = ids(sorted(items, '-created_at'));
      const first = listPage(await list('limit=2'));
      assert.deepEqual(ids(first.data), expected.slice(0, 2));
      const second = listPage(await list(`cursor=${encodeURIComponent(first.pagination.next_cursor!)}&limit=7`));
      assert.deepEqual(ids(second.data), expected.slice(2, 9));
      assert.equal(second.pagination.limit, 7);
      const third = listPage(await list(`cursor=${encodeURIComponent(second.pagination.next_cursor!)}`));
      assert.deepEqual(ids(third.data), expected.slice(9));
      assert.equal(third.pagination.next_cursor, null);
      assert.equal(third.pagination.has_more, false);
    });

    it('carries filters and sort in the cursor: they may be repeated unchanged or left out, never changed', async () => {
      const drafts = ids(sorted(items.filter((i) => i.status === 'draft'), 'title'));
      const first = listPage(await list('status=draft&sort=title&limit=2'));
      const cursor = encodeURIComponent(first.pagination.next_cursor!);
      assert.equal(first.pagination.total, drafts.length);
      assert.deepEqual(ids(listPage(await list(`cursor=${cursor}&limit=2`)).data), drafts.slice(2, 4));
      assert.deepEqual(ids(listPage(await list(`cursor=${cursor}&limit=2&status=draft&sort=title`)).data), drafts.slice(2, 4));
      assert.deepEqual(parameterErrors(await list(`cursor=${cursor}&status=published`)), ['status:invalid_value']);
      assert.deepEqual(parameterErrors(await list(`cursor=${cursor}&type=blog`)), ['type:invalid_value']);
      assert.deepEqual(parameterErrors(await list(`cursor=${cursor}&sort=-title`)), ['sort:invalid_value']);
      assert.deepEqual(parameterErrors(await list(`cursor=${cursor}&q=apple`)), ['q:invalid_value']);
      // The default order named explicitly is the same order.
      const plain = encodeURIComponent(listPage(await list('limit=2')).pagination.next_cursor!);
      assert.equal((await list(`cursor=${plain}&sort=-created_at`)).status, 200);
      assert.deepEqual(parameterErrors(await list(`cursor=${plain}&sort=created_at`)), ['sort:invalid_value']);
    });

    it('refuses a cursor with any offset, even 0', async () => {
      const cursor = encodeURIComponent(listPage(await list('limit=2')).pagination.next_cursor!);
      assert.deepEqual(parameterErrors(await list(`cursor=${cursor}&offset=0`)), ['offset:invalid_value']);
      assert.deepEqual(parameterErrors(await list(`cursor=${cursor}&offset=3`)), ['offset:invalid_value']);
    });

    it('refuses malformed and tampered cursors, and another account’s, alike and without a 500', async () => {
      const good = listPage(await list('sort=title&limit=2')).pagination.next_cursor!;
      const body = JSON.parse(Buffer.from(good, 'base64url').toString('utf8')) as Record<string, unknown>;
      const forge = (changes: Record<string, unknown>) => Buffer.from(JSON.stringify({ ...body, ...changes })).toString('base64url');
      const bad = [
        'abc',
        'e30',
        Buffer.from('not json').toString('base64url'),
        forge({ k: [1] }),
        forge({ k: [] }),
        forge({ k: ['a', 'b'] }),
        forge({ i: "content_x' OR '1'='1" }),
        forge({ o: 'password' }),
        forge({ o: 'created_at', k: ["2031-01-01' OR 1=1 --"] }),
        forge({ t: 'novel' }),
        forge({ v: 2 }),
        good.slice(0, -3),
      ];
      const other = await server.account();
      const theirs = listPage(await list('sort=title&limit=2', other.key));
      assert.equal(theirs.pagination.next_cursor, null);
      await server.content(other.key, { title: 'Theirs 1' });
      await server.content(other.key, { title: 'Theirs 2' });
      const foreign = listPage(await list('sort=title&limit=1', other.key)).pagination.next_cursor!;
      const answers = [];
      for (const cursor of [...bad, foreign]) {
        const res = await list(`cursor=${encodeURIComponent(cursor)}`);
        assert.deepEqual(parameterErrors(res), ['cursor:invalid_value'], cursor);
        answers.push(res.body.message);
      }
      // The foreign cursor gets the very answer a malformed one gets: nothing about the other account.
      assert.equal(new Set(answers).size, 1);
      // A quote in a title value is only data.
      const quoted = listPage(await list(`cursor=${forge({ k: ["o'brien \" ; drop table content; --"] })}`));
      assert.ok(quoted.data.every((i) => fold(i.title) > "o'brien"));
    });

    it('refuses bad sorts', async () => {
      for (const sort of ['id', 'foo', 'title,title', '-title,title', 'title,', ',title', '+title', 'title desc', '--title', 'Title']) {
        assert.deepEqual(parameterErrors(await list(`sort=${encodeURIComponent(sort)}`)), ['sort:invalid_value'], sort);
      }
      assert.deepEqual(parameterErrors(await list('sort=')), ['sort:invalid_value']);
      assert.deepEqual(parameterErrors(await list('sort=title&sort=title')), ['sort:invalid_value']);
    });
  });

  describe(`cursor paging while items come and go (${store})`, () => {
    const time = manualClock('2032-01-01T00:00:00.000Z');
    let server: TestServer;
    before(async () => {
      server = await startServer(store, { clock: time.clock });
    });
    after(() => server.close());

    for (const sort of ['-created_at', 'title', '-published_at', 'published_at,title', 'updated_at']) {
      it(`sort=${sort}: never skips or repeats an item that exists throughout`, async () => {
        const account = await server.account();
        const make = async (title: string, status: string) => {
          time.advance(1);
          return server.content(account.key, { title, status }) as Promise<Item>;
        };
        const steady: Item[] = [];
        const doomed: Item[] = [];
        for (let i = 0; i < 24; i++) {
          const item = await make(`Item ${String.fromCharCode(97 + (i * 7) % 26)} ${i}`, i % 2 ? 'published' : 'draft');
          (i % 4 === 3 ? doomed : steady).push(item);
        }
        const seen: string[] = [];
        let round = 0;
        let res = await server.client.get(`/v1/content?sort=${sort}&limit=4`, { key: account.key });
        for (;;) {
          const p = listPage(res);
          seen.push(...p.data.map((i) => i.id));
          if (!p.pagination.next_cursor) break;
          // Between pages: new items (titles and times all over the order), and one doomed item deleted.
          round++;
          await make(`Item ${String.fromCharCode(97 + (round * 5) % 26)} new ${round}`, round % 2 ? 'published' : 'draft');
          await make(`A first ${round}`, 'published');
          const victim = doomed.shift();
          if (victim) assert.equal((await server.client.delete(`/v1/content/${victim.id}`, { key: account.key })).status, 204);
          res = await server.client.get(`/v1/content?cursor=${encodeURIComponent(p.pagination.next_cursor)}&limit=4`, { key: account.key });
        }
        assert.ok(round >= 5);
        assert.equal(new Set(seen).size, seen.length, 'an item was repeated');
        for (const item of steady) assert.equal(seen.filter((id) => id === item.id).length, 1, `${item.title} seen once`);
        // And the steady items came in their order.
        const steadySeen = seen.filter((id) => steady.some((s) => s.id === id));
        assert.deepEqual(steadySeen, ids(sorted(steady, sort)));
      });
    }
  });
}
