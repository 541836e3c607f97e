// Bulk set_fields and typed-field filters in a bulk job (CONTRACT.md §21, §20): the fields are
// checked against the model like an update's when the job is created (422 on fields.<name>), the
// filter takes fields.<name>[op] as the list does, each item gets one new version and event, an
// item already holding the values is done without a change, and an item whose merged fields no
// longer fit its model fails alone, listed in the job's errors.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const MODEL = [
  { name: 'pages', kind: 'integer', min: 1, indexed: true },
  { name: 'summary', kind: 'text' },
  { name: 'level', kind: 'enum', values: ['a', 'b'] },
  { name: 'related', kind: 'reference' },
];

type Job = { id: string; status: string; total: number; done: number; failed: number; errors: { id: string | null; code: string }[] };

for (const store of testStores()) {
  describe(`bulk set_fields (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(store);
    });
    after(() => server.close());

    const putModel = async (key: string, fields: unknown[]) => {
      const res = await server.client.put('/v1/content-types/manual', { key, json: { fields } });
      assert.equal(res.status, 200, res.text);
    };
    /** Creates manuals with pages 1..n through batches of 100; ids in that order. */
    async function manuals(key: string, n: number): Promise<string[]> {
      const ids: string[] = [];
      for (let i = 0; i < n; i += 100) {
        const operations = Array.from({ length: Math.min(100, n - i) }, (_, j) => ({
          op: 'create', data: { title: `Manual ${i + j + 1}`, type: 'manual', content: 'Body', fields: { pages: i + j + 1 } },
        }));
        const res = await server.client.post('/v1/content/batch', { key, json: { operations } });
        assert.equal(res.status, 200, res.text);
        ids.push(...res.body.data.map((r: { data: { id: string } }) => r.data.id));
      }
      return ids;
    }
    const bulk = (key: string, json: unknown) => server.client.post('/v1/content/bulk', { key, json });
    async function finished(key: string, id: string): Promise<Job> {
      const deadline = Date.now() + 90_000;
      for (;;) {
        const job = (await server.client.get(`/v1/jobs/${id}`, { key })).body.data as Job;
        if (!['queued', 'running'].includes(job.status)) return job;
        if (Date.now() > deadline) throw new Error(`job still ${job.status}: ${JSON.stringify(job)}`);
        await sleep(100);
      }
    }
    /** The account's whole event log, oldest first. */
    async function allEvents(key: string): Promise<{ type: string; data: { fields: Record<string, unknown> } }[]> {
      const events = [];
      for (let after = ''; ; ) {
        const res = await server.client.get(`/v1/events?limit=100${after ? `&after=${after}` : ''}`, { key });
        assert.equal(res.status, 200, res.text);
        events.push(...res.body.data);
        if (!res.body.pagination.has_more) return events;
        after = res.body.pagination.next_after;
      }
    }
    const total = async (key: string, query: string) => {
      const res = await server.client.get(`/v1/content?${query}`, { key });
      assert.equal(res.status, 200, res.text);
      return res.body.pagination.total as number;
    };

    it('sets fields on the items a fields.* filter matches, in chunks, one version and event each; a second run changes nothing', async () => {
      const { key } = await server.account();
      await putModel(key, MODEL);
      const ids = await manuals(key, 260);
      const res = await bulk(key, { action: 'set_fields', filter: { type: 'manual', 'fields.pages[gt]': '30' }, fields: { summary: 'Reviewed by the zebra team', level: 'b' } });
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.data.action, 'set_fields');
      assert.equal(res.body.data.total, 230);
      const job = await finished(key, res.body.data.id);
      assert.deepEqual([job.status, job.done, job.failed, job.total], ['succeeded', 230, 0, 230]);

      const changed = await server.client.get(`/v1/content/${ids[99]}`, { key });
      assert.deepEqual(changed.body.data.fields, { pages: 100, summary: 'Reviewed by the zebra team', level: 'b' });
      assert.equal(changed.body.data.version, 2);
      const untouched = await server.client.get(`/v1/content/${ids[29]}`, { key });
      assert.deepEqual(untouched.body.data.fields, { pages: 30 });
      assert.equal(untouched.body.data.version, 1);
      // The text field's words are searchable at once.
      assert.equal(await total(key, 'q=zebra'), 230);
      const updates = (await allEvents(key)).filter((e) => e.type === 'content.updated');
      assert.equal(updates.length, 230);
      assert.equal(updates[0]!.data.fields.level, 'b');

      // Again: every item holds the values already; done, no new version, no event.
      const again = await bulk(key, { action: 'set_fields', filter: { type: 'manual', 'fields.pages[gt]': '30' }, fields: { level: 'b' } });
      const second = await finished(key, again.body.data.id);
      assert.deepEqual([second.status, second.done, second.failed], ['succeeded', 230, 0]);
      assert.equal((await server.client.get(`/v1/content/${ids[99]}`, { key })).body.data.version, 2);

      // null removes a field; a fields.* filter with other filters; a filter on another type's field is the list's 422.
      // (The list's total with q and a fields.* filter counts both; asked before the job, which may run at once.)
      assert.equal(await total(key, `type=manual&${encodeURIComponent('fields.pages[lte]')}=40&q=zebra`), 10);
      const cleared = await bulk(key, { action: 'set_fields', filter: { type: 'manual', 'fields.pages[lte]': '40', q: 'zebra' }, fields: { summary: null } });
      assert.equal(cleared.body.data.total, 10);
      assert.equal((await finished(key, cleared.body.data.id)).done, 10);
      assert.equal(await total(key, 'q=zebra'), 220);
      assert.deepEqual((await server.client.get(`/v1/content/${ids[35]}`, { key })).body.data.fields, { pages: 36, level: 'b' });

      // Other actions take the fields.* filter too.
      const archive = await bulk(key, { action: 'archive', filter: { type: 'manual', 'fields.pages[in]': '1,2,3' } });
      assert.equal(archive.body.data.total, 3);
      assert.equal((await finished(key, archive.body.data.id)).done, 3);
      assert.equal(await total(key, 'status=archived'), 3);
    });

    it('refuses what an update would refuse, and filters the list would refuse, before queueing', async () => {
      const { key } = await server.account();
      await putModel(key, [...MODEL, { name: 'owner', kind: 'string', required: true, default: 'docs' }]);
      const [item] = await manuals(key, 1);
      const cases: [unknown, string[][]][] = [
        [{ action: 'set_fields', filter: { type: 'manual' } }, [['fields', 'required']]],
        [{ action: 'set_fields', filter: { type: 'manual' }, fields: {} }, [['fields', 'too_short']]],
        [{ action: 'set_fields', filter: {}, fields: { level: 'a' } }, [['filter.type', 'required']]],
        [{ action: 'publish', filter: {}, fields: { level: 'a' } }, [['fields', 'invalid_value']]],
        [{ action: 'set_fields', filter: { type: 'manual' }, fields: { nope: 1, level: 'c', pages: 0 } }, [['fields.nope', 'unknown_field'], ['fields.level', 'invalid_value'], ['fields.pages', 'out_of_range']]],
        [{ action: 'set_fields', filter: { type: 'manual' }, fields: { pages: 'many' } }, [['fields.pages', 'invalid_type']]],
        [{ action: 'set_fields', filter: { type: 'manual' }, fields: { owner: null } }, [['fields.owner', 'required']]],
        [{ action: 'set_fields', filter: { type: 'manual' }, fields: { related: 'content_00000000000000000000000000' } }, [['fields.related', 'invalid_reference']]],
        [{ action: 'set_fields', filter: { type: 'manual', 'fields.summary': 'x' }, fields: { level: 'a' } }, [['filter.fields.summary', 'invalid_value']]],
        [{ action: 'archive', filter: { 'fields.pages[gt]': '1' } }, [['filter.fields.pages[gt]', 'invalid_value']]],
        [{ action: 'archive', filter: { type: 'manual', 'fields.pages[gt]': 'x' } }, [['filter.fields.pages[gt]', 'invalid_type']]],
      ];
      for (const [body, expected] of cases) {
        const res = await bulk(key, body);
        assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
        assert.deepEqual(res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]).sort(), expected.sort(), JSON.stringify(body));
      }
      assert.equal((await server.client.get('/v1/jobs', { key })).body.pagination.total, 0);
      // A reference to an item of the account is fine.
      const ok = await bulk(key, { action: 'set_fields', filter: { type: 'manual' }, fields: { related: item } });
      assert.equal(ok.status, 202, ok.text);
      assert.equal((await finished(key, ok.body.data.id)).done, 1);
    });

    it('fails an item whose merged fields no longer fit its model, alone, naming it in errors', async () => {
      const { key } = await server.account();
      await putModel(key, MODEL);
      const ids = await manuals(key, 3);
      // owner becomes required with a default: the items already written lack it, so an update of their fields is refused.
      await putModel(key, [...MODEL, { name: 'owner', kind: 'string', required: true, default: 'docs' }]);
      const fixed = await server.client.put(`/v1/content/${ids[0]}`, { key, json: { fields: { owner: 'ops' } } });
      assert.equal(fixed.status, 200, fixed.text);
      const res = await bulk(key, { action: 'set_fields', filter: { type: 'manual' }, fields: { level: 'a' } });
      const job = await finished(key, res.body.data.id);
      assert.deepEqual([job.status, job.done, job.failed], ['succeeded', 1, 2]);
      assert.deepEqual(job.errors.map((e) => e.id).sort(), [ids[1], ids[2]].sort());
      assert.ok(job.errors.every((e) => e.code === 'validation_failed'), JSON.stringify(job.errors));
      assert.equal((await server.client.get(`/v1/content/${ids[0]}`, { key })).body.data.fields.level, 'a');
      assert.equal((await server.client.get(`/v1/content/${ids[1]}`, { key })).body.data.fields.level, undefined);
    });
  });
}
