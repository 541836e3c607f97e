// How messages leave (CONTRACT.md §16), against a real SMTP server: STARTTLS and implicit TLS with
// credentials from SMTP_URL, certificates verified unless the URL says otherwise, the embedded
// default (.eml files under DATA_DIR/mail and one log line without the link), and what happens
// when the server is down, answers 4xx (tried again, the same Message-ID), 5xx (given up at once)
// or stays down for 24 hours (given up, logged).
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import { eventually, manualClock } from './helpers/limits.js';
import { addUser } from './helpers/people.js';
import { startServer, type TestServer } from './helpers/server.js';
import { linkIn, SmtpSink } from './helpers/smtp.js';
import { testStores } from './helpers/stores.js';

const AUTH = { user: 'cms mailer', pass: 'p@ss:word/with&odd' };

/** A server whose mail goes to `smtpUrl`; one invitation queued; returns the invited address. */
async function invite(server: TestServer): Promise<string> {
  const owner = await server.account();
  return (await addUser(server, owner.key, 'viewer')).email;
}

const outbox = (server: TestServer, email: string) =>
  server.app.store.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', email).executeTakeFirstOrThrow();

/** A port nothing listens on (a server started on it and closed again). */
async function deadPort(): Promise<number> {
  const probe = await SmtpSink.start();
  const port = probe.address;
  await probe.close();
  return port;
}

describe('mail transport: TLS and credentials', () => {
  const servers: TestServer[] = [];
  const sinks: SmtpSink[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await Promise.all(sinks.map((s) => s.close()));
  });
  async function setUp(sink: SmtpSink, smtpUrl: string): Promise<TestServer> {
    sinks.push(sink);
    const server = await startServer('sqlite', { env: { SMTP_URL: smtpUrl, MAIL_RETRY_SCHEDULE: '1' } });
    servers.push(server);
    return server;
  }

  it('upgrades smtp:// with STARTTLS when offered and logs in with the URL\'s credentials', async () => {
    const sink = await SmtpSink.start({ mode: 'starttls', auth: AUTH });
    const server = await setUp(sink, sink.url({ verify: false }));
    const email = await invite(server);
    const [mail] = await sink.waitFor((r) => r.length === 1);
    assert.deepEqual(mail!.recipients, [email]);
    assert.equal(mail!.secure, true, 'the session was encrypted');
    assert.equal(mail!.user, AUTH.user);
  });

  it('speaks implicit TLS to smtps://', async () => {
    const sink = await SmtpSink.start({ mode: 'tls', auth: AUTH });
    const server = await setUp(sink, sink.url({ verify: false }));
    const email = await invite(server);
    const [mail] = await sink.waitFor((r) => r.length === 1);
    assert.deepEqual(mail!.recipients, [email]);
    assert.equal(mail!.secure, true);
    assert.ok(sink.url().startsWith('smtps://'));
  });

  it('verifies the server\'s certificate unless the URL turns it off: a self-signed one is refused and retried', async () => {
    const sink = await SmtpSink.start({ mode: 'tls' });
    const server = await setUp(sink, sink.url());
    const email = await invite(server);
    const row = await eventually(async () => {
      const r = await outbox(server, email);
      return r.attempts >= 1 && r;
    }, 'a failed attempt');
    assert.equal(row.status, 'pending', 'tried again later');
    assert.match(row.last_error!, /certificate/i);
    assert.equal(sink.arrived.length, 0);
  });

  it('keeps trying after the server refuses the login (the operator fixes it), and never logs the password', async () => {
    const sink = await SmtpSink.start({ mode: 'starttls', auth: AUTH });
    const server = await setUp(sink, sink.url({ verify: false, auth: { user: AUTH.user, pass: 'wrong password' } }));
    const email = await invite(server);
    const row = await eventually(async () => {
      const r = await outbox(server, email);
      return r.attempts >= 2 && r;
    }, 'two refused attempts');
    assert.equal(row.status, 'pending');
    assert.match(row.last_error!, /EAUTH/);
    assert.deepEqual(server.logs.filter((l) => l.includes('wrong password') || l.includes(AUTH.pass)), []);
  });
});

describe('mail transport: the embedded default', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite');
  });
  after(() => server.close());

  it('writes each message as an .eml file under DATA_DIR/mail and logs one line without the link', async () => {
    const email = await invite(server);
    const dir = path.join(server.dataDir, 'mail');
    const files = await eventually(async () => {
      const names = (await fs.readdir(dir).catch(() => [])).filter((n) => n.endsWith('.eml'));
      return names.length === 1 && names;
    }, 'an .eml file');
    const raw = await fs.readFile(path.join(dir, files[0]!), 'utf8');
    const parsed = await simpleParser(raw);
    assert.equal(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '', email);
    assert.equal(parsed.from?.text, '"Content Service" <no-reply@localhost>', 'MAIL_FROM defaults to Content Service <no-reply@localhost>');
    assert.match(parsed.subject ?? '', /invited you/);
    assert.match(parsed.messageId ?? '', /^<mail_[0-9a-z]{26}@localhost>$/);
    assert.ok(parsed.text && typeof parsed.html === 'string', 'a plain-text part and an HTML part');
    const link = linkIn({ text: parsed.text } as never);
    const token = new URL(link).searchParams.get('token')!;

    const lines = server.logs.filter((l) => l.includes('"msg":"mail written"'));
    assert.equal(lines.length, 1);
    const line = JSON.parse(lines[0]!);
    assert.equal(line.to, email);
    assert.equal(line.subject, parsed.subject);
    assert.deepEqual(server.logs.filter((l) => l.includes(token) || l.includes('/password/set?token=')), [], 'no log line holds the link');
    const row = await outbox(server, email);
    assert.equal(row.status, 'sent');
    assert.equal(row.text_body, null, 'the body (with its link) is erased once sent');
    assert.equal(row.html_body, null);
  });
});

for (const store of testStores()) {
  describe(`mail transport: failures and retries (${store})`, () => {
    const time = manualClock('2027-04-01T12:00:00.000Z');
    const servers: TestServer[] = [];
    const sinks: SmtpSink[] = [];
    after(async () => {
      await Promise.all(servers.map((s) => s.close()));
      await Promise.all(sinks.map((s) => s.close()));
    });
    async function setUp(smtpUrl: string, clock = false): Promise<TestServer> {
      const server = await startServer(store, { clock: clock ? time.clock : undefined, env: { SMTP_URL: smtpUrl, MAIL_RETRY_SCHEDULE: '1' } });
      servers.push(server);
      return server;
    }

    it('keeps a message while the SMTP server is down and sends it, once, when it is back', async () => {
      const port = await deadPort();
      const server = await setUp(`smtp://127.0.0.1:${port}`);
      const email = await invite(server);
      const failed = await eventually(async () => {
        const r = await outbox(server, email);
        return r.attempts >= 2 && r;
      }, 'two failed attempts');
      assert.equal(failed.status, 'pending');
      assert.match(failed.last_error!, /ECONNREFUSED|ECONNECTION|ESOCKET/);
      const sink = await SmtpSink.start({ port });
      sinks.push(sink);
      const [mail] = await sink.waitFor((r) => r.length === 1);
      assert.deepEqual(mail!.recipients, [email]);
      const sent = await eventually(async () => {
        const r = await outbox(server, email);
        return r.status === 'sent' && r;
      }, 'recorded as sent');
      assert.equal(mail!.messageId, sent.message_id, 'the Message-ID chosen when it was queued');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(sink.arrived.length, 1, 'sent once');
    });

    it('tries again after a 4xx answer with the same message, and gives up at once on a 5xx', async () => {
      const sink = await SmtpSink.start({ answer: (i) => (i === 0 ? { code: 451, message: 'Try again later' } : 'accept') });
      sinks.push(sink);
      const server = await setUp(sink.url());
      const email = await invite(server);
      const [delivered] = await sink.waitFor((r) => r.length === 1);
      assert.equal(sink.arrived.length, 2);
      assert.equal(sink.arrived[0]!.raw, delivered!.raw, 'every attempt sends the same bytes');
      const row = await eventually(async () => {
        const r = await outbox(server, email);
        return r.status === 'sent' && r;
      }, 'sent');
      assert.equal(row.attempts, 2);

      const refusing = await SmtpSink.start({ answer: () => ({ code: 550, message: 'No such mailbox' }) });
      sinks.push(refusing);
      const other = await setUp(refusing.url());
      const nobody = await invite(other);
      const gone = await eventually(async () => {
        const r = await outbox(other, nobody);
        return r.status === 'failed' && r;
      }, 'given up');
      assert.equal(gone.attempts, 1, 'a 5xx is not tried again');
      assert.match(gone.last_error!, /550 No such mailbox/);
      assert.equal(gone.text_body, null);
      assert.ok(other.logs.some((l) => l.includes('"msg":"mail refused by the server; given up"') && l.includes(nobody)));
    });

    it('gives a message up, and logs it, once it has failed for 24 hours', async () => {
      const port = await deadPort();
      const server = await setUp(`smtp://127.0.0.1:${port}`, true);
      const email = await invite(server);
      await eventually(async () => (await outbox(server, email)).attempts >= 1, 'a failed attempt');
      // The next attempt is due a second later by the server's clock, which the test now moves a day on.
      time.advance(24 * 3_600_000);
      const last = await eventually(async () => {
        const r = await outbox(server, email);
        return r.status === 'failed' && r;
      }, 'given up after 24 hours');
      assert.ok(last.attempts >= 2);
      assert.equal(last.next_attempt_at, null);
      assert.ok(server.logs.some((l) => l.includes('"msg":"mail not sent for 24 hours; given up"') && l.includes(email)));
    });
  });
}
