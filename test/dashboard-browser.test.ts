// The dashboard in a real browser (Debian's Chromium driven by playwright-core) against a real server:
// sign in, generate a key and use it, revoke it, add a webhook endpoint and see its delivery, see usage
// grow, a viewer without the admin sections, and a cross-site attack that fails. Screenshots of each
// section are written to a temporary folder, or to docs/screenshots with UPDATE_SCREENSHOTS=1.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startBrowser, type RunningBrowser } from './helpers/browser.js';
import { addUser } from './helpers/people.js';
import { Receiver } from './helpers/receiver.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve('docs/screenshots') : path.join(os.tmpdir(), `cms-screenshots-${process.pid}`);
const VIEWER_PASSWORD = 'a viewer passphrase';

describe('dashboard in a browser (sqlite)', { timeout: 240_000 }, () => {
  let server: TestServer;
  let chromium: RunningBrowser;
  let receiver: Receiver;
  let owner: TestAccount;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    // The browser first: without Chromium the suite fails at once, with the fix, and leaves nothing running.
    chromium = await startBrowser();
    [server, receiver] = await Promise.all([startServer('sqlite', { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } }), Receiver.start()]);
    owner = await server.account({ plan: 'pro' });
    await fs.mkdir(SHOTS, { recursive: true });
    context = await chromium.browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1200, height: 800 } });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close().catch(() => {});
    await chromium?.close();
    await receiver?.close();
    await server?.close();
  });

  async function signIn(target: Page, email: string, password: string): Promise<void> {
    await target.goto(`${server.baseUrl}/`);
    await target.getByRole('heading', { name: 'Sign in' }).waitFor();
    await target.getByLabel('E-mail address').fill(email);
    await target.getByLabel('Password').fill(password);
    await target.getByRole('button', { name: 'Sign in' }).click();
    await target.getByRole('heading', { name: 'API Keys', level: 1 }).waitFor();
  }

  async function open(section: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: section, exact: true }).click();
    await page.getByRole('heading', { name: section, level: 1 }).waitFor();
  }

  const shot = (name: string, target: Page = page) => target.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

  it('signs in with the e-mail and password, and tells a wrong password in words', async () => {
    await page.goto(`${server.baseUrl}/usage`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await shot('sign-in');
    await page.getByLabel('E-mail address').fill(owner.email);
    await page.getByLabel('Password').fill('not my password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'The e-mail address or the password is not right.' }).waitFor();
    await signIn(page, owner.email, owner.password);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === '__Host-cms_session');
    assert.ok(session, 'a session cookie');
    assert.deepEqual([session.httpOnly, session.secure, session.sameSite], [true, true, 'Strict']);
    assert.equal(await page.evaluate(() => document.cookie), '', 'scripts cannot read it');
  });

  it('generates a key shown once, which calls the API; revoked after confirmation, the key gets 401', async () => {
    await open('API Keys');
    await page.getByLabel('Name', { exact: true }).fill('browser test key');
    await page.getByRole('checkbox', { name: /users:write/ }).uncheck();
    await page.getByRole('button', { name: 'Generate key' }).click();
    await page.getByRole('heading', { name: 'Your new key “browser test key”' }).waitFor();
    assert.ok(await page.getByText('Store it safely now.').isVisible());
    assert.ok(await page.getByRole('button', { name: 'Copy' }).isVisible());
    const key = await page.getByLabel('Your API key').inputValue();
    assert.match(key, /^cms_live_[0-9A-Za-z]{40}$/);

    const res = await server.client.get('/v1/content', { key });
    assert.equal(res.status, 200, res.text);
    const refused = await server.client.post('/v1/users', { key, json: { email: 'x@example.com', name: 'X', role: 'viewer' } });
    assert.equal(refused.status, 403, 'the unticked scope was left out');

    await page.getByRole('button', { name: 'I have stored it' }).click();
    const row = page.getByRole('row', { name: /browser test key/ });
    await row.waitFor();
    assert.match(await row.innerText(), new RegExp(key.slice(0, 12)));
    await shot('api-keys');
    await row.getByRole('button', { name: 'Revoke browser test key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “browser test key”?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').filter({ hasText: 'Revoked “browser test key”' }).waitFor();
    await row.waitFor({ state: 'detached' });
    assert.equal((await server.client.get('/v1/content', { key })).status, 401);
  });

  it('adds a webhook endpoint under API Settings, sends a test and shows the delivery in its log', async () => {
    await open('API Settings');
    await page.getByLabel('URL').fill(receiver.url('/browser'));
    await page.getByLabel('Description (optional)').fill('Browser test receiver');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('heading', { name: /Signing secret of/ }).waitFor();
    assert.match(await page.getByLabel('Your signing secret').inputValue(), /^whsec_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    const card = page.getByRole('article', { name: receiver.url('/browser') });
    await card.getByRole('button', { name: 'Send test' }).click();
    await receiver.waitFor((received) => received.some((r) => r.body.includes('webhook.test')));
    const log = card.getByRole('region', { name: /Delivery log of/ });
    await log.waitFor();
    // The attempt is made by the worker; refresh until the log shows it succeeded.
    for (let i = 0; i < 20 && !(await log.getByText('succeeded').isVisible()); i++) {
      await page.waitForTimeout(250);
      await log.getByRole('button', { name: 'Refresh' }).click();
    }
    const delivery = log.getByRole('row', { name: /webhook\.test/ });
    assert.match(await delivery.innerText(), /succeeded[\s\S]*HTTP 204|succeeded[\s\S]*HTTP 2\d\d/);
    await shot('api-settings');
  });

  it('shows usage growing after API calls: the cycle count and the requests-per-day chart', async () => {
    await open('Usage');
    const big = page.getByRole('region', { name: 'This cycle' }).locator('.big');
    await big.waitFor();
    const before = Number((await big.innerText()).split(' ')[0]!.replace(/\D/g, ''));
    for (let i = 0; i < 7; i++) assert.equal((await server.client.get('/v1/content', { key: owner.key })).status, 200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForFunction(
      ([selector, least]) => Number(document.querySelector(selector)!.textContent!.split(' ')[0]!.replace(/\D/g, '')) >= least,
      ['section[aria-labelledby="quota-title"] .big', before + 7] as const,
    );
    const today = new Date().toISOString().slice(0, 10);
    const bar = page.locator(`rect.day[data-date="${today}"]`);
    // The per-day series is written in 5 s batches by whichever process answered each call (with
    // several instances or workers, another's calls show once it has written them): refresh until then.
    for (let i = 0; i < 40 && !(Number(await bar.getAttribute('data-used')) >= 7); i++) {
      await page.waitForTimeout(250);
      await page.getByRole('button', { name: 'Refresh' }).click();
    }
    assert.ok(Number(await bar.getAttribute('data-used')) >= 7, 'today has a bar with the calls');
    assert.ok(await page.getByRole('img', { name: /Requests per day/ }).isVisible());
    await shot('usage');
  });

  it('manages users and content: adds a user, changes a role, writes with a Markdown preview, publishes, archives', async () => {
    await open('Users');
    await page.getByLabel('E-mail address').fill(`browser-author-${Date.now()}@example.com`);
    await page.getByLabel('Name', { exact: true }).fill('Ada Author');
    await page.getByLabel('Role', { exact: true }).selectOption('author');
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('status').filter({ hasText: /as author\./ }).waitFor();
    const row = page.getByRole('row', { name: /Ada Author/ });
    await row.getByLabel(/Role of/).selectOption('editor');
    await row.getByRole('button', { name: /Save role of/ }).click();
    await page.getByRole('status').filter({ hasText: /is now editor\./ }).waitFor();
    await shot('users');

    await open('Content');
    await page.getByRole('link', { name: 'New content' }).click();
    await page.getByRole('heading', { name: 'New content', level: 1 }).waitFor();
    await page.getByLabel('Title').fill('Launch notes');
    await page.getByLabel('Type').selectOption('manual');
    await page.getByLabel('Text (Markdown)').fill(
      '# Launch\n\nThe **dashboard** ships ~~late~~.\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n<script>alert(1)</script>\n\n<img src="x" onerror="alert(1)">\n\n[bad](javascript:alert(1)) www.example.com',
    );
    // The server's renderer and sanitizer (src/domain/content/markdown.ts), loaded with the editor.
    const preview = page.getByRole('region', { name: 'Preview' });
    assert.equal(await preview.locator('h1').innerText(), 'Launch');
    assert.equal(await preview.locator('strong').innerText(), 'dashboard');
    assert.equal(await preview.locator('s').innerText(), 'late');
    assert.equal(await preview.locator('td[align="right"]').innerText(), '2');
    assert.equal(await preview.locator('a[href="http://www.example.com"][rel="noopener noreferrer nofollow"]').count(), 1);
    assert.equal(await preview.locator('script').count(), 0, 'raw HTML passes only through the allow-list');
    assert.doesNotMatch(await preview.innerText(), /<script>/);
    assert.equal(await preview.locator('[onerror]').count(), 0);
    assert.equal(await preview.locator('a[href^="javascript:"]').count(), 0);
    await shot('content-editor');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('status').filter({ hasText: 'Created and published.' }).waitFor();
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('status').filter({ hasText: /^Archived/ }).waitFor();
    const listed = await server.client.get('/v1/content?status=archived', { key: owner.key });
    assert.deepEqual(listed.body.data.map((i: { title: string }) => i.title), ['Launch notes']);

    await page.getByRole('link', { name: 'Back to the list' }).click();
    await page.getByLabel('Status').selectOption('archived');
    await page.getByRole('row', { name: /Launch notes/ }).waitFor();
    await shot('content');
  });

  it('shows a viewer only what a viewer may use: no API Settings, no Users', async () => {
    const viewer = await addUser(server, owner.key, 'viewer', { password: VIEWER_PASSWORD });
    const other = await chromium.browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 375, height: 740 } });
    try {
      const phone = await other.newPage();
      await signIn(phone, viewer.email, VIEWER_PASSWORD);
      const nav = phone.getByRole('navigation', { name: 'Sections' });
      assert.deepEqual(await nav.getByRole('link').allInnerTexts(), ['API Keys', 'OAuth Apps', 'Connected Apps', 'Usage', 'Content', 'Media', 'Profile']);
      assert.equal(await phone.getByRole('link', { name: 'New content' }).count(), 0);
      await phone.goto(`${server.baseUrl}/users`);
      await phone.getByText('Your role does not give access to this section.').waitFor();
      await phone.goto(`${server.baseUrl}/keys`);
      await phone.getByRole('heading', { name: 'API Keys', level: 1 }).waitFor();
      // Usable at 375 px: nothing wider than the screen but the tables, which scroll in their box.
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
      await shot('mobile-viewer', phone);
    } finally {
      await other.close();
    }
  });

  it('refuses a cross-site request from another origin that the browser sends with the session cookie', async () => {
    // Another origin on the same site (same host, other port): SameSite lets the cookie go along, so
    // only the Origin check and the CSRF token stand between the attacker's page and the account.
    const [cert, key] = await Promise.all(['tls-cert.pem', 'tls-key.pem'].map((f) => fs.readFile(path.join(server.dataDir, f), 'utf8')));
    const target = server.baseUrl;
    const evil = https.createServer({ cert, key }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>Win a prize</title>
<form id="f" method="POST" action="${target}/v1/content" enctype="text/plain">
<input name='{"title":"pwned","type":"blog","content":"x","padding":"' value='"}'></form>
<p id="fetch">pending</p>
<script>
fetch('${target}/v1/api-keys', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{"name":"stolen"}' })
  .then(() => { document.getElementById('fetch').textContent = 'sent'; document.getElementById('f').submit(); })
  .catch((e) => { document.getElementById('fetch').textContent = 'failed ' + e; document.getElementById('f').submit(); });
</script>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    try {
      const port = (evil.address() as { port: number }).port;
      const attack = await context.newPage();
      await attack.goto(`https://127.0.0.1:${port}/`);
      // The form's POST navigates the tab to the service's answer.
      await attack.waitForURL(`${target}/v1/content`);
      const answer = JSON.parse(await attack.locator('body').innerText()) as { code: string; message: string };
      assert.equal(answer.code, 'forbidden');
      assert.match(answer.message, /^Cross-site request refused/);
      await attack.close();

      const keys = await server.client.get('/v1/api-keys', { key: owner.key });
      assert.ok(!keys.body.data.some((k: { name: string }) => k.name === 'stolen'), 'no key was made');
      const items = await server.client.get('/v1/content', { key: owner.key });
      assert.ok(!items.body.data.some((i: { title: string }) => i.title === 'pwned'), 'no content was made');
      const refused = server.logs.filter((line) => /"status":403/.test(line) && /"method":"POST"/.test(line) && /\/v1\/(content|api-keys)"/.test(line));
      assert.ok(refused.length >= 2, `both attempts reached the server and were refused: ${refused.length}`);

      // The dashboard itself still works in that browser: the same cookie with the page's own token.
      await open('API Keys');
      await page.getByRole('heading', { name: 'Keys of the account' }).waitFor();
    } finally {
      await new Promise((resolve) => evil.close(resolve));
    }
  });

  it('signs out: the cookie no longer opens anything', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByText('You have signed out.').waitFor();
    const session = (await context.cookies()).find((c) => c.name === '__Host-cms_session');
    assert.equal(session, undefined);
  });
});
