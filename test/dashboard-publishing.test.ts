// The dashboard's publishing parts, in Chromium: the API Keys section makes both kinds of key and says
// what each is for (a delivery key reads published content only), and the content editor's "Preview"
// button makes a link that opens the item as a reader would see it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openSection, startDashboard, type Dashboard } from './helpers/dashboard.js';

describe('dashboard: delivery keys and previews (sqlite)', { timeout: 180_000 }, () => {
  let d: Dashboard;
  before(async () => {
    d = await startDashboard();
  });
  after(() => d?.close());

  it('generates a delivery key, says what it is for, and lists it as one', async () => {
    const { page, server, owner } = d;
    await openSection(page, 'API Keys');
    assert.match(await page.locator('.lead').innerText(), /delivery key.*only reads published content/i);
    await page.getByLabel('Kind').selectOption('delivery');
    assert.match(await page.getByText(/For the site or app that shows your content/).innerText(), /only read published items/);
    assert.equal(await page.getByRole('checkbox', { name: /content:write/ }).count(), 0, 'no scopes to choose');
    await page.getByLabel('Name', { exact: true }).fill('Website');
    await page.getByRole('button', { name: 'Generate key' }).click();
    await page.getByRole('heading', { name: 'Your new key “Website”' }).waitFor();
    const key = await page.getByLabel('Your API key').inputValue();
    assert.match(key, /^cms_live_dlv_[0-9A-Za-z]{40}$/);

    const published = await server.content(owner.key, { title: 'Out now', status: 'published' });
    await server.content(owner.key, { title: 'Not yet' });
    const listed = await server.client.get('/v1/content', { key });
    assert.deepEqual(listed.body.data.map((i: { id: string }) => i.id), [published.id]);
    assert.equal((await server.client.post('/v1/content', { key, json: { title: 'x', type: 'blog', content: 'x' } })).status, 403);

    await page.getByRole('button', { name: 'I have stored it' }).click();
    const row = page.getByRole('row', { name: /Website/ });
    await row.waitFor();
    assert.match(await row.innerText(), /Delivery/);
    assert.match(await row.innerText(), new RegExp(key.slice(0, 16)));
    // A management key is still the default, with its scopes.
    assert.equal(await page.getByLabel('Kind').inputValue(), 'management');
    assert.ok(await page.getByRole('checkbox', { name: /content:write/ }).isVisible());
  });

  it('makes a preview link from the editor that opens the draft as readers would see it', async () => {
    const { page, server, owner } = d;
    const draft = await server.content(owner.key, { title: 'Draft to share', content: 'Some **bold** words.' });
    await page.goto(`${server.baseUrl}/content/${draft.id}`);
    await page.getByRole('heading', { name: 'Edit “Draft to share”' }).waitFor();
    assert.match(await page.locator('.hint').first().innerText(), /slug draft-to-share/);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('status').filter({ hasText: 'Preview link made' }).waitFor();
    const link = page.getByRole('link', { name: 'Open the preview' });
    assert.equal(await link.getAttribute('target'), '_blank');
    const url = (await link.getAttribute('href'))!;
    assert.equal(await page.getByLabel('Preview link').inputValue(), url);

    const preview = await d.context.newPage();
    const response = await preview.goto(url);
    assert.equal(response?.status(), 200);
    await preview.getByRole('heading', { name: 'Draft to share', level: 1 }).first().waitFor();
    assert.equal(await preview.locator('.body strong').innerText(), 'bold');
    assert.equal(response!.headers()['x-robots-tag'], 'noindex');
    await preview.close();
  });
});
