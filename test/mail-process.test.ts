// E-mail across process deaths (CONTRACT.md §16: nothing lost by a restart or an SMTP outage), with
// the real server as a child process and a real SMTP server here: a message on the wire when the
// process is killed (kill -9 after the commit, before the SMTP server accepted it) is sent after a
// restart once its claim lapses, with the same Message-ID; and one queued while the SMTP server
// was down is sent by the next start.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { killChildren, killHard, withServerProcesses, type Processes } from './helpers/process.js';
import { pathOf } from './helpers/forms.js';
import { uniqueEmail } from './helpers/people.js';
import { linkIn, SmtpSink, type Answer } from './helpers/smtp.js';
import { testStores } from './helpers/stores.js';

interface Scenario extends Processes {
  smtp: SmtpSink;
}

describe('mail across crashes and restarts', { concurrency: true }, () => {
  after(() => killChildren());
  for (const store of testStores()) {
    describe(`mail processes (${store})`, { concurrency: false }, () => {
      /** An SMTP server, a fresh store, and a way to start servers on it; all undone when `work` ends. */
      async function scenario(answer: (index: number) => Answer, work: (s: Scenario) => Promise<void>): Promise<void> {
        const smtp = await SmtpSink.start({ answer });
        try {
          await withServerProcesses(store, (processes) => work({ ...processes, smtp }));
        } finally {
          await smtp.close();
        }
      }

      it('sends a message again after a kill -9 during its sending, once its claim lapses, with the same Message-ID', () =>
        scenario((i) => (i === 0 ? 'hold' : 'accept'), async ({ smtp, env, start }) => {
          const mailEnv = { ...env, SMTP_URL: smtp.url(), WEBHOOK_LEASE_SECONDS: '3', MAIL_RETRY_SCHEDULE: '1' };
          const first = await start(mailEnv, true);
          const email = uniqueEmail('crash');
          const created = await first.server.client.post('/v1/users', { key: first.key, json: { email, name: 'Crash Test', role: 'viewer' } });
          assert.equal(created.status, 201, created.text);

          // The message is committed and on the wire; the SMTP server has not answered: now the process dies.
          const [inFlight] = await smtp.waitFor((r) => r.length === 1, 15_000, smtp.arrived);
          assert.equal(smtp.received.length, 0);
          await killHard(first.server);

          const second = await start(mailEnv);
          const [delivered] = await smtp.waitFor((r) => r.length === 1, 20_000);
          assert.ok(delivered!.at - inFlight!.at >= 2900, `sent again ${delivered!.at - inFlight!.at} ms later; the claim lasts 3 s`);
          assert.equal(delivered!.messageId, inFlight!.messageId, 'the same message');
          assert.equal(delivered!.raw, inFlight!.raw, 'the same bytes');
          assert.deepEqual(delivered!.recipients, [email]);
          const page = await second.server.client.get(pathOf(linkIn(delivered!)));
          assert.equal(page.status, 200, 'the link works');
          await sleep(1500);
          assert.equal(smtp.arrived.length, 2, 'the held attempt and the one after the restart, nothing more');
        }));

      it('sends, after a restart, a message queued while the SMTP server was down and the process was killed', () =>
        scenario(() => 'accept', async ({ smtp, env, start }) => {
          const probe = await SmtpSink.start();
          const deadPort = probe.address;
          await probe.close();
          const first = await start({ ...env, SMTP_URL: `smtp://127.0.0.1:${deadPort}`, MAIL_RETRY_SCHEDULE: '1' }, true);
          const email = uniqueEmail('outage');
          assert.equal((await first.server.client.post('/v1/users', { key: first.key, json: { email, name: 'Outage', role: 'viewer' } })).status, 201);
          await sleep(500);
          await killHard(first.server);

          await start({ ...env, SMTP_URL: smtp.url(), MAIL_RETRY_SCHEDULE: '1' });
          const [delivered] = await smtp.waitFor((r) => r.length === 1, 20_000);
          assert.deepEqual(delivered!.recipients, [email]);
          assert.match(delivered!.subject, /invited you/);
        }));
    });
  }
});
