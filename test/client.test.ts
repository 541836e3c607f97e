// The typed client package (packages/client) against a real server: typed calls and errors,
// iteration by cursor while others write, idempotent creates, retry after Retry-After, the event
// subscription resuming across a cut connection, revocation ending it, and webhook verification.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, setGlobalDispatcher } from 'undici';
import WebSocket from 'ws';
import { CmsApiError, createCmsClient, verifyWebhook, WebhookVerificationError, type CmsClient, type CmsEvent, type WebSocketConstructor } from '@cms-service/client';
import { Receiver } from './helpers/receiver.js';
import { Relay } from './helpers/relay.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

/** Resolves when `check` holds, polling; fails after `ms`. */
async function until(check: () => boolean, ms = 10_000, what = 'the condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

for (const store of testStores()) {
  describe(`typed client (${store})`, { timeout: 120_000 }, () => {
    let server: TestServer;
    let owner: TestAccount;
    let cms: CmsClient;
    let ca: string;
    /** A `ws` WebSocket that trusts the test server's certificate, in the standard shape. */
    let Socket: WebSocketConstructor;

    before(async () => {
      server = await startServer(store, { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
      ca = fs.readFileSync(path.join(server.dataDir, 'tls-cert.pem'), 'utf8');
      // The global fetch (which the client uses) trusts the test server's self-signed certificate.
      setGlobalDispatcher(new Agent({ connect: { ca } }));
      const trusted = ca;
      Socket = class extends WebSocket {
        constructor(url: string) {
          super(url, { ca: trusted });
        }
      } as unknown as WebSocketConstructor;
      owner = await server.account();
      cms = createCmsClient({ baseUrl: server.baseUrl, token: owner.key });
    });
    after(() => server.close());

    it('creates, reads, changes, publishes, archives and deletes with typed results', async () => {
      const created = await cms.content.create({ title: 'From the client', type: 'manual', content: '# One' });
      assert.match(created.id, /^content_[0-9a-z]{26}$/);
      assert.deepEqual([created.status, created.version, created.author], ['draft', 1, owner.userId]);
      const read = await cms.content.get(created.id);
      assert.equal(read.content, '# One');
      const changed = await cms.content.update(created.id, { title: 'Renamed' }, { ifMatch: 1 });
      assert.deepEqual([changed.title, changed.version], ['Renamed', 2]);
      const published = await cms.content.publish(created.id, { ifMatch: 2 });
      assert.equal(published.status, 'published');
      assert.ok(published.published_at);
      const archived = await cms.content.archive(created.id);
      assert.equal(archived.status, 'archived');
      await cms.content.delete(created.id, { ifMatch: archived.version });
      await assert.rejects(cms.content.get(created.id), (e: unknown) => e instanceof CmsApiError && e.status === 404 && e.code === 'not_found');
    });

    it('throws CmsApiError with the code, every failing field and the request id', async () => {
      const error = await cms.content.create({ title: '', type: 'novel', content: 'x' } as never).then(
        () => assert.fail('accepted'),
        (e: unknown) => e as CmsApiError,
      );
      assert.ok(error instanceof CmsApiError);
      assert.equal(error.status, 422);
      assert.equal(error.code, 'validation_failed');
      assert.deepEqual(error.errors.map((e) => [e.field, e.code]).sort(), [['title', 'too_short'], ['type', 'invalid_value']]);
      assert.match(error.requestId ?? '', /^req_/);
      const item = await cms.content.create({ title: 'Stale', type: 'blog', content: 'x' });
      await cms.content.update(item.id, { title: 'Someone else' });
      await assert.rejects(cms.content.update(item.id, { title: 'Mine' }, { ifMatch: 1 }), (e: unknown) => e instanceof CmsApiError && e.status === 412 && e.code === 'precondition_failed');
      const stranger = createCmsClient({ baseUrl: server.baseUrl, token: 'cms_live_' + 'x'.repeat(40) });
      await assert.rejects(stranger.content.list(), (e: unknown) => e instanceof CmsApiError && e.status === 401 && e.code === 'unauthorized');
    });

    it('iterates every matching item exactly once by cursor while items are created and deleted', async () => {
      const account = await server.account();
      const mine = createCmsClient({ baseUrl: server.baseUrl, token: account.key });
      const existing: string[] = [];
      for (let i = 0; i < 230; i++) existing.push((await server.content(account.key, { title: `Item ${i}`, status: i % 10 === 0 ? 'draft' : 'published' })).id as string);
      const published = new Set(existing.filter((_, i) => i % 10 !== 0));
      const seen: string[] = [];
      let writes = 0;
      for await (const item of mine.content.iterate({ status: 'published', limit: 25 })) {
        seen.push(item.id);
        assert.equal(item.status, 'published');
        // Others write while we page: new items (newer than the cursor) and deletions of ones not yet reached.
        if (writes++ < 5) await server.content(account.key, { title: 'Written meanwhile', status: 'published' });
      }
      assert.equal(new Set(seen).size, seen.length, 'no item twice');
      for (const id of published) assert.ok(seen.includes(id), `${id} was skipped`);
    });

    it('sends an Idempotency-Key on every POST: a repeated create with the same key makes one item', async () => {
      const account = await server.account();
      const sent: (string | null)[] = [];
      const watched = createCmsClient({
        baseUrl: server.baseUrl,
        token: account.key,
        fetch: (input) => {
          const request = input as Request;
          sent.push(request.headers.get('idempotency-key'));
          return fetch(request);
        },
      });
      await watched.content.create({ title: 'Auto key', type: 'blog', content: 'x' });
      assert.match(sent[0] ?? '', /^[0-9a-f-]{36}$/);
      const first = await watched.content.create({ title: 'Once', type: 'blog', content: 'x' }, { idempotencyKey: 'order-42' });
      const again = await watched.content.create({ title: 'Once', type: 'blog', content: 'x' }, { idempotencyKey: 'order-42' });
      assert.equal(again.id, first.id);
      const page = await watched.content.list();
      assert.equal(page.pagination.total, 2, 'two items: the auto-keyed one and "Once", made once');
    });

    it('waits out a 429 as its Retry-After asks, then succeeds; a wait too long is left to the caller', async () => {
      // A server of its own whose clock runs `offset` ms ahead of real time, so the test can bring the window's end near.
      let offset = 0;
      const timed = await startServer(store, { clock: () => new Date(Date.now() + offset) });
      after(() => timed.close());
      // Its own certificate has the same subject as the first server's, so it gets a connection pool of its own.
      const dispatcher = new Agent({ connect: { ca: fs.readFileSync(path.join(timed.dataDir, 'tls-cert.pem'), 'utf8') } });
      const timedFetch = (input: Request) => fetch(input, { dispatcher } as RequestInit);
      const account = await timed.account({ rateLimit: 2 });
      const limited = createCmsClient({ baseUrl: timed.baseUrl, token: account.key, maxRetryWaitSeconds: 5, fetch: timedFetch as typeof fetch });
      await limited.content.list();
      await limited.content.list();
      // The window still has most of its hour: the client gives the 429 back rather than wait it out.
      await assert.rejects(limited.content.list(), (e: unknown) => e instanceof CmsApiError && e.code === 'rate_limited' && (e.retryAfter ?? 0) > 5);
      // Bring the window's end to 1–2 s from now: the next call is refused, waits, and is let through.
      // X-RateLimit-Reset is whole seconds, up to 1 s after the window's real end, so the clock goes
      // to 2 s before it (1 s before would leave anything from 1 s down to nothing to wait).
      const usage = await timedFetch(new Request(`${timed.baseUrl}/v1/usage`, { headers: { authorization: `Bearer ${account.key}` } }));
      const reset = Number(usage.headers.get('x-ratelimit-reset'));
      offset += reset * 1000 - (Date.now() + offset) - 2000;
      const started = Date.now();
      const page = await limited.content.list();
      assert.equal(page.pagination.total, 0);
      assert.ok(Date.now() - started >= 900, `waited ${Date.now() - started} ms`);
    });

    it('subscribes to events and resumes after a cut connection with nothing lost or repeated', async () => {
      const account = await server.account();
      const relay = new Relay(new URL(server.baseUrl));
      await relay.start();
      const client = createCmsClient({ baseUrl: `https://127.0.0.1:${relay.port}`, token: account.key });
      const events: CmsEvent[] = [];
      const errors: string[] = [];
      const subscription = client.events.subscribe({ events: ['content.*'], onEvent: (e) => events.push(e), onError: (e) => errors.push(e.code), WebSocket: Socket, minDelayMs: 200 });
      try {
        await subscription.ready;
        const before = await server.content(account.key, { title: 'Before the cut' });
        await until(() => events.length === 1, 10_000, 'the first event');
        await relay.cut();
        // Written while the client is away (its reconnections refused meanwhile): it must get them on resume.
        const during = [];
        for (let i = 0; i < 3; i++) during.push((await server.content(account.key, { title: `During ${i}` })).id);
        await sleep(300);
        await relay.mend();
        await until(() => events.length === 4, 15_000, 'the missed events');
        const after = await server.content(account.key, { title: 'After' });
        await until(() => events.length === 5, 10_000, 'the live event');
        assert.deepEqual(events.map((e) => (e.data as { id: string }).id), [before.id, ...during, after.id]);
        assert.ok(events.every((e) => e.type === 'content.created'));
        assert.equal(subscription.lastEventId, events.at(-1)!.id);
        assert.ok(errors.includes('disconnected'));
      } finally {
        subscription.close();
        await relay.cut();
      }
    });

    it('ends the subscription with a fatal error when its key is revoked', async () => {
      const account = await server.account();
      const key = await fetch(`${server.baseUrl}/v1/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'soon revoked' }),
      }).then((r) => r.json() as Promise<{ data: { id: string; key: string } }>);
      const client = createCmsClient({ baseUrl: server.baseUrl, token: key.data.key });
      const errors: { code: string; fatal: boolean }[] = [];
      const subscription = client.events.subscribe({ events: ['*'], onEvent: () => {}, onError: (e) => errors.push({ code: e.code, fatal: e.fatal }), WebSocket: Socket });
      await subscription.ready;
      const revoked = await fetch(`${server.baseUrl}/v1/api-keys/${key.data.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${account.key}` } });
      assert.equal(revoked.status, 204);
      await until(() => errors.some((e) => e.fatal), 10_000, 'the fatal error');
      assert.deepEqual(errors.at(-1), { code: 'unauthorized', fatal: true });
      subscription.close();
    });

    it('verifies a real webhook delivery and refuses a tampered one', async () => {
      const receiver = await Receiver.start();
      try {
        const created = await cms.api.POST('/v1/webhooks', { body: { url: receiver.url('/hook'), events: ['content.created'] } });
        assert.equal(created.response.status, 201);
        const secret = created.data!.data.secret;
        const item = await cms.content.create({ title: 'Signed', type: 'blog', content: 'x' });
        await until(() => receiver.received.length > 0, 15_000, 'the delivery');
        const delivery = receiver.received[0]!;
        const event = verifyWebhook(secret, delivery.body, delivery.headers);
        assert.equal(event.type, 'content.created');
        assert.equal((event.data as { id: string }).id, item.id);
        assert.throws(() => verifyWebhook(secret, delivery.body.replace('Signed', 'Forged'), delivery.headers), WebhookVerificationError);
      } finally {
        await receiver.close();
      }
    });
  });
}
