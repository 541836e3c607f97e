// Two instances sharing one store, as behind a load balancer: both run a mail worker, and each
// attempt of each message is made by exactly one of them (CONTRACT.md §16: a claimed row, as for
// webhook deliveries). Users are invited through both instances at once and the SMTP server
// refuses every message once (451) before it accepts it, so first attempts and retries are all
// contended; the server must see each Message-ID exactly twice: the refused attempt and the accepted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSecondInstance, type SecondInstance } from './helpers/instance.js';
import { uniqueEmail } from './helpers/people.js';
import { startServer, type TestServer } from './helpers/server.js';
import { SmtpSink } from './helpers/smtp.js';
import { testStores } from './helpers/stores.js';

const USERS = 30;

for (const store of testStores()) {
  describe(`mail with two instances on one store (${store})`, () => {
    let server: TestServer;
    let second: SecondInstance;
    let smtp: SmtpSink;
    before(async () => {
      const seen = new Set<string>();
      // The first arrival of each message is refused for now; the next is accepted.
      smtp = await SmtpSink.start({
        answer: (i) => {
          const id = smtp.arrived[i]!.messageId;
          if (seen.has(id)) return 'accept';
          seen.add(id);
          return { code: 451, message: 'Greylisted, try again' };
        },
      });
      const env = { SMTP_URL: smtp.url(), MAIL_RETRY_SCHEDULE: '1' };
      server = await startServer(store, { env });
      second = await startSecondInstance(server, { env });
    });
    after(async () => {
      await second.close();
      await server.close();
      await smtp.close();
    });

    it('sends each message once between them', async () => {
      const owner = await server.account();
      const clients = [server.client, second.client];
      const emails: string[] = [];
      for (let i = 0; i < USERS; i += 5) {
        await Promise.all(
          [0, 1, 2, 3, 4].map((j) => {
            const email = uniqueEmail(`pair${i + j}`);
            emails.push(email);
            return clients[(i + j) % 2]!.post('/v1/users', { key: owner.key, json: { email, name: `User ${i + j}`, role: 'viewer' } }).then((res) => assert.equal(res.status, 201, res.text));
          }),
        );
      }
      await smtp.waitFor((r) => r.length >= USERS, 30_000);
      await sleep(2000); // a duplicate would arrive by now
      const arrivals = new Map<string, number>();
      for (const mail of smtp.arrived) arrivals.set(mail.messageId, (arrivals.get(mail.messageId) ?? 0) + 1);
      assert.equal(arrivals.size, USERS, 'one message per invitation');
      assert.deepEqual([...arrivals].filter(([, n]) => n !== 2), [], 'each message: the refused attempt and the accepted one, no more');
      assert.deepEqual(smtp.received.map((m) => m.recipients[0]).sort(), emails.sort(), 'every invited user got exactly one');
      const rows = await server.app.store.db.selectFrom('mail_outbox').select(['status', 'attempts']).where('account_id', '=', owner.accountId).execute();
      assert.deepEqual(rows.filter((r) => r.status !== 'sent' || Number(r.attempts) !== 2), []);
    });
  });
}
