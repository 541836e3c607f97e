// A real SMTP server for tests (smtp-server, in this process), with what arrives parsed by
// mailparser: plain, STARTTLS or implicit TLS with a self-signed certificate, optionally with a
// password, and answering each message as the test decides — accept, refuse (4xx or 5xx), or hold
// it unanswered until the test lets go (to kill the sender mid-send).
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { simpleParser } from 'mailparser';
import { generate } from 'selfsigned';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** RCPT TO addresses. */
  recipients: string[];
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Map<string, unknown>;
  raw: string;
  /** The session was encrypted (STARTTLS or implicit TLS). */
  secure: boolean;
  /** The user that logged in, if any. */
  user: string | undefined;
  at: number;
}

/** How to answer one message: accept, refuse with an SMTP code, or hold until released. */
export type Answer = 'accept' | 'hold' | { code: number; message: string };

export interface SinkOptions {
  /** 'plain' offers no STARTTLS; 'starttls' offers it; 'tls' is implicit TLS (smtps). */
  mode?: 'plain' | 'starttls' | 'tls';
  auth?: { user: string; pass: string };
  /** Listen on this port (a restart on the same address). */
  port?: number;
  answer?: (index: number) => Answer;
}

let certificate: Promise<{ cert: string; key: string }> | undefined;
function selfSigned() {
  certificate ??= generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', algorithm: 'sha256' }).then((p) => ({ cert: p.cert, key: p.private }));
  return certificate;
}

export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  /** Messages whose data arrived in full, whatever the answer (held ones included). */
  readonly arrived: ReceivedMail[] = [];
  readonly held: (() => void)[] = [];
  /** Connection errors the server reported. */
  readonly errors: Error[] = [];
  private port = 0;

  private constructor(
    private readonly server: SMTPServer,
    private readonly options: SinkOptions,
  ) {}

  static async start(options: SinkOptions = {}): Promise<SmtpSink> {
    const mode = options.mode ?? 'plain';
    const { cert, key } = await selfSigned();
    // The server's callbacks need the sink, which needs the server.
    const ref: { sink?: SmtpSink } = {};
    const server = new SMTPServer({
      secure: mode === 'tls',
      key,
      cert,
      logger: false,
      disabledCommands: mode === 'plain' ? ['STARTTLS', ...(options.auth ? [] : ['AUTH'])] : options.auth ? [] : ['AUTH'],
      authOptional: !options.auth,
      allowInsecureAuth: mode === 'plain',
      onAuth(auth, _session, callback) {
        if (auth.username === options.auth?.user && auth.password === options.auth?.pass) return callback(null, { user: auth.username });
        return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      },
      onData(stream, session, callback) {
        void ref.sink!.take(stream, session).then(
          ({ answer, mail }) => {
            if (answer === 'accept') {
              ref.sink!.received.push(mail);
              return callback(null, 'Queued');
            }
            if (answer === 'hold') {
              return ref.sink!.held.push(() => {
                ref.sink!.received.push(mail);
                callback(null, 'Queued after all');
              });
            }
            return callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
          },
          (error: Error) => callback(error),
        );
      },
    });
    const sink = (ref.sink = new SmtpSink(server, options));
    // A client that drops a connection (a pooled one closed at shutdown, say) is reported here, not thrown.
    server.on('error', (error: Error) => sink.errors.push(error));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    sink.port = (server.server.address() as AddressInfo).port;
    return sink;
  }

  /**
   * SMTP_URL for this server. The certificate is self-signed: `verify: false` adds
   * tls.rejectUnauthorized=false, as one would for a development server.
   */
  url(options: { verify?: boolean; auth?: { user: string; pass: string } } = {}): string {
    const scheme = this.options.mode === 'tls' ? 'smtps' : 'smtp';
    const auth = options.auth ?? this.options.auth;
    const credentials = auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@` : '';
    return `${scheme}://${credentials}127.0.0.1:${this.port}${options.verify === false ? '/?tls.rejectUnauthorized=false' : ''}`;
  }

  get address(): number {
    return this.port;
  }

  /** Resolves with the received messages once `ready` holds (throws after `timeoutMs`). */
  async waitFor(ready: (received: ReceivedMail[]) => boolean, timeoutMs = 15_000, list: ReceivedMail[] = this.received): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (!ready(list)) {
      if (Date.now() > deadline) throw new Error(`SMTP sink: still waiting after ${timeoutMs} ms; received ${list.length}: ${list.map((m) => m.subject).join(' | ')}`);
      await sleep(25);
    }
    return list;
  }

  /** The messages accepted for `email` so far (those whose subject matches `subject`, if given). */
  to(email: string, subject?: RegExp): ReceivedMail[] {
    return this.received.filter((m) => m.recipients.includes(email) && (!subject || subject.test(m.subject)));
  }

  /** Waits until `count` messages for `email` (matching `subject`) were accepted; returns them, oldest first. */
  async waitForMailTo(email: string, count = 1, subject?: RegExp): Promise<ReceivedMail[]> {
    await this.waitFor(() => this.to(email, subject).length >= count);
    return this.to(email, subject);
  }

  /** Answers the held messages (they count as received from then on). */
  release(): void {
    for (const answer of this.held.splice(0)) answer();
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async take(stream: NodeJS.ReadableStream, session: { envelope: { rcptTo: { address: string }[] }; secure: boolean; user?: unknown }): Promise<{ answer: Answer; mail: ReceivedMail }> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const parsed = await simpleParser(raw);
    const addresses = (value: typeof parsed.to) => (value === undefined ? [] : (Array.isArray(value) ? value : [value]).flatMap((a) => a.value.map((v) => v.address ?? '')));
    const mail: ReceivedMail = {
      recipients: session.envelope.rcptTo.map((r) => r.address),
      from: parsed.from?.text ?? '',
      to: addresses(parsed.to),
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      html: typeof parsed.html === 'string' ? parsed.html : '',
      messageId: parsed.messageId ?? '',
      headers: parsed.headers,
      raw,
      secure: session.secure,
      user: typeof session.user === 'string' ? session.user : undefined,
      at: Date.now(),
    };
    const index = this.arrived.length;
    this.arrived.push(mail);
    return { answer: this.options.answer?.(index) ?? 'accept', mail };
  }
}

/** The one-time link in a message's text part. */
export function linkIn(mail: ReceivedMail): string {
  const match = /https?:\/\/\S+\/password\/set\?token=[A-Za-z0-9_%-]+/.exec(mail.text);
  if (!match) throw new Error(`no set-password link in: ${mail.text}`);
  return match[0];
}
