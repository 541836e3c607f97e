// The dashboard's OAuth sections in a real browser (Chromium, playwright-core) against a real server:
// register an app and see its secret once, rotate it, delete it; authorize an app on the service's
// own sign-in and consent pages (a dashboard session is reused there) and disconnect it under
// Connected Apps. Screenshots go to a temporary folder, or to docs/screenshots with
// UPDATE_SCREENSHOTS=1.
import assert from 'node:assert/strict';
import os from 'node:os';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startBrowser, type RunningBrowser } from './helpers/browser.js';
import { authorizeUrl, clientCredentials, pkce, registerApp, token, type TestApp } from './helpers/oauth.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve('docs/screenshots') : path.join(os.tmpdir(), `cms-screenshots-${process.pid}`);

describe('OAuth in the dashboard (sqlite)', { timeout: 240_000 }, () => {
  let chromium: RunningBrowser;
  let server: TestServer;
  let owner: TestAccount;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    chromium = await startBrowser();
    server = await startServer('sqlite');
    owner = await server.account();
    await fs.mkdir(SHOTS, { recursive: true });
    context = await chromium.browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1200, height: 800 } });
    page = await context.newPage();
    await page.goto(`${server.baseUrl}/`);
    await page.getByLabel('E-mail address').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API Keys', level: 1 }).waitFor();
  });
  after(async () => {
    await context?.close().catch(() => {});
    await chromium?.close();
    await server?.close();
  });

  const shot = (name: string, target: Page = page) => target.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  async function open(section: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: section, exact: true }).click();
    await page.getByRole('heading', { name: section, level: 1 }).waitFor();
  }
  const secretShown = () => page.getByLabel('Your client secret').inputValue();

  it('registers an app, shows its client secret once with a copy button, rotates it and deletes the app', async () => {
    await open('OAuth Apps');
    await page.getByLabel('App name').fill('Newsletter sync');
    await page.getByLabel('Redirect URIs').fill('https://newsletter.example/oauth/callback\nhttp://127.0.0.1:8765/cb');
    await page.getByRole('checkbox', { name: /users:write/ }).uncheck();
    await page.getByRole('button', { name: 'Register app' }).click();
    await page.getByRole('heading', { name: 'The client secret of “Newsletter sync”' }).waitFor();
    const secret = await secretShown();
    assert.match(secret, /^cms_cs_[0-9A-Za-z]{40}$/);
    assert.ok(await page.getByRole('button', { name: 'Copy' }).isVisible());
    await shot('oauth-apps-secret');
    await page.getByRole('button', { name: 'I have stored it' }).click();

    const row = page.getByRole('row', { name: /Newsletter sync/ });
    await row.waitFor();
    const clientId = (await row.locator('code').first().innerText()).trim();
    assert.match(clientId, /^app_[0-9a-z]{26}$/);
    assert.doesNotMatch(await page.content(), new RegExp(secret), 'the secret is gone from the page');
    const app: TestApp = { id: clientId, name: 'Newsletter sync', type: 'confidential', redirect_uris: ['https://newsletter.example/oauth/callback'], scopes: [], user_id: owner.userId, client_secret: secret };
    assert.equal((await clientCredentials(server, app, 'content:read')).status, 200, 'the secret shown works');
    assertScopes(await row.innerText());
    await shot('oauth-apps');

    await page.getByRole('button', { name: 'Rotate the secret of Newsletter sync' }).click();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('heading', { name: 'A new client secret for “Newsletter sync”' }).waitFor();
    const rotated = await secretShown();
    assert.notEqual(rotated, secret);
    assert.equal((await clientCredentials(server, app, 'content:read')).status, 401, 'the old secret is dead');
    assert.equal((await clientCredentials(server, { ...app, client_secret: rotated }, 'content:read')).status, 200);
    await page.getByRole('button', { name: 'I have stored it' }).click();

    const machine = (await clientCredentials(server, { ...app, client_secret: rotated })).body.access_token as string;
    await page.getByRole('button', { name: 'Delete Newsletter sync' }).click();
    await page.getByRole('button', { name: 'Delete app' }).click();
    await page.getByText('Deleted “Newsletter sync”.').waitFor();
    assert.equal(await page.getByRole('row', { name: /Newsletter sync/ }).count(), 0);
    assert.equal((await server.client.get('/v1/content', { key: machine })).status, 401);
  });

  it('authorizes an app with the dashboard session on the consent page, and disconnects it under Connected Apps', async () => {
    const maker = await server.account();
    const app = await registerApp(server, maker.key, { name: 'Analytics for editors' });
    // The app's callback is a site we do not run: the browser's request to it is answered here.
    let callback: URL | undefined;
    await context.route(`${app.redirect_uris[0]}**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Back at the app</title><p>Back at the app</p>' });
    });
    const { verifier, challenge } = pkce();
    await page.goto(`${server.baseUrl}${authorizeUrl(app, { scope: 'content:read events:read', code_challenge: challenge, code_challenge_method: 'S256' })}`);
    // Signed in to the dashboard already: no sign-in form, straight to consent.
    await page.getByRole('heading', { name: 'Allow Analytics for editors?' }).waitFor();
    assert.ok(await page.getByText(`Signed in as ${owner.email}`).isVisible());
    await shot('oauth-consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByText('Back at the app').waitFor();
    assert.ok(callback?.searchParams.get('code'));
    const tokens = await token(server, app, { grant_type: 'authorization_code', code: callback!.searchParams.get('code')!, redirect_uri: app.redirect_uris[0]!, code_verifier: verifier });
    assert.equal(tokens.status, 200, tokens.text);
    assert.equal((await server.client.get('/v1/content', { key: tokens.body.access_token })).status, 200);

    await page.goto(`${server.baseUrl}/connected-apps`);
    await page.getByRole('heading', { name: 'Connected Apps', level: 1 }).waitFor();
    const row = page.getByRole('row', { name: /Analytics for editors/ });
    await row.waitFor();
    assert.match(await row.innerText(), /content:read, events:read/);
    await shot('connected-apps');
    await page.getByRole('button', { name: 'Revoke Analytics for editors' }).click();
    await page.getByRole('button', { name: 'Revoke access' }).click();
    await page.getByText('Disconnected “Analytics for editors”.').waitFor();
    assert.equal((await server.client.get('/v1/content', { key: tokens.body.access_token })).status, 401);
    await page.getByText('You have not authorized any app.').waitFor();
  });

  it('shows the sign-in page of the authorization to a browser without a session', async () => {
    const maker = await server.account();
    const app = await registerApp(server, maker.key, { name: 'Field reporter' });
    const fresh = await chromium.browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 600, height: 700 } });
    try {
      const other = await fresh.newPage();
      await other.goto(`${server.baseUrl}${authorizeUrl(app, { code_challenge: pkce().challenge, code_challenge_method: 'S256' })}`);
      await other.getByRole('heading', { name: 'Sign in' }).waitFor();
      assert.ok(await other.getByText('Field reporter').isVisible());
      assert.ok(await other.getByRole('link', { name: 'Forgot password?' }).isVisible());
      await shot('oauth-sign-in', other);
    } finally {
      await fresh.close();
    }
  });
});

function assertScopes(rowText: string): void {
  assert.match(rowText, /content:read, content:write, users:read, webhooks:write, events:read/);
  assert.doesNotMatch(rowText, /users:write/);
}
