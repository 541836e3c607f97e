// Exact totals from the per-account counts (CONTRACT.md §17): kept in the transaction of every
// change, so after a burst of concurrent creates, changes of type and status, archives and deletes,
// every filter's total equals the items that list really shows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const TYPES = ['blog', 'manual', 'whitepaper', 'strategy'];
const STATUSES = ['draft', 'published'];

for (const store of testStores()) {
  describe(`content totals (${store})`, () => {
    let server: TestServer;
    let account: TestAccount;
    before(async () => {
      server = await startServer(store);
      account = await server.account();
    });
    after(() => server.close());

    /** Every item a list shows, by cursor, and the total it claims. */
    async function everything(query: string): Promise<{ ids: string[]; total: number }> {
      const ids: string[] = [];
      let res = await server.client.get(`/v1/content?${query}&limit=100`, { key: account.key });
      const total = res.body.pagination.total as number;
      for (;;) {
        assert.equal(res.status, 200, res.text);
        ids.push(...res.body.data.map((i: { id: string }) => i.id));
        const next = res.body.pagination.next_cursor as string | null;
        if (!next) return { ids, total };
        res = await server.client.get(`/v1/content?cursor=${encodeURIComponent(next)}&limit=100`, { key: account.key });
      }
    }

    it('stay exact for every filter through a burst of concurrent changes', async () => {
      const created = await Promise.all(
        Array.from({ length: 60 }, (_, i) => server.content(account.key, { title: `Item ${i}`, type: TYPES[i % 4], status: STATUSES[i % 2] })),
      );
      const ids = created.map((item) => String(item.id));
      await Promise.all(
        ids.map((id, i) => {
          switch (i % 5) {
            case 0:
              return server.client.put(`/v1/content/${id}`, { key: account.key, json: { type: TYPES[(i + 1) % 4] } });
            case 1:
              return server.client.put(`/v1/content/${id}`, { key: account.key, json: { status: 'published', type: 'strategy' } });
            case 2:
              return server.client.post(`/v1/content/${id}/archive`, { key: account.key });
            case 3:
              return server.client.delete(`/v1/content/${id}`, { key: account.key });
            default:
              // Plus more creates, racing the rest.
              return server.content(account.key, { title: `Extra ${i}`, type: 'manual' });
          }
        }),
      );
      const queries = [''];
      for (const type of TYPES) queries.push(`type=${type}`);
      for (const status of ['draft', 'published', 'archived']) {
        queries.push(`status=${status}`);
        for (const type of TYPES) queries.push(`type=${type}&status=${status}`);
      }
      let sum = 0;
      for (const query of queries) {
        const { ids: listed, total } = await everything(query);
        assert.equal(total, listed.length, query);
        assert.equal(new Set(listed).size, listed.length, query);
        if (query.startsWith('status=') && !query.includes('type')) sum += total;
      }
      const all = await everything('');
      assert.equal(all.total, 60 - 12 + 12);
      assert.equal(sum, all.total);
    });
  });
}
