// Listing content: paging and clamping, filters, exact totals, has_more, newest-first order, stability, bad parameters.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

type Item = Record<string, unknown>;
const LIST_FIELDS = ['author', 'created_at', 'fields', 'id', 'slug', 'status', 'title', 'type', 'updated_at'];
const FIELD_CODES = ['required', 'invalid_type', 'invalid_value', 'too_short', 'too_long', 'invalid_format', 'read_only', 'unknown_field', 'empty_update'];

/** A clock the test moves by hand, so creation times (and ties) are chosen, not hoped for. */
function manualClock(start: string) {
  let now = Date.parse(start);
  return {
    clock: () => new Date(now),
    tick: (ms = 1) => {
      now += ms;
    },
  };
}

/** The contract's order: created_at descending, then id descending. */
function newestFirst(items: Item[]): Item[] {
  return [...items].sort((a, b) => {
    const byTime = String(b.created_at).localeCompare(String(a.created_at));
    return byTime !== 0 ? byTime : String(b.id) < String(a.id) ? -1 : String(b.id) > String(a.id) ? 1 : 0;
  });
}

const ids = (items: Item[]) => items.map((i) => i.id);

/**
 * Asserts a 200 list response in the contract's shape; returns data and pagination. next_cursor
 * (CONTRACT.md §17) is checked here, a string exactly when has_more, and left out of what is returned.
 */
function page(res: Response): { data: Item[]; pagination: { total: number; limit: number; offset: number; has_more: boolean } } {
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ['data', 'meta', 'pagination']);
  assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
  for (const item of res.body.data as Item[]) assert.deepEqual(Object.keys(item).sort(), LIST_FIELDS);
  const { next_cursor: next, ...pagination } = res.body.pagination;
  assert.equal(typeof next === 'string', pagination.has_more, `next_cursor ${next} with has_more ${pagination.has_more}`);
  if (!pagination.has_more) assert.equal(next, null);
  return { data: res.body.data, pagination };
}

/** Asserts a 400 invalid_parameter; returns its errors as sorted "field:code" strings. */
function parameterErrors(res: Response): string[] {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.code, 'invalid_parameter');
  assert.ok(typeof res.body.message === 'string' && res.body.message.length > 0);
  assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
  for (const error of res.body.errors as Item[]) {
    assert.deepEqual(Object.keys(error).sort(), ['code', 'field', 'message']);
    assert.ok(FIELD_CODES.includes(String(error.code)));
    assert.ok(typeof error.message === 'string' && error.message.length > 0);
  }
  return (res.body.errors as { field: string; code: string }[]).map((e) => `${e.field}:${e.code}`).sort();
}

for (const store of testStores()) {
  describe(`content list (${store})`, () => {
    const time = manualClock('2030-01-01T00:00:00.000Z');
    let server: TestServer;
    before(async () => {
      server = await startServer(store, { clock: time.clock });
    });
    after(() => server.close());

    const list = (account: TestAccount, query = '') => server.client.get(`/v1/content${query ? `?${query}` : ''}`, { key: account.key });

    /** Creates `count` items one clock tick apart; `fields(i)` varies them. Returns them in creation order. */
    async function seed(account: TestAccount, count: number, fields: (i: number) => Item = () => ({})): Promise<Item[]> {
      const items: Item[] = [];
      for (let i = 0; i < count; i++) {
        time.tick();
        items.push(await server.content(account.key, { title: `Item ${i}`, ...fields(i) }));
      }
      return items;
    }

    /** Every page of `query` with page size `limit`, following has_more. */
    async function allPages(account: TestAccount, limit: number, query = '', between?: () => Promise<void>) {
      const pages = [];
      for (let offset = 0; pages.length < 50; offset += limit) {
        const p = page(await list(account, `${query}limit=${limit}&offset=${offset}`));
        assert.deepEqual([p.pagination.limit, p.pagination.offset], [limit, offset]);
        pages.push(p);
        if (!p.pagination.has_more) return pages;
        await between?.();
      }
      assert.fail('has_more never became false');
    }

    it('returns an empty page for an account without content', async () => {
      const p = page(await list(await server.account()));
      assert.deepEqual(p.data, []);
      assert.deepEqual(p.pagination, { total: 0, limit: 10, offset: 0, has_more: false });
    });

    it('pages by 10 by default, with an exact total and has_more', async () => {
      const account = await server.account();
      const expected = newestFirst(await seed(account, 12));
      const first = page(await list(account));
      assert.deepEqual(first.pagination, { total: 12, limit: 10, offset: 0, has_more: true });
      assert.deepEqual(ids(first.data), ids(expected.slice(0, 10)));
      const second = page(await list(account, 'offset=10'));
      assert.deepEqual(second.pagination, { total: 12, limit: 10, offset: 10, has_more: false });
      assert.deepEqual(ids(second.data), ids(expected.slice(10)));
    });

    it('computes has_more as offset + page length < total, at every boundary', async () => {
      const account = await server.account();
      const expected = newestFirst(await seed(account, 5));
      const cases: [string, number, boolean][] = [
        ['limit=5', 5, false],
        ['limit=4', 4, true],
        ['limit=6', 5, false],
        ['limit=1&offset=3', 1, true],
        ['limit=1&offset=4', 1, false],
        ['limit=2&offset=4', 1, false],
        ['offset=5', 0, false],
        ['offset=50', 0, false],
      ];
      for (const [query, length, hasMore] of cases) {
        const p = page(await list(account, query));
        const offset = Number(new URLSearchParams(query).get('offset') ?? 0);
        assert.deepEqual(ids(p.data), ids(expected.slice(offset, offset + length)), query);
        assert.equal(p.pagination.has_more, hasMore, query);
        assert.equal(p.pagination.total, 5, query);
      }
    });

    it('clamps limit above 100 to 100 and says so in pagination.limit', async () => {
      const account = await server.account();
      const expected = newestFirst(await seed(account, 105));
      for (const limit of ['1000', '101', '100', '99999999999']) {
        const p = page(await list(account, `limit=${limit}`));
        assert.deepEqual(p.pagination, { total: 105, limit: 100, offset: 0, has_more: true }, limit);
        assert.deepEqual(ids(p.data), ids(expected.slice(0, 100)), limit);
      }
      const rest = page(await list(account, 'limit=1000&offset=100'));
      assert.deepEqual(rest.pagination, { total: 105, limit: 100, offset: 100, has_more: false });
      assert.deepEqual(ids(rest.data), ids(expected.slice(100)));
    });

    it('orders by created_at descending, then id descending, not by insertion', async () => {
      const account = await server.account();
      time.tick(1000);
      // Three items in the same millisecond: only the id breaks the tie.
      const tied = [];
      for (let i = 0; i < 3; i++) tied.push(await server.content(account.key, { title: `Tied ${i}` }));
      time.tick(1000);
      const newest = await server.content(account.key, { title: 'Newest' });
      time.tick(-5000); // an item created later, with an older timestamp
      const backdated = await server.content(account.key, { title: 'Backdated' });
      time.tick(10_000);

      assert.equal(new Set(tied.map((i) => i.created_at)).size, 1);
      const listed = page(await list(account)).data;
      assert.deepEqual(ids(listed), ids([newest, tied[2]!, tied[1]!, tied[0]!, backdated]));
      assert.deepEqual(ids(listed), ids(newestFirst([...tied, newest, backdated])));
    });

    it('visits each of 25 items exactly once, in order, paging by 7', async () => {
      const account = await server.account();
      // Pairs share a millisecond, so ties must also be ordered stably across page edges.
      const items: Item[] = [];
      for (let i = 0; i < 25; i++) {
        if (i % 2 === 0) time.tick();
        items.push(await server.content(account.key, { title: `Item ${i}` }));
      }
      const pages = await allPages(account, 7);
      assert.deepEqual(pages.map((p) => p.data.length), [7, 7, 7, 4]);
      assert.deepEqual(pages.map((p) => p.pagination.has_more), [true, true, true, false]);
      assert.ok(pages.every((p) => p.pagination.total === 25));
      const seen = ids(pages.flatMap((p) => p.data));
      assert.equal(new Set(seen).size, 25);
      assert.deepEqual(seen, ids(newestFirst(items)));
      assert.deepEqual(seen, ids([...items].reverse()));
    });

    it('never skips an existing item, and keeps their order, while new items are inserted between pages', async () => {
      const account = await server.account();
      const existing = ids(newestFirst(await seed(account, 20)));
      let inserted = 0;
      const pages = await allPages(account, 5, '', async () => {
        await seed(account, 2, () => ({ title: `Inserted ${inserted++}` }));
      });
      assert.ok(inserted > 0);
      const old = (p: { data: Item[] }) => ids(p.data).filter((id) => existing.includes(id));
      for (const p of pages) {
        // Within a page the existing items are a consecutive run of the original order.
        const run = old(p);
        const start = existing.indexOf(run[0]);
        assert.deepEqual(run, existing.slice(start, start + run.length));
      }
      const firstSeen = [...new Set(pages.flatMap(old))];
      assert.deepEqual(firstSeen, existing);
      assert.equal(pages.at(-1)!.pagination.total, existing.length + inserted);
    });

    it('filters by type, by status and by both, with exact totals', async () => {
      const account = await server.account();
      const shapes: Item[] = [
        { type: 'blog', status: 'draft' },
        { type: 'blog', status: 'published' },
        { type: 'blog', status: 'published' },
        { type: 'manual', status: 'draft' },
        { type: 'manual', status: 'published' },
        { type: 'whitepaper', status: 'draft' },
        { type: 'blog', status: 'draft' },
      ];
      const items = await seed(account, shapes.length, (i) => shapes[i]!);
      // Archive two of them: one blog, one whitepaper.
      for (const item of [items[0]!, items[5]!]) {
        const res = await server.client.post(`/v1/content/${String(item.id)}/archive`, { key: account.key });
        assert.equal(res.status, 200);
        item.status = 'archived';
      }
      const filters: Item[] = [
        { type: 'blog' },
        { type: 'manual' },
        { type: 'whitepaper' },
        { type: 'strategy' },
        { status: 'draft' },
        { status: 'published' },
        { status: 'archived' },
        { type: 'blog', status: 'published' },
        { type: 'blog', status: 'archived' },
        { type: 'manual', status: 'archived' },
      ];
      for (const filter of filters) {
        const query = new URLSearchParams(filter as Record<string, string>).toString();
        const expected = newestFirst(items.filter((i) => Object.entries(filter).every(([k, v]) => i[k] === v)));
        const p = page(await list(account, query));
        assert.deepEqual(ids(p.data), ids(expected), query);
        assert.equal(p.pagination.total, expected.length, query);
        assert.equal(p.pagination.has_more, false, query);
      }
      const paged = page(await list(account, 'type=blog&limit=2&offset=1'));
      assert.deepEqual(paged.pagination, { total: 4, limit: 2, offset: 1, has_more: true });
    });

    it('returns exactly the seven list fields, with the values of the full item', async () => {
      const account = await server.account();
      const [item] = await seed(account, 1, () => ({ title: 'Listed', type: 'manual', status: 'published', content: 'x'.repeat(500) }));
      const [listed] = page(await list(account)).data;
      const expected = Object.fromEntries(LIST_FIELDS.map((f) => [f, item![f]]));
      assert.deepEqual(listed, expected);
    });

    it('accepts every allowed value of every parameter', async () => {
      const account = await server.account();
      for (const type of ['blog', 'manual', 'whitepaper', 'strategy']) page(await list(account, `type=${type}`));
      for (const status of ['draft', 'published', 'archived']) page(await list(account, `status=${status}`));
      const p = page(await list(account, 'type=blog&status=draft&limit=1&offset=0'));
      assert.deepEqual(p.pagination, { total: 0, limit: 1, offset: 0, has_more: false });
    });

    describe('bad parameters', () => {
      let account: TestAccount;
      before(async () => {
        account = await server.account();
        await seed(account, 1);
      });

      const cases: [string, string[]][] = [
        ['limit=0', ['limit:invalid_value']],
        ['limit=-1', ['limit:invalid_value']],
        ['limit=abc', ['limit:invalid_type']],
        ['limit=1.5', ['limit:invalid_type']],
        ['limit=', ['limit:invalid_value']],
        ['limit=5&limit=6', ['limit:invalid_value']],
        ['offset=-1', ['offset:invalid_value']],
        ['offset=1.5', ['offset:invalid_type']],
        ['offset=x', ['offset:invalid_type']],
        ['type=bogus', ['type:invalid_value']],
        ['type=Blog', ['type:invalid_value']],
        ['type=', ['type:invalid_value']],
        ['type=blog&type=manual', ['type:invalid_value']],
        ['status=', ['status:invalid_value']],
        ['status=deleted', ['status:invalid_value']],
        ['status=draft&status=draft', ['status:invalid_value']],
        ['page=2', ['page:unknown_field']],
        ['sort=created_at&query=x', ['query:unknown_field']],
      ];
      for (const [query, expected] of cases) {
        it(`rejects ?${query}`, async () => assert.deepEqual(parameterErrors(await list(account, query)), expected));
      }

      it('lists every bad parameter of one request together', async () => {
        const res = await list(account, 'limit=0&offset=1.5&type=bogus&status=&type2=blog&foo=bar');
        assert.deepEqual(parameterErrors(res), ['foo:unknown_field', 'limit:invalid_value', 'offset:invalid_type', 'status:invalid_value', 'type2:unknown_field', 'type:invalid_value']);
        const res2 = await list(account, 'limit=-1&offset=-1&type=blog&type=manual&status=x');
        assert.deepEqual(parameterErrors(res2), ['limit:invalid_value', 'offset:invalid_value', 'status:invalid_value', 'type:invalid_value']);
      });
    });
  });
}
