// The notices of CONTRACT.md §16 through a real SMTP server: quota alerts at 80 % and 100 % and a
// webhook endpoint disabled (to owners and admins), a key expiring in 7 days (to its user), the
// deprecation notice on an account's first call of a deprecated route (then at most once per 7
// days; naming the route, its dates, its link and the keys that called it, also shown in
// GET /v1/usage as deprecated_calls), and reminders 30, 7 and 1 days before a sunset. Each once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually, manualClock } from './helpers/limits.js';
import { addKey, addUser } from './helpers/people.js';
import { Receiver } from './helpers/receiver.js';
import { startServer, type TestServer } from './helpers/server.js';
import { signIn } from './helpers/sessions.js';
import { SmtpSink } from './helpers/smtp.js';
import { testStores } from './helpers/stores.js';
import { addEndpoint } from './helpers/webhooks.js';
import { clientCredentials, registerApp } from './helpers/oauth.js';

const DAY = 86_400_000;
const DEPRECATIONS = [
  { method: 'GET', path: '/v1/content/:id', deprecated_at: '2027-01-01T00:00:00Z', sunset: '2027-12-01T00:00:00Z', link: 'https://docs.example.com/migrate' },
  { method: 'GET', path: '/v1/users/:id', deprecated_at: '2027-02-01T00:00:00Z', sunset: '2027-06-20T00:00:00Z' },
];

for (const store of testStores()) {
  describe(`e-mail notices (${store})`, () => {
    const time = manualClock('2027-05-10T08:00:00.000Z');
    let server: TestServer;
    let smtp: SmtpSink;
    let receiver: Receiver;
    before(async () => {
      smtp = await SmtpSink.start();
      receiver = await Receiver.start(() => ({ status: 410 }));
      server = await startServer(store, {
        clock: time.clock,
        env: { SMTP_URL: smtp.url(), WEBHOOK_ALLOW_PRIVATE: 'true', DEPRECATIONS: JSON.stringify(DEPRECATIONS) },
      });
    });
    after(async () => {
      await server.close();
      await smtp.close();
      await receiver.close();
    });

    const mailTo = (email: string, subject?: RegExp) => smtp.to(email, subject);
    const waitMail = (email: string, subject: RegExp, count = 1) => smtp.waitForMailTo(email, count, subject);
    const queued = async (accountId: string, kind: string) =>
      (await server.app.store.db.selectFrom('mail_outbox').select('recipient').where('account_id', '=', accountId).where('kind', '=', kind).execute()).map((r) => r.recipient).sort();
    /** An account with an owner, an admin and an editor, all with passwords (so no invitations). */
    async function team(options: { plan?: 'pro' | 'basic'; quota?: number } = {}) {
      const owner = await server.account({ plan: options.plan ?? 'pro', quota: options.quota });
      const admin = await addUser(server, owner.key, 'admin', { password: 'admin passphrase!' });
      const editor = await addUser(server, owner.key, 'editor', { password: 'editor passphrase' });
      return { owner, admin, editor };
    }

    it('tells the owners and admins at 80 % and 100 % of the quota, once each', async () => {
      const { owner, admin, editor } = await team({ plan: 'basic', quota: 10 });
      const get = () => server.client.get('/v1/content', { key: owner.key });
      for (let i = 0; i < 8; i++) assert.equal((await get()).status, 200); // 2 users + 8 = 10
      const [eighty] = await waitMail(owner.email, /80 %/);
      assert.equal(eighty!.subject, 'Your account has used 80 % of its monthly quota');
      assert.match(eighty!.text, /used 8 of its 10 requests this billing cycle/);
      assert.match(eighty!.text, /renews on 10 June 2027 at 00:00 UTC/);
      assert.match(eighty!.text, new RegExp(`${server.app.publicUrl().replace(/[.]/g, '\\.')}/usage`));
      const [full] = await waitMail(owner.email, /whole monthly quota/);
      assert.equal(full!.subject, 'Your account has used its whole monthly quota of 10 requests');
      assert.match(full!.text, /refused with 429 quota_exceeded/);
      await waitMail(admin.email, /80 %/);
      await waitMail(admin.email, /whole monthly quota/);
      for (let i = 0; i < 3; i++) assert.equal((await get()).status, 429);
      await sleep(300);
      assert.deepEqual(await queued(owner.accountId, 'quota_alert'), [admin.email, admin.email, owner.email, owner.email].sort(), 'two each, no more');
      assert.deepEqual(mailTo(editor.email), [], 'editors are not told');
    });

    it('tells the owners and admins when a webhook endpoint is disabled', async () => {
      const { owner, admin, editor } = await team();
      const endpoint = await addEndpoint(server, owner.key, { url: receiver.url('/gone'), description: 'Old receiver' });
      await server.content(owner.key);
      const [mail] = await waitMail(owner.email, /Webhook endpoint disabled/);
      assert.equal(mail!.subject, `Webhook endpoint disabled: ${endpoint.url}`);
      assert.match(mail!.text, /answered 410 Gone/);
      assert.match(mail!.text, /Description: Old receiver/);
      assert.match(mail!.text, /\/settings/);
      await waitMail(admin.email, /Webhook endpoint disabled/);
      assert.deepEqual(await queued(owner.accountId, 'webhook_disabled'), [admin.email, owner.email].sort());
      assert.deepEqual(mailTo(editor.email), []);
    });

    it('tells a key\'s user 7 days before it expires, once per key', async () => {
      const { owner, editor } = await team();
      const at = (days: number) => new Date(time.now() + days * DAY).toISOString();
      await addKey(server, owner.key, { name: 'Soon', expires_at: at(3) });
      await addKey(server, owner.key, { name: 'Later', expires_at: at(10) });
      const revoked = await addKey(server, owner.key, { name: 'Revoked', expires_at: at(2) });
      assert.equal((await server.client.delete(`/v1/api-keys/${revoked.id}`, { key: owner.key })).status, 204);
      const editorKey = await addKey(server, owner.key, { name: 'Editor CI', user_id: editor.id, expires_at: at(5) });

      await server.app.runMailSchedule();
      await server.app.runMailSchedule();
      const [soon] = await waitMail(owner.email, /expires on/);
      assert.match(soon!.subject, /^Your API key “Soon” expires on 13 May 2027$/);
      assert.match(soon!.text, /cms_live_\w{3}…\) expires on 13 May 2027 at 08:00 UTC/);
      const [mine] = await waitMail(editor.email, /expires on/);
      assert.equal(mine!.subject, 'Your API key “Editor CI” expires on 15 May 2027');
      assert.ok(mine!.text.includes(`(${editorKey.key.slice(0, 12)}…)`));
      assert.deepEqual((await queued(owner.accountId, 'key_expiring')).length, 2, 'once per key, however often the schedule runs');

      time.advance(4 * DAY);
      await server.app.runMailSchedule();
      const later = await waitMail(owner.email, /“Later”/);
      assert.equal(later.length, 1);
      assert.equal((await queued(owner.accountId, 'key_expiring')).length, 3);
      assert.deepEqual(mailTo(owner.email, /Revoked/), []);
    });

    it('sends the deprecation notice on an account\'s first call of a deprecated route, then at most once per 7 days', async () => {
      const { owner, admin } = await team();
      const viewer = await addUser(server, owner.key, 'viewer', { password: 'viewer passphrase' });
      const viewerKey = await addKey(server, owner.key, { user_id: viewer.id, name: 'Viewer script' });
      const item = await server.content(owner.key);
      const first = await server.client.get(`/v1/content/${item.id}`, { key: owner.key });
      assert.equal(first.status, 200);
      assert.equal(first.headers.deprecation, `@${Date.parse('2027-01-01T00:00:00Z') / 1000}`);

      const [notice] = await waitMail(owner.email, /deprecated API route/);
      assert.equal(notice!.subject, 'Your account called a deprecated API route: GET /v1/content/:id');
      assert.match(notice!.text, /Route: GET \/v1\/content\/:id/);
      assert.match(notice!.text, /Deprecated since: 1 January 2027/);
      assert.match(notice!.text, /Sunset: 1 December 2027 at 00:00 UTC/);
      assert.match(notice!.text, /Migration notes: https:\/\/docs\.example\.com\/migrate/);
      assert.match(notice!.text, new RegExp(`API key “Default key” \\(${owner.key.slice(0, 12)}…\\), last call on`));
      await waitMail(admin.email, /deprecated API route/);

      // More calls, by other keys and the dashboard: counted, shown in the usage report, no second notice.
      await server.client.get(`/v1/content/${item.id}`, { key: viewerKey.key });
      await server.client.get(`/v1/content/${item.id}`, { key: owner.key });
      const session = await signIn(server.client, owner.email, owner.password);
      assert.equal((await session.send('GET', `/v1/content/${item.id}`)).status, 200);
      const report = (await server.client.get('/v1/usage', { key: owner.key })).body.data.deprecated_calls;
      assert.equal(report.length, 1);
      assert.deepEqual({ ...report[0], keys: undefined, last_called_at: undefined }, {
        method: 'GET',
        path: '/v1/content/:id',
        deprecated_at: '2027-01-01T00:00:00.000Z',
        sunset: '2027-12-01T00:00:00.000Z',
        link: 'https://docs.example.com/migrate',
        calls: 4,
        keys: undefined,
        last_called_at: undefined,
      });
      assert.deepEqual(
        report[0].keys.map((k: { key_id: string; name: string; calls: number }) => [k.name, k.calls]),
        [['Default key', 2], ...[['Dashboard', 1, `dashboard:${owner.userId}`], ['Viewer script', 1, viewerKey.id]].sort((a, b) => (a[2]! < b[2]! ? -1 : 1)).map(([n, c]) => [n, c])],
        'most calls first, then by key id',
      );
      const viewerReport = (await server.client.get('/v1/usage', { key: viewerKey.key })).body.data.deprecated_calls;
      assert.deepEqual(viewerReport[0].keys.map((k: { key_id: string }) => k.key_id), [viewerKey.id], 'others see their own keys only');
      assert.equal(viewerReport[0].calls, 1);

      await eventually(async () => {
        const rows = await server.app.store.db.selectFrom('deprecated_calls').select('calls').where('account_id', '=', owner.accountId).execute();
        return rows.reduce((n, r) => n + Number(r.calls), 0) === 4;
      }, 'the calls written', 15_000);
      assert.deepEqual(await queued(owner.accountId, 'deprecation_notice'), [admin.email, owner.email].sort(), 'one notice each so far');

      time.advance(7 * DAY + 60_000);
      await server.client.get(`/v1/content/${item.id}`, { key: viewerKey.key });
      const notices = await waitMail(owner.email, /deprecated API route/, 2);
      assert.equal(notices.length, 2);
      assert.match(notices[1]!.text, /API key “Viewer script”/);
      assert.match(notices[1]!.text, /The dashboard, signed in as /);
      assert.deepEqual(mailTo(viewer.email, /deprecated/), [], 'viewers are not told');
    });

    it('names an OAuth app that called a deprecated route, in the notice and in the usage report', async () => {
      // The authorization server stamps tokens with the real time: this server keeps it too.
      const real = await startServer(store, {
        env: { SMTP_URL: smtp.url(), DEPRECATIONS: JSON.stringify([{ method: 'GET', path: '/v1/content/:id', deprecated_at: '2026-01-01T00:00:00Z' }]) },
      });
      try {
        const owner = await real.account();
        const app = await registerApp(real, owner.key, { name: 'Nightly sync' });
        const granted = await clientCredentials(real, app, 'content:read');
        assert.equal(granted.status, 200, granted.text);
        const item = await real.content(owner.key, { title: 'Read by an app' });
        // The owner's own key never calls the route: the app's call is the first.
        assert.equal((await real.client.get(`/v1/content/${item.id}`, { key: granted.body.access_token })).status, 200);
        const [notice] = await waitMail(owner.email, /deprecated API route/);
        assert.ok(notice!.text.includes(`The OAuth app “Nightly sync”, acting for ${owner.email}, last call on`), notice!.text);
        const report = (await real.client.get('/v1/usage', { key: owner.key })).body.data.deprecated_calls;
        assert.deepEqual(report[0].keys.map((k: { name: string; calls: number }) => [k.name, k.calls]), [['Nightly sync', 1]]);
      } finally {
        await real.close();
      }
    });

    it('reminds every account that called a route in the last 30 days, 30, 7 and 1 days before its sunset', async () => {
      time.set('2027-05-25T00:00:00.000Z');
      const caller = await team();
      const quiet = await team();
      const user = await server.client.get(`/v1/users/${caller.editor.id}`, { key: caller.owner.key });
      assert.equal(user.status, 200);
      assert.equal(user.headers.sunset, 'Sun, 20 Jun 2027 00:00:00 GMT');
      await waitMail(caller.owner.email, /deprecated API route: GET \/v1\/users\/:id/);

      await server.app.runMailSchedule();
      await server.app.runMailSchedule();
      const [reminder] = await waitMail(caller.owner.email, /stops working/);
      assert.equal(reminder!.subject, 'GET /v1/users/:id stops working in 26 days, on 20 June 2027');
      assert.match(reminder!.text, /API key “Default key”/);
      await waitMail(caller.admin.email, /stops working/);

      time.set('2027-06-14T00:00:00.000Z');
      await server.app.runMailSchedule();
      // Delivered before the clock jumps 5 days: a send still in flight would see its lease lapse
      // under the jump and be made again (at-least-once, the same Message-ID), not a second reminder.
      await waitMail(caller.owner.email, /stops working/, 2);
      time.set('2027-06-19T06:00:00.000Z');
      await server.app.runMailSchedule();
      await server.app.runMailSchedule();
      const reminders = await waitMail(caller.owner.email, /stops working/, 3);
      assert.deepEqual(reminders.map((m) => m.subject), [
        'GET /v1/users/:id stops working in 26 days, on 20 June 2027',
        'GET /v1/users/:id stops working in 6 days, on 20 June 2027',
        'GET /v1/users/:id stops working in 1 day, on 20 June 2027',
      ]);
      time.set('2027-06-21T00:00:00.000Z');
      await server.app.runMailSchedule();
      await sleep(300);
      assert.equal((await queued(caller.owner.accountId, 'deprecation_reminder')).length, 6, 'three each for the owner and the admin');
      assert.deepEqual(await queued(quiet.owner.accountId, 'deprecation_reminder'), [], 'an account that never called it hears nothing');
      assert.deepEqual(mailTo(quiet.owner.email), []);
    });
  });
}
