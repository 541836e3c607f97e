// Interoperability with real counterparts (CONTRACT.md §15): openid-client (v6, oauth4webapi under
// it) is the app, Debian's Chromium (playwright-core) is the person. An app registered in one account
// is authorized in the browser by a user of another account, arriving from the app's own site (so
// the SameSite=Strict session cookie stays behind at first); its tokens then read and write that
// account's content within their scopes; refresh, client credentials, introspection and revocation
// go through the same library. On SQLite, and on PostgreSQL with Redis.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as oidc from 'openid-client';
import type { BrowserContext, Page } from 'playwright-core';
import { startBrowser, type RunningBrowser } from './helpers/browser.js';
import { fetchTrusting } from './helpers/https-fetch.js';
import { registerApp, type TestApp } from './helpers/oauth.js';
import { Receiver } from './helpers/receiver.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

for (const store of testStores()) {
  const env: Record<string, string> =
    store === 'postgres' && process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_KEY_PREFIX: `cms-oauth-browser-${process.pid}:` } : {};

  describe(`OAuth with openid-client and Chromium (${store}${env.REDIS_URL ? ' + Redis' : ''})`, { timeout: 240_000 }, () => {
    let chromium: RunningBrowser;
    let server: TestServer;
    /** The third-party app's own site: a page with a "Connect" link, and its callback. */
    let site: Receiver;
    let maker: TestAccount;
    let person: TestAccount;
    let app: TestApp;
    let config: oidc.Configuration;
    let context: BrowserContext;
    let page: Page;
    let authorizationUrl = '';

    before(async () => {
      chromium = await startBrowser();
      [server, site] = await Promise.all([startServer(store, { env }), Receiver.start()]);
      site.respond = (request) => {
        if (request.path === '/') return html(`<a href="${escape(authorizationUrl)}">Connect to the CMS</a>`);
        if (request.path.startsWith('/frame')) return html(`<iframe title="framed" src="${escape(decodeURIComponent(request.path.slice('/frame?src='.length)))}"></iframe>`);
        return html('<p>Connected</p>');
      };
      maker = await server.account();
      person = await server.account();
      app = await registerApp(server, maker.key, { name: 'Newsroom sync', redirect_uris: [site.url('/callback')] });
      const trusted = fetchTrusting(await fs.readFile(path.join(server.dataDir, 'tls-cert.pem'), 'utf8'));
      config = await oidc.discovery(new URL(server.baseUrl), app.id, undefined, oidc.ClientSecretBasic(app.client_secret!), {
        algorithm: 'oauth2',
        [oidc.customFetch]: trusted,
      });
      config[oidc.customFetch] = trusted;
      context = await chromium.browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 900, height: 800 } });
      page = await context.newPage();
    });
    after(async () => {
      await context?.close().catch(() => {});
      await chromium?.close();
      await site?.close();
      await server?.close();
    });

    function html(body: string) {
      return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: `<!doctype html><html lang="en"><title>Newsroom</title><body>${body}</body></html>` };
    }

    /** Starts at the app's site, clicks Connect, and returns where the browser was sent back to. */
    async function connect(scope: string, act: (page: Page) => Promise<void>) {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      authorizationUrl = oidc
        .buildAuthorizationUrl(config, { redirect_uri: app.redirect_uris[0]!, scope, state, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' })
        .href;
      await page.goto(site.url('/'));
      const before = site.on('/callback').length + site.received.filter((r) => r.path.startsWith('/callback?')).length;
      await page.getByRole('link', { name: 'Connect to the CMS' }).click();
      await act(page);
      const [back] = (await site.waitFor((all) => all.filter((r) => r.path.startsWith('/callback?')).length > before)).filter((r) => r.path.startsWith('/callback?')).slice(-1);
      await page.getByText('Connected').waitFor();
      return { url: new URL(back!.path, site.url('/')), verifier, state };
    }

    it('is authorized in the browser by a person of another account, and its tokens act there within their scopes', async () => {
      const theirs = await server.content(person.key, { title: 'Their article' });
      const { url, verifier, state } = await connect('content:read content:write', async (p) => {
        // Arrived from the app's site: the page hops to itself, then asks to sign in.
        await p.getByRole('heading', { name: 'Sign in' }).waitFor();
        await p.getByLabel('Email').fill(person.email);
        await p.getByLabel('Password').fill(person.password);
        await p.getByRole('button', { name: 'Sign in' }).click();
        await p.getByRole('heading', { name: 'Allow Newsroom sync?' }).waitFor();
        assert.ok(await p.getByText('Create, change, archive and delete content items').isVisible());
        await p.getByRole('button', { name: 'Allow' }).click();
      });
      assert.equal(url.searchParams.get('iss'), server.baseUrl);
      // openid-client checks state, iss (RFC 9207) and PKCE, and redeems the code.
      const tokens = await oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: verifier, expectedState: state });
      assert.match(tokens.access_token, /^cms_oat_/);
      assert.match(tokens.refresh_token!, /^cms_ort_/);
      assert.equal(tokens.scope, 'content:read content:write');
      assert.equal(tokens.expires_in, 3600);

      const listed = await oidc.fetchProtectedResource(config, tokens.access_token, new URL('/v1/content', server.baseUrl), 'GET');
      assert.equal(listed.status, 200);
      assert.deepEqual(((await listed.json()) as { data: { id: string }[] }).data.map((c) => c.id), [theirs.id]);
      const written = await oidc.fetchProtectedResource(
        config,
        tokens.access_token,
        new URL('/v1/content', server.baseUrl),
        'POST',
        JSON.stringify({ title: 'Synced by the newsroom', type: 'blog', content: 'x' }),
        new Headers({ 'content-type': 'application/json' }),
      );
      assert.equal(written.status, 201);
      assert.equal(((await written.json()) as { data: { author: string } }).data.author, person.userId);
      const users = await oidc.fetchProtectedResource(config, tokens.access_token, new URL('/v1/users', server.baseUrl), 'GET');
      assert.equal(users.status, 403, 'users:read was not granted');

      // Refresh through the library: a new pair; introspection sees the new access token.
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
      const introspected = await oidc.tokenIntrospection(config, refreshed.access_token);
      assert.equal(introspected.active, true);
      assert.equal(introspected.sub, person.userId);
      assert.equal(introspected.client_id, app.id);

      // Revocation through the library: the chain is gone.
      await oidc.tokenRevocation(config, refreshed.refresh_token!);
      assert.equal((await server.client.get('/v1/content', { key: refreshed.access_token })).status, 401);
      await assert.rejects(oidc.refreshTokenGrant(config, refreshed.refresh_token!), (error: { error?: string }) => error.error === 'invalid_grant');
    });

    it('comes straight back when the person is signed in and has consented, and sends Deny back as access_denied', async () => {
      // The revocation above ended the grant: the person (still signed in) is asked again, once.
      await connect('content:read', async (p) => {
        await p.getByRole('heading', { name: 'Allow Newsroom sync?' }).waitFor();
        await p.getByRole('button', { name: 'Allow' }).click();
      });
      const { url } = await connect('content:read', async () => {});
      assert.ok(url.searchParams.get('code'), 'remembered consent, live session: no page shown');

      const denied = await connect('content:read users:read', async (p) => {
        await p.getByRole('heading', { name: 'Allow Newsroom sync?' }).waitFor();
        await p.getByRole('button', { name: 'Deny' }).click();
      });
      assert.equal(denied.url.searchParams.get('error'), 'access_denied');
      await assert.rejects(
        oidc.authorizationCodeGrant(config, denied.url, { pkceCodeVerifier: denied.verifier, expectedState: denied.state }),
        (error: { error?: string }) => error.error === 'access_denied',
      );
    });

    it('cannot be framed by the app’s site', async () => {
      const signInPage = `${server.baseUrl}/oauth/interaction/any`;
      await page.goto(site.url(`/frame?src=${encodeURIComponent(signInPage)}`));
      const frame = page.frames().find((f) => f !== page.mainFrame());
      assert.ok(frame);
      await frame.waitForLoadState('load').catch(() => {});
      const content = await frame.content().catch(() => '');
      assert.doesNotMatch(content, /Content Management Service/, 'the page was rendered inside the frame');
    });

    it('gets client credentials and introspects through the same library', async () => {
      const machine = await oidc.clientCredentialsGrant(config, { scope: 'content:read' });
      assert.equal(machine.scope, 'content:read');
      assert.equal(machine.refresh_token, undefined);
      const read = await server.client.get('/v1/content', { key: machine.access_token });
      assert.equal(read.status, 200);
      const introspected = await oidc.tokenIntrospection(config, machine.access_token);
      assert.equal(introspected.sub, maker.userId);
      await oidc.tokenRevocation(config, machine.access_token);
      assert.equal((await oidc.tokenIntrospection(config, machine.access_token)).active, false);
    });
  });
}
