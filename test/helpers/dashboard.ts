// Steps every dashboard browser test takes: a browser and a server with an account, signed in on the
// dashboard's own form; opening a section from the menu. New sections' suites start from here.
import type { BrowserContext, Page } from 'playwright-core';
import { startBrowser, type RunningBrowser } from './browser.js';
import type { Plan } from '../../src/config.js';
import { startServer, type ServerOptions, type TestAccount, type TestServer } from './server.js';

export interface Dashboard {
  chromium: RunningBrowser;
  server: TestServer;
  owner: TestAccount;
  context: BrowserContext;
  page: Page;
  /** Closes the page's context, the browser (by its PID) and the server. */
  close(): Promise<void>;
}

/** Chromium first (without it the suite fails at once and leaves nothing running), then the server, signed in as the account's owner. */
export async function startDashboard(options: { server?: ServerOptions; plan?: Plan } = {}): Promise<Dashboard> {
  const chromium = await startBrowser();
  let server: TestServer | undefined;
  let context: BrowserContext | undefined;
  try {
    server = await startServer('sqlite', options.server);
    const owner = await server.account(options.plan ? { plan: options.plan } : {});
    context = await chromium.browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1100, height: 800 } });
    const page = await context.newPage();
    await signInToDashboard(page, server.baseUrl, owner.email, owner.password);
    const [s, c] = [server, context];
    return { chromium, server, owner, context, page, close: async () => (await c.close().catch(() => {}), await chromium.close(), await s.close()) };
  } catch (error) {
    await context?.close().catch(() => {});
    await chromium.close();
    await server?.close();
    throw error;
  }
}

export async function signInToDashboard(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'API Keys', level: 1 }).waitFor();
}

export async function openSection(page: Page, section: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: section, exact: true }).click();
  await page.getByRole('heading', { name: section, level: 1 }).waitFor();
}
