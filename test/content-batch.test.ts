// POST /v1/content/batch (CONTRACT.md §21): atomic and independent batches, what each operation
// leaves (versions, events, webhook deliveries), and every bad input the contract names.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from './helpers/client.js';
import { addUser, addKey } from './helpers/people.js';
import { Receiver } from './helpers/receiver.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { addEndpoint, waitForDeliveries } from './helpers/webhooks.js';

const UNKNOWN_ID = 'content_01jd2x3m4n5p6q7r8s9t0v1w2x';
const draft = (title = 'Batch item') => ({ op: 'create', data: { title, type: 'blog', content: '# Body\n\nText.' } });

function fieldErrors(res: Response): Record<string, string> {
  assert.equal(res.status, 422, res.text);
  assert.equal(res.body.code, 'validation_failed');
  return Object.fromEntries((res.body.errors as { field: string; code: string }[]).map((e) => [e.field, e.code]));
}

for (const store of testStores()) {
  describe(`content batch (${store})`, () => {
    let server: TestServer;
    let owner: TestAccount;
    before(async () => {
      server = await startServer(store, { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
      owner = await server.account();
    });
    after(() => server.close());

    const batch = (operations: unknown, extra: Record<string, unknown> = {}, key = owner.key, headers: Record<string, string> = {}) =>
      server.client.post('/v1/content/batch', { key, json: { operations, ...extra }, headers });
    const get = (id: unknown, key = owner.key) => server.client.get(`/v1/content/${String(id)}`, { key });
    /** Event types of the account after `after`, oldest first. */
    async function eventsAfter(account: TestAccount, afterId: string | null): Promise<{ id: string; type: string; data: { id: string } }[]> {
      const res = await server.client.get(`/v1/events?limit=100${afterId ? `&after=${afterId}` : ''}`, { key: account.key });
      assert.equal(res.status, 200, res.text);
      return res.body.data;
    }
    async function lastEvent(account: TestAccount): Promise<string | null> {
      let cursor: string | null = null;
      for (;;) {
        const res = await server.client.get(`/v1/events?limit=100${cursor ? `&after=${cursor}` : ''}`, { key: account.key });
        if (res.body.data.length === 0) return cursor;
        cursor = res.body.pagination.next_after;
      }
    }

    it('applies every operation in order, each with its own version, event and webhook delivery', async () => {
      const account = await server.account();
      const receiver = await Receiver.start();
      try {
        const endpoint = await addEndpoint(server, account.key, { url: receiver.url() });
        const a = await server.content(account.key, { title: 'Existing A' });
        const b = await server.content(account.key, { title: 'Existing B' });
        const c = await server.content(account.key, { title: 'Existing C' });
        const d = await server.content(account.key, { title: 'Existing D' });
        const since = await lastEvent(account);
        const res = await batch(
          [
            draft('Made in a batch'),
            { op: 'update', id: a.id, data: { title: 'Renamed' }, if_match: '"1"' },
            { op: 'publish', id: b.id },
            { op: 'archive', id: c.id },
            { op: 'delete', id: d.id },
          ],
          {},
          account.key,
        );
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.data.map((r: { status: number }) => r.status), [201, 200, 200, 200, 204]);
        assert.equal(res.body.data[0].data.title, 'Made in a batch');
        assert.equal(res.body.data[0].data.version, 1);
        assert.equal(res.body.data[1].data.title, 'Renamed');
        assert.equal(res.body.data[1].data.version, 2);
        assert.equal(res.body.data[2].data.status, 'published');
        assert.ok(res.body.data[2].data.published_at);
        assert.equal(res.body.data[3].data.status, 'archived');
        assert.equal(res.body.data[4].data, null);
        assert.equal(res.body.meta.request_id, res.headers['x-request-id']);
        assert.equal((await get(res.body.data[0].data.id, account.key)).status, 200);
        assert.equal((await get(a.id, account.key)).body.data.title, 'Renamed');

        const events = (await eventsAfter(account, since)).filter((e) => e.type.startsWith('content.'));
        assert.deepEqual(events.map((e) => e.type), ['content.created', 'content.updated', 'content.updated', 'content.updated', 'content.deleted']);
        const revisions = await server.client.get(`/v1/content/${String(a.id)}/revisions`, { key: account.key });
        assert.deepEqual(revisions.body.data.map((r: { version: number }) => r.version), [2, 1]);
        const ids = new Set(events.map((e) => e.id));
        await waitForDeliveries(server.client, account.key, endpoint.id, (records) => [...ids].every((id) => records.some((r) => r.event_id === id)));
      } finally {
        await receiver.close();
      }
    });

    it('atomic: one failing operation changes nothing and is named operations[i]', async () => {
      const item = await server.content(owner.key, { title: 'Untouched' });
      const since = await lastEvent(owner);
      const invalid = await batch([draft('Never stored'), { op: 'update', id: item.id, data: { title: '', status: 'archived' } }]);
      assert.deepEqual(fieldErrors(invalid), { 'operations[1].data.title': 'too_short', 'operations[1].data.status': 'invalid_value' });

      const stale = await batch([draft('Never stored'), { op: 'update', id: item.id, data: { title: 'x' }, if_match: '"7"' }]);
      assert.deepEqual(fieldErrors(stale), { 'operations[1].if_match': 'precondition_failed' });

      const missing = await batch([draft('Never stored'), { op: 'archive', id: UNKNOWN_ID }]);
      assert.equal(missing.status, 404, missing.text);
      assert.equal(missing.body.code, 'not_found');
      assert.match(missing.body.message, /operations\[1\]/);

      // A schedule in the past is refused by the domain (not the schema): the same naming.
      const past = await batch([{ op: 'update', id: item.id, data: { publish_at: '2001-01-01T00:00:00.000Z' } }]);
      assert.deepEqual(fieldErrors(past), { 'operations[0].data.publish_at': 'invalid_value' });

      assert.deepEqual(await eventsAfter(owner, since), []);
      const list = await server.client.get('/v1/content?q=Never', { key: owner.key });
      assert.equal(list.body.pagination.total, 0);
      const stored = await get(item.id);
      assert.equal(stored.body.data.version, 1);
    });

    it('atomic: 403 as the operation alone would have it, and nothing changes', async () => {
      const author = await addUser(server, owner.key, 'author');
      const authorKey = await addKey(server, owner.key, { user_id: author.id });
      const theirs = await server.content(owner.key, { title: 'Owner item' });
      const res = await batch([draft('By the author'), { op: 'archive', id: theirs.id }], {}, authorKey.key);
      assert.equal(res.status, 403, res.text);
      assert.equal(res.body.code, 'forbidden');
      const list = await server.client.get('/v1/content?q=author', { key: owner.key });
      assert.equal(list.body.pagination.total, 0);

      const viewer = await addUser(server, owner.key, 'viewer');
      const viewerKey = await addKey(server, owner.key, { user_id: viewer.id });
      assert.equal((await batch([draft()], {}, viewerKey.key)).status, 403);
    });

    it('independent: each operation stands alone with the status it alone would have had', async () => {
      const item = await server.content(owner.key, { title: 'Independent' });
      const since = await lastEvent(owner);
      const res = await batch(
        [
          draft('Kept'),
          { op: 'publish', id: UNKNOWN_ID },
          { op: 'update', id: item.id, data: { title: 'Stale' }, if_match: '"9"' },
          { op: 'update', id: item.id, data: { publish_at: '2001-01-01T00:00:00.000Z' } },
          { op: 'update', id: item.id, data: { title: 'Changed once' } },
          { op: 'update', id: item.id, data: { title: 'Changed twice' }, if_match: '"2"' },
        ],
        { atomic: false },
      );
      assert.equal(res.status, 200, res.text);
      const results = res.body.data as { status: number; data?: { title: string; version: number }; error?: { code: string; errors?: { field: string }[] } }[];
      assert.deepEqual(results.map((r) => r.status), [201, 404, 412, 422, 200, 200]);
      assert.equal(results[1]!.error!.code, 'not_found');
      assert.equal(results[2]!.error!.code, 'precondition_failed');
      assert.equal(results[3]!.error!.code, 'validation_failed');
      assert.equal(results[3]!.error!.errors![0]!.field, 'publish_at');
      assert.equal(results[5]!.data!.version, 3);
      const events = await eventsAfter(owner, since);
      assert.deepEqual(events.map((e) => e.type), ['content.created', 'content.updated', 'content.updated']);
    });

    it('creates made together get the slugs and outcomes that one create after another gets', async () => {
      // Slugs given and made in one run of creates, against the store and each other, and a create
      // refused after its slug was worked out (publish_at in the past), which must not hold one.
      const past = '2001-01-01T00:00:00.000Z';
      const sequence = (type: string) => [
        { title: 'Field Notes', type },
        { title: 'Taken here', type, slug: 'field-notes' },
        { title: 'Field Notes', type },
        { title: 'Given', type, slug: 'field-notes-3' },
        { title: 'Field Notes', type },
        { title: 'Field Notes', type, publish_at: past },
        { title: 'Field Notes', type },
        { title: 'Field Notes 2', type },
        { title: 'Given too', type, slug: 'field-notes-7' },
        { title: 'Field Notes', type },
      ].map((data) => ({ ...data, content: 'Body.' }));
      const account = await server.account();
      for (const type of ['manual', 'strategy']) await server.content(account.key, { title: 'Already here', type, slug: 'field-notes-4' });
      const since = await lastEvent(account);
      const res = await batch(sequence('manual').map((data) => ({ op: 'create', data })), { atomic: false }, account.key);
      assert.equal(res.status, 200, res.text);
      const batched = (res.body.data as { status: number; data?: { id: string; slug: string } }[]).map((r) => [r.status, r.data?.slug ?? null]);
      const single: unknown[] = [];
      for (const data of sequence('strategy')) {
        const one = await server.client.post('/v1/content', { key: account.key, json: data });
        single.push([one.status, one.status === 201 ? one.body.data.slug : null]);
      }
      assert.deepEqual(batched, single);
      assert.deepEqual(batched, [
        [201, 'field-notes'], [409, null], [201, 'field-notes-2'], [201, 'field-notes-3'], [201, 'field-notes-5'],
        [422, null], [201, 'field-notes-6'], [201, 'field-notes-2-2'], [201, 'field-notes-7'], [201, 'field-notes-8'],
      ]);
      // One event and one revision per item made, in order; nothing of the refused ones.
      const made = (res.body.data as { status: number; data?: { id: string } }[]).flatMap((r) => (r.status === 201 ? [r.data!.id] : []));
      const events = (await eventsAfter(account, since)).slice(0, made.length + 1);
      assert.deepEqual(events.map((e) => [e.type, e.data.id]), made.map((id) => ['content.created', id]).concat([['content.created', events[made.length]!.data.id]]));
      for (const id of made) assert.equal((await server.client.get(`/v1/content/${id}/revisions`, { key: account.key })).body.pagination.total, 1);
      const list = await server.client.get('/v1/content?type=manual&limit=1', { key: account.key });
      assert.equal(list.body.pagination.total, made.length + 1);

      // Atomic: a refused create among creates is named by its index, and none is stored.
      const atomic = await batch(
        [{ op: 'create', data: { title: 'Never', type: 'manual', content: 'x' } }, { op: 'create', data: { title: 'Clash', type: 'manual', content: 'x', slug: 'field-notes-3' } }, draft('Never either')],
        {},
        account.key,
      );
      assert.equal(atomic.status, 409, atomic.text);
      assert.match(atomic.body.message, /operations\[1\]/);
      assert.deepEqual(atomic.body.errors.map((e: { field: string }) => e.field), ['operations[1].data.slug']);
      assert.equal((await server.client.get('/v1/content?type=manual&limit=1', { key: account.key })).body.pagination.total, made.length + 1);
    });

    it('creates made together are checked against their model as one create after another is', async () => {
      // Both types get the same model: a required enum with a default, a bounded integer, a reference to blog items.
      // The single route is a group of one, so the outcomes are also written out in full below.
      const model = [
        { name: 'product', kind: 'enum', values: ['cms', 'crm'], required: true, default: 'cms' },
        { name: 'pages', kind: 'integer', min: 1, max: 100 },
        { name: 'related', kind: 'reference', types: ['blog'] },
        { name: 'summary', kind: 'text' },
      ];
      const account = await server.account();
      for (const type of ['manual', 'whitepaper']) {
        const put = await server.client.put(`/v1/content-types/${type}`, { key: account.key, json: { fields: model } });
        assert.equal(put.status, 200, put.text);
      }
      const blog = await server.content(account.key, { title: 'A blog post', type: 'blog' });
      const manual = await server.content(account.key, { title: 'A manual', type: 'manual' });
      const sequence = (type: string) =>
        [
          { title: 'Defaults', fields: {} },
          { title: 'All set', fields: { product: 'crm', pages: 12, related: blog.id, summary: 'Searchable words' } },
          { title: 'Too long', fields: { pages: 101 } },
          { title: 'Unknown field', fields: { colour: 'red' } },
          { title: 'Required removed', fields: { product: null } },
          { title: 'No such item', fields: { related: 'content_00000000000000000000000000' } },
          { title: 'Wrong type', fields: { related: manual.id } },
          { title: 'After the refusals', fields: { pages: 3 } },
        ].map((data) => ({ ...data, type, content: 'Body.' }));
      const outcome = (status: number, body: { data?: { fields: unknown }; errors?: { field: string; code: string }[] } | undefined) =>
        status === 201 ? [status, body!.data!.fields] : [status, (body?.errors ?? []).map((e) => [e.field, e.code])];
      const res = await batch(sequence('manual').map((data) => ({ op: 'create', data })), { atomic: false }, account.key);
      assert.equal(res.status, 200, res.text);
      const batched = (res.body.data as { status: number; data?: { fields: unknown }; error?: { errors?: { field: string; code: string }[] } }[]).map((r) =>
        outcome(r.status, r.status === 201 ? r : r.error),
      );
      const single: unknown[] = [];
      for (const data of sequence('whitepaper')) {
        const one = await server.client.post('/v1/content', { key: account.key, json: data });
        single.push(outcome(one.status, one.body));
      }
      assert.deepEqual(batched, single);
      assert.deepEqual(batched, [
        [201, { product: 'cms' }],
        [201, { product: 'crm', pages: 12, related: blog.id, summary: 'Searchable words' }],
        [422, [['fields.pages', 'out_of_range']]],
        [422, [['fields.colour', 'unknown_field']]],
        [422, [['fields.product', 'required']]],
        [422, [['fields.related', 'invalid_reference']]],
        [422, [['fields.related', 'invalid_reference']]],
        [201, { product: 'cms', pages: 3 }],
      ]);
      // The text field of the item made in the batch is searchable, as the single route's is.
      const found = await server.client.get('/v1/content?q=searchable&type=manual', { key: account.key });
      assert.deepEqual(found.body.data.map((item: { title: string }) => item.title), ['All set']);
    });

    it('publishing a published item and archiving an archived one change nothing', async () => {
      const item = await server.content(owner.key, { status: 'published' });
      const res = await batch([{ op: 'publish', id: item.id }]);
      assert.equal(res.body.data[0].status, 200);
      assert.equal(res.body.data[0].data.version, 1);
    });

    it('refuses the bad inputs of the contract', async () => {
      assert.deepEqual(fieldErrors(await batch([])), { operations: 'too_short' });
      assert.deepEqual(fieldErrors(await batch(Array.from({ length: 101 }, () => draft()))), { operations: 'too_long' });
      assert.deepEqual(fieldErrors(await batch([{ op: 'rename', id: UNKNOWN_ID }])), { 'operations[0].op': 'invalid_value' });
      assert.deepEqual(fieldErrors(await batch([{ id: UNKNOWN_ID }])), { 'operations[0].op': 'required' });
      assert.deepEqual(fieldErrors(await batch([draft(), { op: 'update', data: { title: 'x' } }])), { 'operations[1].id': 'required' });
      assert.deepEqual(fieldErrors(await batch([{ op: 'delete', id: UNKNOWN_ID, data: {} }])), { 'operations[0].data': 'unknown_field' });
      assert.deepEqual(fieldErrors(await batch([{ op: 'update', id: UNKNOWN_ID, data: {} }])), { 'operations[0].data': 'empty_update' });
      assert.deepEqual(fieldErrors(await batch([{ op: 'update', id: UNKNOWN_ID, data: { version: 3 } }])), { 'operations[0].data.version': 'read_only' });
      assert.deepEqual(fieldErrors(await batch([draft()], { atomic: 'yes' })), { atomic: 'invalid_type' });
      assert.deepEqual(fieldErrors(await batch([draft()], { extra: 1 })), { extra: 'unknown_field' });

      // The same item twice in an atomic batch: refused before anything runs (docs/bulk.md).
      const item = await server.content(owner.key);
      const twice = await batch([{ op: 'update', id: item.id, data: { title: 'One' } }, { op: 'publish', id: item.id }]);
      assert.deepEqual(fieldErrors(twice), { 'operations[1].id': 'invalid_value' });
      assert.equal((await get(item.id)).body.data.version, 1);
      // Independent: applied in order, as two requests would be.
      const apart = await batch([{ op: 'update', id: item.id, data: { title: 'One' } }, { op: 'publish', id: item.id }], { atomic: false });
      assert.deepEqual(apart.body.data.map((r: { status: number }) => r.status), [200, 200]);
      assert.equal((await get(item.id)).body.data.version, 3);

      // 10 MiB: refused before it is parsed.
      const huge = JSON.stringify({ operations: [{ op: 'create', data: { title: 't', type: 'blog', content: 'x'.repeat(10 * 1024 * 1024) } }] });
      const tooLarge = await server.client.post('/v1/content/batch', { key: owner.key, raw: huge, headers: { 'content-type': 'application/json' } });
      assert.equal(tooLarge.status, 413);
      assert.equal(tooLarge.body.code, 'payload_too_large');
    });

    it('keeps multi-line content: the text rules follow each operation', async () => {
      const res = await batch([draft('Lines'), { op: 'create', data: { title: 'Tab\there', type: 'blog', content: 'x' } }]);
      assert.deepEqual(fieldErrors(res), { 'operations[1].data.title': 'invalid_value' });
    });

    it('one Idempotency-Key covers the batch: a repeat changes nothing and answers the same', async () => {
      const since = await lastEvent(owner);
      const headers = { 'idempotency-key': `batch-${Date.now()}` };
      const first = await batch([draft('Keyed one'), draft('Keyed two')], {}, owner.key, headers);
      assert.equal(first.status, 200, first.text);
      const again = await batch([draft('Keyed one'), draft('Keyed two')], {}, owner.key, headers);
      assert.equal(again.status, 200);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.deepEqual(again.body.data, first.body.data);
      assert.equal((await eventsAfter(owner, since)).length, 2);
      const other = await batch([draft('Keyed three')], {}, owner.key, headers);
      assert.equal(other.status, 422);
      assert.equal(other.body.code, 'idempotency_key_reused');
    });

    it('counts as its operations toward the hourly limit and the quota', async () => {
      const limited = await server.account({ rateLimit: 10 });
      const res = await batch([draft(), draft(), draft(), draft()], {}, limited.key);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers['x-ratelimit-remaining'], '6');
      // 6 left: a batch of 7 is refused whole, and changes nothing.
      const over = await batch(Array.from({ length: 7 }, () => draft('Over')), {}, limited.key);
      assert.equal(over.status, 429, over.text);
      assert.equal(over.body.code, 'rate_limited');
      assert.ok(Number(over.headers['retry-after']) >= 1);

      const quota = await server.account({ quota: 50 });
      const mixed = await batch([draft(), { op: 'archive', id: UNKNOWN_ID }, draft()], { atomic: false }, quota.key);
      assert.equal(mixed.status, 200);
      // Two operations succeeded: two units spent (the failed one's given back); this read is the third.
      const usage = await server.client.get('/v1/usage', { key: quota.key });
      assert.equal(usage.body.data.used, 3, usage.text);
      await batch([draft(), { op: 'archive', id: UNKNOWN_ID }], {}, quota.key);
      assert.equal((await server.client.get('/v1/usage', { key: quota.key })).body.data.used, 4);
    });
  });
}
