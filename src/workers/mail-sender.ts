// One e-mail on the wire. The message is composed from its stored parts with nodemailer, the same
// bytes on every attempt (Date, Message-ID and MIME boundaries all come from the row), then either
// handed to the SMTP server of SMTP_URL (a pool of connections; STARTTLS when the server offers it,
// implicit TLS with smtps://) or, without SMTP_URL, written as an RFC 5322 .eml file under
// DATA_DIR/mail/ with one log line naming recipient and subject — never the body, which may hold
// a one-time link.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import type Nodemailer from 'nodemailer';
import type { NodemailerError } from 'nodemailer';
import type MailComposerClass from 'nodemailer/lib/mail-composer';
import type * as Shared from 'nodemailer/lib/shared';
import type { MailResult, OutgoingMail } from '../domain/mail/outbox.js';
import type { OutboxSender } from './outbox-worker.js';

// nodemailer is loaded when the first message is composed: a process that sends no mail never holds
// it (≈ 2 MB of heap, docs/benchmarks.md "Memory"). It is CommonJS, so require keeps this synchronous.
const require = createRequire(import.meta.url);
const nodemailer = () => require('nodemailer') as typeof Nodemailer;
const MailComposer = () => require('nodemailer/lib/mail-composer') as typeof MailComposerClass;
const parseConnectionUrl = (url: string) => (require('nodemailer/lib/shared') as typeof Shared).parseConnectionUrl(url);

/** Messages in flight at once (the SMTP pool's connections), and per recipient domain. */
export const MAIL_IN_FLIGHT = 8;
export const MAIL_IN_FLIGHT_PER_DOMAIN = 4;

export interface MailSenderLog {
  info(details: object, message: string): void;
}

interface Delivery {
  deliver(raw: Buffer, mail: OutgoingMail, cancel: AbortSignal): Promise<void>;
  close(): void;
}

export class MailSender implements OutboxSender<OutgoingMail, MailResult> {
  private constructor(
    private readonly from: string,
    private readonly delivery: Delivery,
  ) {}

  /** Through the SMTP server of `url` (smtp:// or smtps://, credentials in the URL). */
  static smtp(url: string, from: string, log: MailSenderLog): MailSender {
    const transport = nodemailer().createTransport({
      ...parseConnectionUrl(url),
      pool: true,
      maxConnections: MAIL_IN_FLIGHT,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return new MailSender(from, {
      async deliver(raw, mail, cancel) {
        const info = await transport.sendMail({ envelope: { from: addressOf(from), to: [mail.to] }, raw, signal: cancel });
        log.info({ mail_id: mail.id, to: mail.to, subject: mail.subject, message_id: mail.messageId, response: info.response }, 'mail sent');
      },
      close: () => transport.close(),
    });
  }

  /** As .eml files in `dir` (the embedded default), each announced by one log line. */
  static files(dir: string, from: string, log: MailSenderLog): MailSender {
    return new MailSender(from, {
      async deliver(raw, mail) {
        await fs.mkdir(dir, { recursive: true });
        const file = path.join(dir, `${mail.createdAt.replace(/[:.]/g, '-')}-${mail.id}.eml`);
        // Written whole, then renamed: a reader never sees half a message.
        await fs.writeFile(`${file}.tmp`, raw, { mode: 0o600 });
        await fs.rename(`${file}.tmp`, file);
        log.info({ mail_id: mail.id, to: mail.to, subject: mail.subject, file }, 'mail written');
      },
      close: () => {},
    });
  }

  async send(mail: OutgoingMail, cancel: AbortSignal): Promise<MailResult> {
    try {
      await this.delivery.deliver(await compose(mail, this.from), mail, cancel);
      return { error: null, permanent: false };
    } catch (error) {
      if (cancel.aborted) throw error;
      const e = error as NodemailerError;
      // A 5xx answer refuses this message for good; a refused login is the operator's to fix, so it is retried.
      return { error: describe(e), permanent: e.permanent === true && e.code !== 'EAUTH' };
    }
  }

  close(): void {
    this.delivery.close();
  }
}

/** The RFC 5322 message: one recipient, a plain-text and an HTML part, fixed Date, Message-ID and boundaries. */
export function compose(mail: OutgoingMail, from: string): Promise<Buffer> {
  return new (MailComposer())({
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
    date: new Date(mail.createdAt),
    baseBoundary: createHash('sha256').update(mail.id).digest('hex').slice(0, 16),
    // RFC 3834: sent by a machine, so auto-responders stay quiet.
    headers: { 'Auto-Submitted': 'auto-generated' },
  })
    .compile()
    .build();
}

/** `Name <a@b>` → `a@b`. */
function addressOf(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
}

function describe(error: NodemailerError): string {
  // The server's own answer says most (it never holds the message body); otherwise the error.
  const text = error.response ?? error.message ?? String(error);
  return `${text}${error.code ? ` (${error.code})` : ''}`.slice(0, 500);
}
