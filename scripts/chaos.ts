// `npm run chaos`: the kill -9 test. The built product runs under a steady load of writes with
// webhook deliveries and e-mails in flight, and is killed with SIGKILL and restarted, again and
// again, on SQLite and (when a PostgreSQL URL is given) PostgreSQL. Afterwards every write the
// service acknowledged must be stored, with its event, every event delivered to the webhook
// receiver at least once, and every invitation e-mail (one per user created) received at least once. Prints acknowledged / lost / in doubt / duplicate figures; exits 1 if anything
// acknowledged was lost.
//
//   npm run chaos -- [--kills 20] [--every 1500] [--clients 8] [--stores sqlite,postgres]
//
// PostgreSQL: CHAOS_DATABASE_URL or TEST_DATABASE_URL names a server where a database may be
// created (and is dropped afterwards). Webhook deliveries and e-mail are the two outboxes (see
// `outboxes` below): for each, what it should have sent, and what arrived.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { cleanEnv, freePort, productArgs, REPO_ROOT, startChild, waitUntilReady, type Child } from '../bench/processes.js';

const { values: args } = parseArgs({
  options: {
    kills: { type: 'string', default: '20' },
    every: { type: 'string', default: '1500' },
    clients: { type: 'string', default: '8' },
    stores: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});
const KILLS = Number(args.kills);
const EVERY_MS = Number(args.every);
const CLIENTS = Number(args.clients);
const PG_URL = process.env.CHAOS_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const STORES = (args.stores ?? (PG_URL ? 'sqlite,postgres' : 'sqlite')).split(',') as ('sqlite' | 'postgres')[];
/** How long the last instance gets to deliver what is still due once the load stops. */
const DRAIN_MS = 60_000;

/** Something the service must send at least once per event: what it owes, and what arrived. */
interface Outbox {
  name: string;
  /** Ids (event ids, message ids) that must have arrived, given the events stored. */
  owed(events: StoredEvent[]): string[];
  /** How many times each id arrived. */
  arrived(): Map<string, number>;
  close(): Promise<void>;
}

interface StoredEvent {
  id: string;
  type: string;
  data: { id?: string };
}

/** A webhook receiver: counts deliveries by webhook-id (the event id), answering after a short random delay so that some are in flight at every kill. */
async function webhookOutbox(): Promise<Outbox & { url: string }> {
  const counts = new Map<string, number>();
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers['webhook-id'] ?? '');
      counts.set(id, (counts.get(id) ?? 0) + 1);
      setTimeout(() => response.writeHead(200).end(), Math.random() * 150);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    name: 'webhook deliveries',
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    owed: (events) => events.filter((e) => e.type === 'content.created').map((e) => e.id),
    arrived: () => counts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * An SMTP server counting invitations by recipient (each user created without a password is e-mailed
 * one), answering after a short random delay so that some messages are being sent at every kill.
 */
async function mailOutbox(): Promise<Outbox & { url: string }> {
  const counts = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () =>
        setTimeout(() => {
          for (const { address } of session.envelope.rcptTo) counts.set(address, (counts.get(address) ?? 0) + 1);
          callback();
        }, Math.random() * 150),
      );
    },
  });
  // A sender killed mid-conversation resets its connection: that is the test, not a failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    name: 'invitation e-mails',
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    owed: (events) =>
      events
        .filter((e) => e.type === 'user.created')
        .map((e) => (e.data as { email?: string }).email ?? '')
        .filter((email) => email.startsWith('chaos-')),
    arrived: () => counts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One JSON request over HTTPS (the generated certificate is not checked: this is loopback). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API answers are read field by field
function call(agent: https.Agent, url: string, method: string, key: string, body?: unknown): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = https.request(url, { method, agent, headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json' } : {}) } }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}

async function run(store: 'sqlite' | 'postgres') {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-chaos-'));
  let dropDatabase = async () => {};
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1',
    // An attempt claimed by a killed instance is taken over this soon.
    WEBHOOK_LEASE_SECONDS: '2',
  };
  if (store === 'postgres') {
    const name = `cms_chaos_${randomBytes(4).toString('hex')}`;
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(sql).finally(() => client.end());
    };
    await admin(`CREATE DATABASE ${name}`);
    dropDatabase = () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const url = new URL(PG_URL!);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
  }
  const webhooks = await webhookOutbox();
  const mail = await mailOutbox();
  env.SMTP_URL = mail.url;
  env.MAIL_RETRY_SCHEDULE = '1';
  const outboxes: Outbox[] = [webhooks, mail];
  const port = await freePort();
  const base = `https://127.0.0.1:${port}`;
  let server: Child | undefined;
  try {
    const account = JSON.parse(
      execFileSync(process.execPath, ['dist/cli/main.js', 'accounts', 'create', '--email', 'chaos@example.com', '--plan', 'enterprise', '--rate-limit', '100000000', '--quota', '1000000000'], {
        cwd: REPO_ROOT,
        env: cleanEnv(env),
        encoding: 'utf8',
      }),
    ) as { api_key: string };
    const key = account.api_key;
    const start = async () => {
      server = startChild(`product (${store})`, productArgs(), cleanEnv({ ...env, PORT: String(port) }));
      await waitUntilReady(server, `${base}/readyz`);
    };
    await start();
    const agent = new https.Agent({ keepAlive: true, rejectUnauthorized: false, maxSockets: CLIENTS });
    const hook = await call(agent, `${base}/v1/webhooks`, 'POST', key, { url: webhooks.url, events: ['content.created'] });
    if (hook.status !== 201) throw new Error(`could not register the webhook: ${hook.status} ${JSON.stringify(hook.json)}`);

    // The load: each client writes items with titles of its own, never sending one twice; one write
    // in ten is a user invited by e-mail instead.
    const acknowledged = new Map<string, string>();
    const inDoubt = new Set<string>();
    let invited = 0;
    let running = true;
    let sequence = 0;
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (running) {
        const n = ++sequence;
        const title = `chaos ${store} ${n}`;
        try {
          if (n % 10 === 0) {
            const res = await call(agent, `${base}/v1/users`, 'POST', key, { email: `chaos-${n}@example.com`, name: `Invited ${n}`, role: 'viewer' });
            if (res.status === 201) invited++;
            continue;
          }
          const res = await call(agent, `${base}/v1/content`, 'POST', key, { title, type: 'blog', content: 'Written under SIGKILL.' });
          if (res.status === 201) acknowledged.set(title, res.json.data.id);
          else await new Promise((r) => setTimeout(r, 20));
        } catch (error) {
          // Refused: the instance is down, nothing was sent. Otherwise no answer came: the write may
          // or may not have been stored.
          if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED' && n % 10 !== 0) inDoubt.add(title);
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    });

    const started = Date.now();
    for (let kill = 1; kill <= KILLS; kill++) {
      await new Promise((r) => setTimeout(r, EVERY_MS * (0.5 + Math.random())));
      const victim = server!;
      process.kill(victim.pid, 'SIGKILL');
      await new Promise<void>((resolve) => (victim.process.exitCode !== null || victim.process.signalCode !== null ? resolve() : victim.process.once('exit', () => resolve())));
      await start();
      process.stdout.write(`\r${store}: ${kill}/${KILLS} kills, ${acknowledged.size} writes acknowledged`);
    }
    running = false;
    await Promise.all(clients);
    const loadSeconds = (Date.now() - started) / 1000;

    // Everything stored, read back through the API.
    const stored = new Map<string, string[]>();
    for (let offset = 0; ; offset += 100) {
      const page = await call(agent, `${base}/v1/content?limit=100&offset=${offset}`, 'GET', key);
      for (const item of page.json.data as { id: string; title: string }[]) stored.set(item.title, [...(stored.get(item.title) ?? []), item.id]);
      if (!page.json.pagination.has_more) break;
    }
    const events: StoredEvent[] = [];
    for (let after: string | null = null; ; ) {
      const page = await call(agent, `${base}/v1/events?limit=100${after ? `&after=${after}` : ''}`, 'GET', key);
      events.push(...(page.json.data as StoredEvent[]));
      if (!page.json.pagination.has_more) break;
      after = page.json.pagination.next_after;
    }
    const withEvent = new Set(events.filter((e) => e.type === 'content.created').map((e) => e.data.id));

    // Let the last instance deliver what is still due.
    const deadline = Date.now() + DRAIN_MS;
    const missing = (outbox: Outbox) => outbox.owed(events).filter((id) => !outbox.arrived().has(id));
    while (outboxes.some((o) => missing(o).length > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    agent.destroy();

    const lostWrites = [...acknowledged].filter(([title, id]) => !stored.get(title)?.includes(id));
    const storedInDoubt = [...inDoubt].filter((title) => stored.has(title)).length;
    const duplicateWrites = [...stored.values()].filter((ids) => ids.length > 1).length;
    const lostEvents = [...acknowledged.values()].filter((id) => !withEvent.has(id));
    return {
      store,
      kills: KILLS,
      seconds: Math.round(loadSeconds),
      acknowledged: acknowledged.size,
      lost: lostWrites.length,
      inDoubt: inDoubt.size,
      storedInDoubt,
      duplicateWrites,
      invited,
      events: events.length,
      lostEvents: lostEvents.length,
      outboxes: outboxes.map((outbox) => {
        const owed = outbox.owed(events);
        const arrived = outbox.arrived();
        return {
          name: outbox.name,
          owed: owed.length,
          delivered: owed.filter((id) => arrived.has(id)).length,
          lost: missing(outbox).length,
          duplicates: owed.filter((id) => (arrived.get(id) ?? 0) > 1).length,
          mostTimes: Math.max(0, ...owed.map((id) => arrived.get(id) ?? 0)),
        };
      }),
    };
  } finally {
    await (server as Child | undefined)?.stop();
    await Promise.all(outboxes.map((o) => o.close()));
    await dropDatabase();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (!args['no-build']) {
  console.log('Building (npm run build)...');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
}
let failed = false;
for (const store of STORES) {
  const r = await run(store);
  process.stdout.write('\n');
  console.log(
    `${r.store}: ${r.kills} × SIGKILL over ${r.seconds} s under ${CLIENTS} writing clients. Writes: ${r.acknowledged} acknowledged, ${r.lost} lost, ` +
      `${r.duplicateWrites} stored twice; ${r.inDoubt} sent but unanswered (in flight at a kill), of which ${r.storedInDoubt} stored. ` +
      `Events: ${r.events} in the log, ${r.lostEvents} missing for an acknowledged write. Users invited: ${r.invited} acknowledged.`,
  );
  for (const o of r.outboxes) {
    console.log(`  ${o.name}: ${o.owed} owed, ${o.delivered} delivered, ${o.lost} lost, ${o.duplicates} delivered more than once (at most ${o.mostTimes} times).`);
  }
  if (r.lost > 0 || r.lostEvents > 0 || r.duplicateWrites > 0 || r.outboxes.some((o) => o.lost > 0)) failed = true;
}
process.exit(failed ? 1 : 0);
