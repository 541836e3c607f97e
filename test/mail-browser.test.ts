// E-mail links followed in a real browser (Debian's Chromium driven by playwright-core) against a
// real server and a real SMTP server: a person invited through the API opens the link, sets a
// password on the page and signs in to the dashboard; "Forgot password?" from the dashboard's
// sign-in form leads to a reset; and a signed-in person changes their own password under Profile.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startBrowser, type RunningBrowser } from './helpers/browser.js';
import { addUser } from './helpers/people.js';
import { startServer, type TestAccount, type TestServer } from './helpers/server.js';
import { signInRequest } from './helpers/sessions.js';
import { linkIn, SmtpSink } from './helpers/smtp.js';

describe('e-mail links in a browser (sqlite)', { timeout: 240_000 }, () => {
  let chromium: RunningBrowser;
  let server: TestServer;
  let smtp: SmtpSink;
  let owner: TestAccount;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    // The browser first: without Chromium the suite fails at once and leaves nothing running.
    chromium = await startBrowser();
    smtp = await SmtpSink.start();
    server = await startServer('sqlite', { env: { SMTP_URL: smtp.url() } });
    owner = await server.account();
    context = await chromium.browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1100, height: 800 } });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close().catch(() => {});
    await chromium?.close();
    await server?.close();
    await smtp?.close();
  });

  async function signInOnDashboard(email: string, password: string): Promise<void> {
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API Keys', level: 1 }).waitFor();
  }

  async function setPasswordThrough(link: string, password: string): Promise<void> {
    await page.goto(link);
    await page.getByRole('heading', { name: 'Set your password' }).waitFor();
    await page.getByLabel('New password').fill(password);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { name: 'Your password is set' }).waitFor();
  }

  it('lets an invited person follow the link, set a password and sign in', async () => {
    const invited = await addUser(server, owner.key, 'editor', { name: 'Browser Invitee' });
    const [mail] = await smtp.waitForMailTo(invited.email);
    await setPasswordThrough(linkIn(mail!), 'chosen in the browser');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail address').fill(invited.email);
    await page.getByLabel('Password').fill('chosen in the browser');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API Keys', level: 1 }).waitFor();
    assert.match(await page.locator('header').innerText(), new RegExp(invited.email.replace(/[.]/g, '\\.')));

    // The link worked once: opened again, it says so.
    await page.goto(linkIn(mail!));
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    assert.ok(await page.getByRole('link', { name: 'Forgot password?' }).isVisible());
    assert.equal(await page.getByRole('button', { name: 'Sign out' }).count(), 0, 'a page of the service, not of the dashboard');
    await context.clearCookies();
  });

  it('resets a password from the dashboard\'s "Forgot password?" link', async () => {
    const person = await addUser(server, owner.key, 'viewer', { password: 'forgotten passphrase' });
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot password?' }).waitFor();
    await page.getByLabel('Email').fill(person.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    const [mail] = await smtp.waitForMailTo(person.email);
    assert.equal(mail!.subject, 'Reset your Content Management Service password');
    await setPasswordThrough(linkIn(mail!), 'remembered this time');
    await signInOnDashboard(person.email, 'remembered this time');
    assert.equal((await signInRequest(server.client, person.email, 'forgotten passphrase')).status, 401);
    await context.clearCookies();
  });

  it('changes one\'s own password under Profile', async () => {
    await signInOnDashboard(owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Profile', exact: true }).click();
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    await page.getByLabel('Current password').fill('not it at all');
    await page.getByLabel('New password').fill('owner changed this');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'This is not your current password.' }).waitFor();
    await page.getByLabel('Current password').fill(owner.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password has been changed.' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal((await signInRequest(server.client, owner.email, owner.password)).status, 401);
    await signInOnDashboard(owner.email, 'owner changed this');
  });
});
