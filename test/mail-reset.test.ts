// "Forgot password?" (CONTRACT.md §16) through a real SMTP server: the page answers the same whether
// an account uses the address or not (and mails only the one that exists), it is throttled per
// e-mail address and per client address, refuses cross-site posts, and its link (valid 1 hour,
// once, the newest only) sets a password that ends every session of the person.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadForm, pathOf, postForm, setPasswordThrough, submitForm, textOf } from './helpers/forms.js';
import { eventually, manualClock } from './helpers/limits.js';
import { startServer, type TestServer } from './helpers/server.js';
import { signIn, signInRequest } from './helpers/sessions.js';
import { linkIn, SmtpSink } from './helpers/smtp.js';
import { testStores } from './helpers/stores.js';

const HOUR = 3_600_000;

for (const store of testStores()) {
  describe(`password reset (${store})`, () => {
    const time = manualClock('2027-03-01T09:00:00.000Z');
    let server: TestServer;
    let smtp: SmtpSink;
    before(async () => {
      smtp = await SmtpSink.start();
      server = await startServer(store, { clock: time.clock, env: { SMTP_URL: smtp.url(), IP_RATE_LIMIT: '1000' } });
    });
    after(async () => {
      await server.close();
      await smtp.close();
    });

    const forgot = (email: string) => submitForm(server.client, '/password/forgot', '/password/forgot', { email });
    const setPassword = (link: string, password: string) => setPasswordThrough(server.client, link, password);
    const outboxTo = (email: string) => server.app.store.db.selectFrom('mail_outbox').select('kind').where('recipient', '=', email).execute();

    it('shows the page: a field labelled Email, a form token, the security headers of a page', async () => {
      const form = await loadForm(server.client, '/password/forgot');
      assert.equal(form.res.status, 200);
      assert.match(form.res.text, /<label for="field-email">Email<\/label>/);
      assert.match(form.token, /^[A-Za-z0-9_-]{43}$/);
      assert.match(form.cookie, /^__Host-cms_form=/);
      assert.match(String(form.res.headers['content-security-policy']), /default-src 'none'.*frame-ancestors 'none'/);
      assert.equal(form.res.headers['cache-control'], 'no-store');
      assert.equal(form.res.headers['x-ratelimit-limit'], undefined);
    });

    it('answers the same whether the address exists or not, and mails only the one that does', async () => {
      const owner = await server.account();
      const unknown = `nobody-${Date.now()}@example.com`;
      const known = await forgot(owner.email);
      const missing = await forgot(unknown);
      assert.equal(known.status, 200);
      assert.equal(missing.status, 200);
      const normalise = (html: string, email: string) => html.replace(email, 'ADDRESS');
      assert.equal(normalise(known.text, owner.email), normalise(missing.text, unknown), 'the same page, word for word');
      assert.deepEqual(Object.keys(known.headers).sort(), Object.keys(missing.headers).sort());
      assert.match(textOf(known.text), /If an account uses .* we have sent it a link/);

      const [mail] = await smtp.waitForMailTo(owner.email);
      assert.equal(mail!.subject, 'Reset your Content Management Service password');
      assert.match(mail!.text, /expires on 1 March 2027 at 10:00 UTC/);
      assert.ok(mail!.html.includes(`href="${linkIn(mail!)}"`));
      // The reset for the unknown address was handled first or not at all: there is no mail for it.
      await eventually(async () => (await outboxTo(owner.email)).length === 1, 'the reset queued');
      assert.deepEqual(await outboxTo(unknown), []);
      assert.equal(smtp.arrived.filter((m) => m.recipients.includes(unknown)).length, 0);
    });

    it('sets the password through the link, ends every session of the person, and works once', async () => {
      const owner = await server.account();
      const session = await signIn(server.client, owner.email, owner.password);
      assert.equal((await session.send('GET', '/v1/content')).status, 200);
      await forgot(owner.email);
      const link = linkIn((await smtp.waitForMailTo(owner.email))[0]!);
      const done = await setPassword(link, 'my reset passphrase');
      assert.equal(done.status, 200, done.text);
      assert.equal((await session.send('GET', '/v1/content')).status, 401, 'the open session ended');
      assert.equal((await signInRequest(server.client, owner.email, owner.password)).status, 401, 'the old password is gone');
      assert.equal((await signInRequest(server.client, owner.email, 'my reset passphrase')).status, 200);
      assert.equal((await setPassword(link, 'once more, please!')).status, 410);
      // The change is an event like any other change of the user.
      const events = await server.client.get('/v1/events?limit=100', { key: owner.key });
      assert.ok(events.body.data.some((e: { type: string; data: { id: string } }) => e.type === 'user.updated' && e.data.id === owner.userId));
    });

    it('keeps only the newest link, and each for 1 hour', async () => {
      const owner = await server.account();
      await forgot(owner.email);
      const [first] = await smtp.waitForMailTo(owner.email);
      await forgot(owner.email);
      const [, second] = await smtp.waitForMailTo(owner.email, 2);
      assert.equal((await server.client.get(pathOf(linkIn(first!)))).status, 410, 'the older link ended');
      const path = pathOf(linkIn(second!));
      time.advance(HOUR - 1000);
      assert.equal((await server.client.get(path)).status, 200);
      time.advance(1000);
      assert.equal((await server.client.get(path)).status, 410, 'expired after an hour');
      assert.equal((await setPassword(linkIn(second!), 'an hour too late')).status, 410);
    });

    it('throttles requests per e-mail address (3 an hour), whether it exists or not', async () => {
      const address = `throttled-${Date.now()}@example.com`;
      for (let i = 0; i < 3; i++) assert.equal((await forgot(address)).status, 200);
      const refused = await forgot(address);
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      assert.match(refused.headers['content-type'] as string, /^text\/html/);
      assert.match(textOf(refused.text), /Too many/);
      assert.equal((await forgot(`other-${Date.now()}@example.com`)).status, 200, 'another address is not held back');
    });

    it('refuses a post from another site, or without the form token, and an address that is not one', async () => {
      const form = await loadForm(server.client, '/password/forgot');
      const owner = await server.account();
      const crossSite = await postForm(server.client, '/password/forgot', { form_token: form.token, email: owner.email }, { cookie: form.cookie, origin: 'https://evil.example' });
      assert.equal(crossSite.status, 403);
      const noToken = await postForm(server.client, '/password/forgot', { email: owner.email }, { cookie: form.cookie });
      assert.equal(noToken.status, 403);
      const bad = await postForm(server.client, '/password/forgot', { form_token: form.token, email: 'not an address' }, { cookie: form.cookie });
      assert.equal(bad.status, 422);
      assert.match(textOf(bad.text), /Enter the e-mail address you sign in with/);
      await sleep(300);
      assert.deepEqual(await outboxTo(owner.email), [], 'nothing was sent');
    });
  });
}

describe('password reset throttled per client address', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite', { env: { IP_RATE_LIMIT: '3' } });
  });
  after(() => server.close());

  it('counts requests from one address against its policy, like sign-in', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await submitForm(server.client, '/password/forgot', '/password/forgot', { email: `a${i}-${Date.now()}@example.com` })).status);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  });
});
