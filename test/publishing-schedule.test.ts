// Scheduled publishing (CONTRACT.md §19) on a clock the test moves: publish_at and unpublish_at
// checked as the contract says, the `scheduled` filter and `sort=publish_at`, the transition made once
// when due (published_at the time it was due, one content.updated event, changed_by the person who
// scheduled it), cancelled by a status set by hand, caught up after downtime, and a failed publish
// (the person demoted or removed) leaving the item as it was and telling them by e-mail.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, manualClock } from './helpers/limits.js';
import { startSecondInstance } from './helpers/instance.js';
import { addKey, addUser } from './helpers/people.js';
import { startServer, type TestServer } from './helpers/server.js';
import { SmtpSink } from './helpers/smtp.js';
import { testStores } from './helpers/stores.js';

const MINUTE = 60_000;

for (const store of testStores()) {
  describe(`scheduled publishing (${store})`, { timeout: 180_000 }, () => {
    const time = manualClock('2027-04-05T08:00:00.000Z');
    const at = (ms: number) => new Date(time.now() + ms).toISOString();
    let server: TestServer;
    let smtp: SmtpSink;
    before(async () => {
      smtp = await SmtpSink.start();
      server = await startServer(store, { clock: time.clock, env: { SMTP_URL: smtp.url() } });
    });
    after(async () => {
      await server.close();
      await smtp.close();
    });

    const get = async (key: string, id: string) => (await server.client.get(`/v1/content/${id}`, { key })).body.data;
    const events = async (key: string, id: string) =>
      (await server.client.get('/v1/events?limit=100', { key })).body.data.filter((e: { data: { id: string } }) => e.data.id === id);

    it('waits for a time weeks ahead without a timer that overflows (which Node would fire at once, and again)', async () => {
      const overflows: Error[] = [];
      const listener = (warning: Error) => void (warning.name === 'TimeoutOverflowWarning' && overflows.push(warning));
      process.on('warning', listener);
      try {
        const { key } = await server.account();
        const item = await server.content(key, { title: 'Far ahead', publish_at: at(60 * 24 * 60 * MINUTE) });
        await new Promise((resolve) => setTimeout(resolve, 2500));
        assert.deepEqual(overflows.map((w) => w.message), []);
        assert.equal((await get(key, item.id as string)).status, 'draft');
      } finally {
        process.off('warning', listener);
      }
    });

    it('checks the times as the contract says', async () => {
      const { key } = await server.account();
      const post = (json: Record<string, unknown>) => server.client.post('/v1/content', { key, json: { title: 'T', type: 'blog', content: 'x', ...json } });
      const fieldErrors = (res: { body: { errors: { field: string; code: string }[] } }) => res.body.errors.map((e) => [e.field, e.code]);
      let res = await post({ publish_at: at(-1000) });
      assert.equal(res.status, 422);
      assert.deepEqual(fieldErrors(res), [['publish_at', 'invalid_value']]);
      res = await post({ publish_at: at(5 * 366 * 24 * 3600_000) });
      assert.deepEqual(fieldErrors(res), [['publish_at', 'out_of_range']]);
      res = await post({ publish_at: 'next tuesday' });
      assert.deepEqual(fieldErrors(res), [['publish_at', 'invalid_format']]);
      res = await post({ status: 'published', publish_at: at(MINUTE) });
      assert.deepEqual(fieldErrors(res), [['publish_at', 'invalid_value']]);
      res = await post({ publish_at: at(2 * MINUTE), unpublish_at: at(MINUTE) });
      assert.deepEqual(fieldErrors(res), [['unpublish_at', 'invalid_value']]);
      res = await post({ unpublish_at: at(-MINUTE) });
      assert.deepEqual(fieldErrors(res), [['unpublish_at', 'invalid_value']]);
      // Any offset is taken and kept in UTC with milliseconds; null clears.
      res = await post({ publish_at: '2027-04-05T10:30:00+02:00' });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.data.publish_at, '2027-04-05T08:30:00.000Z');
      const cleared = await server.client.put(`/v1/content/${res.body.data.id}`, { key, json: { publish_at: null } });
      assert.equal(cleared.body.data.publish_at, null);
    });

    it('publishes when due: once, published_at the time it was due, changed_by the person who scheduled it', async () => {
      const owner = await server.account();
      const editor = await addUser(server, owner.key, 'editor');
      const editorKey = await addKey(server, owner.key, { user_id: editor.id });
      const due = at(MINUTE);
      const item = await server.content(editorKey.key, { title: 'Launch', publish_at: due });
      const later = await server.content(editorKey.key, { title: 'Later', publish_at: at(10 * MINUTE) });
      await server.content(owner.key, { title: 'Unscheduled' });
      assert.equal(item.status, 'draft');
      assert.equal(item.publish_at, due);
      const scheduled = await server.client.get('/v1/content?scheduled=true', { key: owner.key });
      assert.deepEqual(scheduled.body.data.map((i: { id: string }) => i.id).sort(), [item.id, later.id].sort());
      assert.equal(scheduled.body.pagination.total, 2);
      const sorted = await server.client.get('/v1/content?sort=publish_at', { key: owner.key });
      assert.deepEqual(sorted.body.data.slice(0, 2).map((i: { id: string }) => i.id), [item.id, later.id], 'soonest first, unscheduled after');
      assert.equal(sorted.body.data.length, 3);

      time.advance(MINUTE - 1000);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal((await get(owner.key, item.id as string)).status, 'draft', 'not before its time');
      time.advance(1000);
      const published = await eventually(async () => {
        const now = await get(owner.key, item.id as string);
        return now.status === 'published' && now;
      }, 'the scheduled publication', 15_000);
      assert.equal(published.published_at, due);
      assert.equal(published.publish_at, null);
      assert.equal(published.version, 2);
      const [created, updated, ...more] = await events(owner.key, item.id as string);
      assert.equal(created.type, 'content.created');
      assert.equal(updated.type, 'content.updated');
      assert.equal(updated.data.status, 'published');
      assert.deepEqual(more, [], 'one event for the transition');
      const revision = await server.client.get(`/v1/content/${item.id}/revisions/2`, { key: owner.key });
      assert.equal(revision.body.data.changed_by, editor.id);
      assert.deepEqual((await server.client.get('/v1/content?scheduled=true', { key: owner.key })).body.data.map((i: { id: string }) => i.id), [later.id]);
      // Nothing more happens to it.
      time.advance(MINUTE);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal((await get(owner.key, item.id as string)).version, 2);
    });

    it('archives when unpublish_at comes, after a scheduled publish, and keeps the end when published by schedule', async () => {
      const { key } = await server.account();
      const item = await server.content(key, { title: 'Campaign', publish_at: at(MINUTE), unpublish_at: at(3 * MINUTE) });
      time.advance(MINUTE);
      await eventually(async () => (await get(key, item.id as string)).status === 'published', 'publication', 15_000);
      assert.equal((await get(key, item.id as string)).unpublish_at, at(2 * MINUTE));
      time.advance(2 * MINUTE);
      const archived = await eventually(async () => {
        const now = await get(key, item.id as string);
        return now.status === 'archived' && now;
      }, 'the scheduled archive', 15_000);
      assert.equal(archived.unpublish_at, null);
      assert.deepEqual((await events(key, item.id as string)).map((e: { type: string; data: { status: string } }) => `${e.type}:${e.data.status}`), [
        'content.created:draft',
        'content.updated:published',
        'content.updated:archived',
      ]);
    });

    it('is cancelled by a status set by hand, unless the same request sets a time', async () => {
      const { key } = await server.account();
      const item = await server.content(key, { title: 'Cancelled', publish_at: at(MINUTE), unpublish_at: at(2 * MINUTE) });
      const byHand = await server.client.put(`/v1/content/${item.id}`, { key, json: { status: 'published' } });
      assert.equal(byHand.body.data.publish_at, null);
      assert.equal(byHand.body.data.unpublish_at, null);
      const kept = await server.content(key, { title: 'Kept end', publish_at: at(MINUTE) });
      const withEnd = await server.client.put(`/v1/content/${kept.id}`, { key, json: { status: 'published', unpublish_at: at(2 * MINUTE) } });
      assert.equal(withEnd.status, 200, withEnd.text);
      assert.equal(withEnd.body.data.publish_at, null);
      // An edit that leaves the status alone keeps the schedule.
      const edited = await server.content(key, { title: 'Edited', publish_at: at(MINUTE) });
      assert.equal((await server.client.put(`/v1/content/${edited.id}`, { key, json: { title: 'Edited again', status: 'draft' } })).body.data.publish_at, at(MINUTE));
      time.advance(2 * MINUTE + 1000);
      await eventually(async () => (await get(key, kept.id as string)).status === 'archived', 'the kept end', 15_000);
      await eventually(async () => (await get(key, edited.id as string)).status === 'published', 'the edited item', 15_000);
      const cancelled = await get(key, item.id as string);
      assert.equal(cancelled.status, 'published');
      assert.equal(cancelled.version, 2, 'nothing happened at the cancelled times');
    });

    it('catches up after downtime, once', async () => {
      const { key } = await server.account();
      const item = await server.content(key, { title: 'While down', publish_at: at(MINUTE) });
      await Promise.all(server.apps.map((app) => app.shutdown()));
      time.advance(10 * MINUTE);
      const restarted = await startSecondInstance(server, { clock: time.clock });
      try {
        await eventually(async () => {
          const res = await restarted.client.get(`/v1/content/${item.id}`, { key });
          return res.body.data.status === 'published';
        }, 'the publication at start', 15_000);
        const res = await restarted.client.get(`/v1/content/${item.id}`, { key });
        assert.equal(res.body.data.published_at, at(-9 * MINUTE), 'dated when it was due');
        const log = (await restarted.client.get('/v1/events?limit=100', { key })).body.data.filter((e: { data: { id: string } }) => e.data.id === item.id);
        assert.equal(log.length, 2);
      } finally {
        await restarted.close();
        // The rest of the suite gets a server of its own (this one's files and database go).
        await server.close();
        server = await startServer(store, { clock: time.clock, env: { SMTP_URL: smtp.url() } });
      }
    });

    it('leaves the item as it was and tells the person by e-mail when they may no longer publish it', async () => {
      const owner = await server.account();
      const author = await addUser(server, owner.key, 'editor', { name: 'Ed Itor' });
      const authorKey = await addKey(server, owner.key, { user_id: author.id });
      const item = await server.content(authorKey.key, { title: 'Needs rights', publish_at: at(MINUTE) });
      assert.equal((await server.client.put(`/v1/users/${author.id}`, { key: owner.key, json: { role: 'viewer' } })).status, 200);
      time.advance(MINUTE);
      const [mail] = await smtp.waitForMailTo(author.email, 1, /Scheduled publication failed/);
      assert.equal(mail!.subject, 'Scheduled publication failed: “Needs rights”');
      assert.match(mail!.text, /now a viewer, who may not publish this item/);
      const after = await get(owner.key, item.id as string);
      assert.equal(after.status, 'draft');
      assert.equal(after.version, 1);
      assert.equal(after.publish_at, at(0), 'the time it was due stays, for people to see');
      assert.deepEqual((await server.client.get('/v1/content?scheduled=true', { key: owner.key })).body.data, [], 'no longer pending');
      assert.equal((await events(owner.key, item.id as string)).length, 1, 'no event');

      // Removed altogether: the account's owners and admins hear of it instead.
      const gone = await addUser(server, owner.key, 'editor');
      const goneKey = await addKey(server, owner.key, { user_id: gone.id });
      const orphan = await server.content(goneKey.key, { title: 'Orphaned', publish_at: at(MINUTE) });
      assert.equal((await server.client.delete(`/v1/users/${gone.id}`, { key: owner.key })).status, 204);
      time.advance(MINUTE);
      const [told] = await smtp.waitForMailTo(owner.email, 1, /Orphaned/);
      assert.match(told!.text, /no longer a user of the account/);
      assert.equal((await get(owner.key, orphan.id as string)).status, 'draft');
    });
  });
}
