// E-mail as an attack surface (issue 21, P3-3 and P3-4), through a real SMTP server: "Forgot
// password?" has a bucket of its own per e-mail address (3 an hour), so a flood of anonymous reset
// requests never locks the person out of signing in; at most 3 invitations an hour go to one
// recipient, counted across instances; a name in a subject is plain text cut at 60 characters.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { submitForm, textOf } from './helpers/forms.js';
import { manualClock } from './helpers/limits.js';
import { addUser, uniqueEmail } from './helpers/people.js';
import { startServer, type TestServer } from './helpers/server.js';
import { signIn, signInRequest } from './helpers/sessions.js';
import { SmtpSink } from './helpers/smtp.js';
import { testStores } from './helpers/stores.js';

const HOUR = 3_600_000;
const RESET = /Reset your/;
const INVITED = /invited you/;

for (const store of testStores()) {
  describe(`e-mail abuse (${store})`, () => {
    const time = manualClock('2027-04-01T08:00:00.000Z');
    let server: TestServer;
    let smtp: SmtpSink;
    before(async () => {
      smtp = await SmtpSink.start();
      server = await startServer(store, { clock: time.clock, env: { SMTP_URL: smtp.url(), IP_RATE_LIMIT: '100000' } });
    });
    after(async () => {
      await server.close();
      await smtp.close();
    });

    const forgot = (email: string) => submitForm(server.client, '/password/forgot', '/password/forgot', { email });

    it('a flood of reset requests is held at 3 an hour per address, and the right password still signs in', async () => {
      const owner = await server.account();
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) statuses.push((await forgot(owner.email)).status);
      assert.deepEqual(statuses, [200, 200, 200, ...Array<number>(22).fill(429)]);
      const refused = await forgot(owner.email);
      const retry = Number(refused.headers['retry-after']);
      assert.ok(retry >= 1 && retry <= 3600, `Retry-After ${retry}`);
      assert.match(textOf(refused.text), /Too many password reset requests/);

      // During the flood: the person signs in, and a wrong password is still only a 401.
      assert.equal((await signInRequest(server.client, owner.email, 'not the password at all')).status, 401);
      const session = await signIn(server.client, owner.email, owner.password);
      assert.equal(session.res.status, 200);

      await smtp.waitForMailTo(owner.email, 3, RESET);
      await sleep(500);
      assert.equal(smtp.to(owner.email, RESET).length, 3, 'three reset mails, no more');

      // The window is an hour: then the person can ask again.
      time.advance(HOUR);
      assert.equal((await forgot(owner.email)).status, 200);
    });

    it('failed sign-ins do not use up reset requests either', async () => {
      const owner = await server.account();
      for (let i = 0; i < 10; i++) assert.equal((await signInRequest(server.client, owner.email, `wrong password ${i}`)).status, 401);
      assert.equal((await signInRequest(server.client, owner.email, owner.password)).status, 429, 'sign-in has its own limit');
      assert.equal((await forgot(owner.email)).status, 200, 'and resets have theirs');
      await smtp.waitForMailTo(owner.email, 1, RESET);
    });

    it('sends at most 3 invitations an hour to one recipient: then 429 with Retry-After, and nothing is created or sent', async () => {
      const owner = await server.account();
      const email = uniqueEmail('invitee');
      const user = await addUser(server, owner.key, 'editor', { email });
      const again = [];
      for (let i = 0; i < 3; i++) again.push(await server.client.post(`/v1/users/${user.id}/invite`, { key: owner.key }));
      assert.deepEqual(again.map((r) => r.status), [202, 202, 429]);
      const refused = again[2]!;
      assert.equal(refused.body.code, 'rate_limited');
      const retry = Number(refused.headers['retry-after']);
      assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 3600, `Retry-After ${retry}`);
      assert.ok(refused.headers['x-ratelimit-limit'], 'the account\'s rate-limit headers as on any answer');

      // The same recipient through POST /v1/users (after the user is gone) is refused too, and not created.
      assert.equal((await server.client.delete(`/v1/users/${user.id}`, { key: owner.key })).status, 204);
      const recreate = await server.client.post('/v1/users', { key: owner.key, json: { email, name: 'Again', role: 'viewer' } });
      assert.equal(recreate.status, 429);
      const users = await server.client.get('/v1/users?limit=100', { key: owner.key });
      assert.ok(!users.body.data.some((u: { email: string }) => u.email === email), 'no user was created');

      await smtp.waitForMailTo(email, 3, INVITED);
      await sleep(500);
      assert.equal(smtp.to(email, INVITED).length, 3, 'three invitations, no more');

      // Another recipient is not held back; after the hour, this one gets invitations again.
      await addUser(server, owner.key, 'viewer');
      time.advance(HOUR);
      assert.equal((await server.client.post('/v1/users', { key: owner.key, json: { email, name: 'Again', role: 'viewer' } })).status, 201);
    });

    it('an inviter\'s name is plain text in the subject, cut at 60 characters', async () => {
      const owner = await server.account();
      const name = 'Dr. Maximiliane Überlang-Wortreich von und zu Klick-Hier-Für-Ihren-Preis 🎁 Gewinnspiel';
      assert.equal((await server.client.put(`/v1/users/${owner.userId}`, { key: owner.key, json: { name } })).status, 200);
      const email = uniqueEmail('named');
      await addUser(server, owner.key, 'viewer', { email });
      const [mail] = await smtp.waitForMailTo(email, 1, INVITED);
      const shown = mail!.subject.replace(/ invited you to the Content Management Service$/, '');
      assert.notEqual(shown, mail!.subject);
      assert.equal([...new Intl.Segmenter().segment(shown)].length, 60);
      assert.ok(shown.endsWith('…'), shown);
      assert.ok(name.startsWith(shown.slice(0, -1)), shown);
      assert.match(mail!.text, new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the body names the inviter in full');

      const short = 'Ann Admin';
      assert.equal((await server.client.put(`/v1/users/${owner.userId}`, { key: owner.key, json: { name: short } })).status, 200);
      const next = uniqueEmail('named');
      await addUser(server, owner.key, 'viewer', { email: next });
      assert.equal((await smtp.waitForMailTo(next, 1, INVITED))[0]!.subject, 'Ann Admin invited you to the Content Management Service');
    });
  });
}
