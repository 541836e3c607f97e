// Invitations by e-mail (CONTRACT.md §16) through a real SMTP server: POST /v1/users without a
// password e-mails the new user a one-time link (valid 7 days) to the set-password page; after it
// the person signs in; the link works once; POST /v1/users/{id}/invite sends a fresh one (202) and
// the old one stops working; no token ever reaches a log line.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadForm, pathOf, postForm, setPasswordThrough, textOf } from './helpers/forms.js';
import { manualClock } from './helpers/limits.js';
import { addKey, addUser, uniqueEmail } from './helpers/people.js';
import { startServer, type TestServer } from './helpers/server.js';
import { signInRequest } from './helpers/sessions.js';
import { linkIn, SmtpSink } from './helpers/smtp.js';
import { testStores } from './helpers/stores.js';

const DAY = 86_400_000;
const FROM = 'Content Service <cms@example.test>';

for (const store of testStores()) {
  describe(`invitations by e-mail (${store})`, () => {
    const time = manualClock('2027-02-01T10:00:00.000Z');
    let server: TestServer;
    let smtp: SmtpSink;
    before(async () => {
      smtp = await SmtpSink.start();
      server = await startServer(store, { clock: time.clock, env: { SMTP_URL: smtp.url(), MAIL_FROM: FROM } });
    });
    after(async () => {
      await server.close();
      await smtp.close();
    });

    const setPassword = (link: string, password: string) => setPasswordThrough(server.client, link, password);

    it('e-mails a user added without a password a link; the page sets the password and the person signs in', async () => {
      const owner = await server.account();
      const email = uniqueEmail('invited');
      const user = await addUser(server, owner.key, 'editor', { email, name: 'Ines Invited' });
      const refused = await signInRequest(server.client, email, 'whatever will do here');
      assert.equal(refused.status, 401, 'no password yet: no sign-in');

      const [mail] = await smtp.waitForMailTo(email);
      assert.deepEqual(mail!.recipients, [email]);
      assert.deepEqual(mail!.to, [email], 'one recipient in To');
      assert.equal(mail!.from, `"Content Service" <cms@example.test>`);
      assert.equal(mail!.subject, 'Owner invited you to the Content Management Service');
      assert.match(mail!.messageId, /^<mail_[0-9a-z]{26}@example\.test>$/);
      assert.equal(mail!.headers.get('auto-submitted'), 'auto-generated');
      const link = linkIn(mail!);
      assert.ok(link.startsWith(`${server.app.publicUrl()}/password/set?token=`), link);
      assert.match(mail!.text, /added you to their account as an editor/);
      assert.match(mail!.text, /expires on 8 February 2027 at 10:00 UTC/);
      assert.ok(mail!.html.includes(`href="${link}"`), 'the HTML part links to the same page');
      assert.match(textOf(mail!.html), /added you to their account as an editor/);

      const page = await loadForm(server.client, pathOf(link));
      assert.equal(page.res.status, 200);
      assert.match(String(page.res.headers['content-type']), /^text\/html/);
      assert.match(String(page.res.headers['content-security-policy']), /frame-ancestors 'none'/);
      assert.match(page.res.text, /<label for="field-password">New password<\/label>/);
      assert.match(page.res.text, /<button class="primary" type="submit">Set password<\/button>/);
      assert.ok(textOf(page.res.text).includes(email));
      assert.equal(page.res.headers['x-ratelimit-limit'], undefined, 'a page, not the API');

      const short = await postForm(server.client, '/password/set', { form_token: page.token, token: new URL(link).searchParams.get('token')!, password: 'too short' }, { cookie: page.cookie });
      assert.equal(short.status, 422);
      assert.match(textOf(short.text), /at least 12 characters/);

      const done = await setPassword(link, 'a brand new passphrase');
      assert.equal(done.status, 200, done.text);
      assert.match(textOf(done.text), /You can now sign in as/);
      const signedIn = await signInRequest(server.client, email, 'a brand new passphrase');
      assert.equal(signedIn.status, 200, signedIn.text);
      assert.equal(signedIn.body.data.user.id, user.id);

      const again = await server.client.get(pathOf(link));
      assert.equal(again.status, 410, 'a link works once');
      assert.match(textOf(again.text), /no longer works/);
      const reuse = await setPassword(link, 'another passphrase!!');
      assert.equal(reuse.status, 410);
      assert.equal((await signInRequest(server.client, email, 'another passphrase!!')).status, 401);
    });

    it('sends nothing to a user created with a password', async () => {
      const owner = await server.account();
      const withPassword = await addUser(server, owner.key, 'viewer', { password: 'a password of theirs' });
      const invited = await addUser(server, owner.key, 'viewer');
      await smtp.waitForMailTo(invited.email);
      const rows = await server.app.store.db.selectFrom('mail_outbox').select(['recipient', 'kind']).where('account_id', '=', owner.accountId).execute();
      assert.deepEqual(rows, [{ recipient: invited.email, kind: 'invitation' }]);
      assert.equal(smtp.received.filter((m) => m.recipients.includes(withPassword.email)).length, 0);
    });

    it('POST /v1/users/{id}/invite sends a fresh link (202); the earlier one stops working', async () => {
      const owner = await server.account();
      const user = await addUser(server, owner.key, 'author');
      const [first] = await smtp.waitForMailTo(user.email);
      time.advance(DAY);
      const res = await server.client.post(`/v1/users/${user.id}/invite`, { key: owner.key });
      assert.equal(res.status, 202, res.text);
      assert.deepEqual(res.body.data, { user_id: user.id, email: user.email, expires_at: '2027-02-09T10:00:00.000Z' });
      assert.match(res.body.meta.request_id, /^req_/);
      const [, second] = await smtp.waitForMailTo(user.email, 2);
      assert.notEqual(linkIn(second!), linkIn(first!));
      assert.notEqual(second!.messageId, first!.messageId);
      assert.equal((await server.client.get(pathOf(linkIn(first!)))).status, 410, 'the earlier link is dead');
      assert.equal((await setPassword(linkIn(second!), 'the second link works')).status, 200);
      const taken = await server.client.post(`/v1/users/${user.id}/invite`, { key: owner.key });
      assert.equal(taken.status, 409, 'a password is set: they use "Forgot password?"');
      assert.equal(taken.body.code, 'conflict');
    });

    it('POST /v1/users/{id}/invite follows the rules of changing that user', async () => {
      const owner = await server.account();
      const other = await server.account();
      const admin = await addUser(server, owner.key, 'admin', { password: 'admin passphrase!' });
      const adminKey = (await addKey(server, owner.key, { user_id: admin.id })).key;
      const viewer = await addUser(server, owner.key, 'viewer', { password: 'viewer passphrase' });
      const viewerKey = (await addKey(server, owner.key, { user_id: viewer.id })).key;
      const pending = await addUser(server, owner.key, 'editor');
      const pendingOwner = await addUser(server, owner.key, 'owner');
      const invite = (id: string, key: string, json?: unknown) => server.client.post(`/v1/users/${id}/invite`, { key, json });

      assert.equal((await invite(pending.id, viewerKey)).status, 403, 'a viewer may not');
      assert.equal((await invite(pendingOwner.id, adminKey)).status, 403, 'an admin never acts on an owner');
      assert.equal((await invite(pending.id, adminKey)).status, 202);
      assert.equal((await invite(pending.id, other.key)).status, 404, 'another account: not found');
      assert.equal((await invite('user_01jd2x3m4n5p6q7r8s9t0v1w2x', owner.key)).status, 404);
      const extra = await invite(pending.id, owner.key, { email: 'x@example.com' });
      assert.equal(extra.status, 422);
      assert.equal(extra.body.errors[0].code, 'unknown_field');
      assert.equal((await invite(pending.id, owner.key, {})).status, 202);
    });

    it('expires an invitation after 7 days', async () => {
      const owner = await server.account();
      const user = await addUser(server, owner.key, 'viewer');
      const [mail] = await smtp.waitForMailTo(user.email);
      time.advance(7 * DAY - 60_000);
      assert.equal((await server.client.get(pathOf(linkIn(mail!)))).status, 200, 'still valid a minute before');
      time.advance(60_000);
      assert.equal((await server.client.get(pathOf(linkIn(mail!)))).status, 410);
      assert.equal((await setPassword(linkIn(mail!), 'too late for this')).status, 410);
    });

    it('refuses a form sent from elsewhere or without its token', async () => {
      const owner = await server.account();
      const user = await addUser(server, owner.key, 'viewer');
      const link = linkIn((await smtp.waitForMailTo(user.email))[0]!);
      const form = await loadForm(server.client, pathOf(link));
      const fields = { form_token: form.token, token: new URL(link).searchParams.get('token')!, password: 'a fine passphrase' };
      assert.equal((await postForm(server.client, '/password/set', fields, { cookie: form.cookie, origin: 'https://evil.example' })).status, 403);
      assert.equal((await postForm(server.client, '/password/set', fields, {})).status, 403, 'no form cookie');
      assert.equal((await postForm(server.client, '/password/set', fields, { origin: 'null' })).status, 403, 'Origin: null without the form cookie');
      // A browser posts a no-referrer page's form with `Origin: null`: the form cookie decides.
      assert.equal((await postForm(server.client, '/password/set', fields, { cookie: form.cookie, origin: 'null' })).status, 200, 'the link was not used up');
    });

    it('writes no token or link to any log line', async () => {
      const owner = await server.account();
      const user = await addUser(server, owner.key, 'viewer');
      const link = linkIn((await smtp.waitForMailTo(user.email))[0]!);
      await server.client.get(pathOf(link));
      const token = new URL(link).searchParams.get('token')!;
      await new Promise((resolve) => setTimeout(resolve, 100));
      const leaks = server.logs.filter((line) => line.includes(token) || line.includes('/password/set?token=') && !line.includes('[REDACTED]'));
      assert.deepEqual(leaks, []);
      assert.ok(server.logs.some((line) => line.includes('"url":"/password/set?token=[REDACTED]"')), 'the page request is logged, its token redacted');
      assert.ok(server.logs.some((line) => line.includes('"msg":"mail sent"') && line.includes(user.email)), 'each send is logged with its recipient');
    });
  });
}
