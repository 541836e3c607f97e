// The dashboard's shared form behaviour in a real browser (Chromium, playwright-core) against a real
// server: a check made before sending marks its input and sends nothing; a 422's field errors stand
// beside the right inputs while the alert keeps the summary; a 412 on an edit is explained in words.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { openSection, startDashboard, type Dashboard } from './helpers/dashboard.js';
import type { TestAccount, TestServer } from './helpers/server.js';

/** The text an input's aria-describedby points at (its hint and its error). */
const description = (input: Locator) =>
  input.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );

describe('dashboard forms in a browser (sqlite)', { timeout: 240_000 }, () => {
  let dashboard: Dashboard;
  let server: TestServer;
  let owner: TestAccount;
  let page: Page;

  before(async () => {
    dashboard = await startDashboard();
    ({ server, owner, page } = dashboard);
  });
  after(() => dashboard?.close());

  const open = (section: string) => openSection(page, section);

  it('marks the input a check before sending found wrong, and sends nothing', async () => {
    const before = (await server.client.get('/v1/api-keys', { key: owner.key })).body.data.length;
    await open('API Keys');
    const name = page.getByLabel('Name', { exact: true });
    await page.getByRole('button', { name: 'Generate key' }).click();
    await page.locator('input[aria-invalid="true"]').waitFor();
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    assert.match(await description(name), /Give the key a name, such as the program that will use it\./);
    assert.equal(await page.getByRole('alert').filter({ hasText: /\S/ }).count(), 0, 'no alert for a problem shown at its input');
    assert.equal((await server.client.get('/v1/api-keys', { key: owner.key })).body.data.length, before, 'nothing was sent');

    await name.fill('named now');
    await page.getByRole('button', { name: 'Generate key' }).click();
    await page.getByRole('heading', { name: 'Your new key “named now”' }).waitFor();
    await page.getByRole('button', { name: 'I have stored it' }).click();
    assert.equal(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid'), null, 'the mark is gone once it is right');
  });

  it('shows a 422 field error beside its input and keeps the summary in the alert', async () => {
    await open('Users');
    const email = page.getByLabel('E-mail address');
    await email.fill('not an address');
    await page.getByLabel('Name', { exact: true }).fill('Nobody');
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('alert').filter({ hasText: 'The request body failed validation' }).waitFor();
    assert.equal(await email.getAttribute('aria-invalid'), 'true');
    assert.match(await description(email), /email must be a valid email\./);
    assert.equal(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid'), null, 'only the field the API named');

    await email.fill(`forms-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('status').filter({ hasText: /as viewer\./ }).waitFor();
    assert.equal(await email.getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('alert').filter({ hasText: /\S/ }).count(), 0);
  });

  it('explains a 412 on saving an item someone changed meanwhile, and keeps the text typed', async () => {
    const created = await server.client.post('/v1/content', { key: owner.key, json: { title: 'Shared notes', type: 'blog', content: 'first' } });
    assert.equal(created.status, 201, created.text);
    const id = created.body.data.id as string;
    await page.goto(`${server.baseUrl}/content/${id}`);
    await page.getByRole('heading', { name: 'Edit “Shared notes”', level: 1 }).waitFor();
    const changed = await server.client.put(`/v1/content/${id}`, { key: owner.key, json: { content: 'theirs' } });
    assert.equal(changed.status, 200, changed.text);
    await page.getByLabel('Text (Markdown)').fill('mine');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Someone changed this item since you opened it.' }).waitFor();
    assert.equal(await page.getByLabel('Text (Markdown)').inputValue(), 'mine');
    assert.equal((await server.client.get(`/v1/content/${id}`, { key: owner.key })).body.data.content, 'theirs', 'their version was not overwritten');
  });
});
