// The dashboard's Media section and the editor's "Insert image", in Chromium (CONTRACT.md §18): a
// file dropped on the zone uploads with a progress bar that moves (upload throttled through the
// DevTools protocol so it can be seen), the grid shows thumbnails made as image variants, alt text
// is saved, "Copy Markdown" puts the reference on the clipboard, deleting a file in use names the
// items and asks again before deleting anyway, and the editor inserts a picked image that its
// preview shows. The Media screenshot goes to a temporary folder, or to docs/screenshots with
// UPDATE_SCREENSHOTS=1.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openSection, signInToDashboard, startDashboard, type Dashboard } from './helpers/dashboard.js';
import { addUser } from './helpers/people.js';
import { makePng } from './helpers/png.js';

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve('docs/screenshots') : path.join(os.tmpdir(), `cms-media-screenshots-${process.pid}`);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('dashboard: media (sqlite)', { timeout: 180_000 }, () => {
  let d: Dashboard;
  before(async () => {
    await fs.mkdir(SHOTS, { recursive: true });
    d = await startDashboard();
    await d.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: d.server.baseUrl });
  });
  after(() => d?.close());

  const media = async (): Promise<Json[]> => (await d.server.client.get('/v1/media?limit=100', { key: d.owner.key })).body.data;

  it('uploads a dropped file with a progress bar that moves, and shows its thumbnail from a variant', async () => {
    const { page } = d;
    await openSection(page, 'Media');
    await page.getByText('No media yet').waitFor();
    // About 1.2 MB at 400 KB/s: long enough to watch the bar.
    const big = makePng(800, 500, [180, 60, 20], true);
    assert.ok(big.length > 1_000_000, `${big.length} bytes`);
    const cdp = await d.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 400 * 1024 });
    const drop = await page.evaluateHandle(
      ({ base64, name }) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type: 'image/png' }));
        return transfer;
      },
      { base64: big.toString('base64'), name: 'sunset.png' },
    );
    await page.locator('.drop-zone').dispatchEvent('dragover', { dataTransfer: drop });
    await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer: drop });
    const bar = page.getByRole('img', { name: /^Uploading sunset\.png: \d+ %$/ });
    await bar.waitFor();
    const shares = new Set<number>();
    const end = Date.now() + 30_000;
    while (Date.now() < end && (await bar.count())) {
      const label = await bar.getAttribute('aria-label').catch(() => null);
      if (label) shares.add(Number(/(\d+) %/.exec(label)![1]));
      await page.waitForTimeout(50);
    }
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    assert.ok([...shares].some((s) => s > 0 && s < 100), `the bar moved through values between 0 and 100 (saw ${[...shares].sort((a, b) => a - b).join(', ')})`);
    await page.getByRole('status').filter({ hasText: 'Uploaded sunset.png.' }).waitFor();

    const [record] = await media();
    assert.deepEqual([record.filename, record.width, record.height, record.size], ['sunset.png', 800, 500, big.length]);
    const thumb = page.locator('.media-card img').first();
    await thumb.waitFor();
    assert.equal(await thumb.getAttribute('src'), `/v1/media/${record.id}/file?w=320&format=webp`);
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.media-card img');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    assert.equal(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth), 320, 'a variant 320 pixels wide');
    assert.match(await page.locator('.media-card').first().innerText(), /800 × 500/);

    // The "Choose files" input works too.
    await page.locator('.drop-zone input[type=file]').setInputFiles([{ name: 'diagram.png', mimeType: 'image/png', buffer: makePng(200, 100, [20, 90, 180]) }]);
    await page.getByRole('status').filter({ hasText: 'Uploaded diagram.png.' }).waitFor();
    await page.locator('.media-card').filter({ hasText: 'diagram.png' }).waitFor();
    assert.equal((await media()).length, 2);
  });

  it('saves alt text and copies the Markdown reference', async () => {
    const { page } = d;
    const card = page.locator('.media-card').filter({ hasText: 'sunset.png' });
    await card.getByLabel('Alt text of sunset.png').fill('A sunset over the bay');
    await card.getByRole('button', { name: 'Save alt text' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved the alt text of sunset.png.' }).waitFor();
    const record = (await media()).find((m) => m.filename === 'sunset.png');
    assert.deepEqual([record.alt, record.version], ['A sunset over the bay', 2]);
    await card.getByRole('button', { name: 'Copy Markdown of sunset.png' }).click();
    const markdown = `![A sunset over the bay](media:${record.id})`;
    await page.getByRole('status').filter({ hasText: `Copied ${markdown}` }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), markdown);
    assert.equal(await card.getByLabel('Markdown of sunset.png', { exact: true }).inputValue(), markdown);
    await page.screenshot({ path: path.join(SHOTS, 'media.png'), fullPage: true });
  });

  it('inserts an image in the editor, which the preview shows and the saved item references', async () => {
    const { page, server } = d;
    const record = (await media()).find((m) => m.filename === 'sunset.png');
    await page.goto(`${server.baseUrl}/content/new`);
    await page.getByRole('heading', { name: 'New content' }).waitFor();
    await page.getByLabel('Title').fill('Evening');
    await page.getByLabel('Text (Markdown)').fill('# Evening\n\nLook:');
    await page.getByRole('button', { name: 'Insert image' }).click();
    const dialog = page.getByRole('dialog', { name: 'Insert image' });
    await dialog.getByRole('button', { name: 'Insert sunset.png' }).click();
    await dialog.waitFor({ state: 'detached' });
    const text = `# Evening\n\nLook:\n![A sunset over the bay](media:${record.id})\n`;
    assert.equal(await page.getByLabel('Text (Markdown)').inputValue(), text);
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.preview img');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    assert.equal(await page.locator('.preview img').getAttribute('alt'), 'A sunset over the bay');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { name: 'Edit “Evening”' }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    assert.equal((await server.client.get(`/v1/content/${id}`, { key: d.owner.key })).body.data.content, text);

    // Uploading from the dialog inserts the new image at once.
    await page.getByRole('button', { name: 'Insert image' }).click();
    await page.getByRole('dialog', { name: 'Insert image' }).locator('input[type=file]').setInputFiles([{ name: 'chart.png', mimeType: 'image/png', buffer: makePng(60, 40, [0, 150, 0]) }]);
    await page.getByRole('dialog', { name: 'Insert image' }).waitFor({ state: 'detached' });
    const chart = (await media()).find((m) => m.filename === 'chart.png');
    assert.ok((await page.getByLabel('Text (Markdown)').inputValue()).endsWith(`![](media:${chart.id})\n`));
  });

  it('deleting a file in use names the items and deletes only when asked again', async () => {
    const { page, server } = d;
    const record = (await media()).find((m) => m.filename === 'sunset.png');
    const item = (await server.client.get(`/v1/content?q=Evening`, { key: d.owner.key })).body.data[0];
    await page.goto(`${server.baseUrl}/media`);
    const card = page.locator('.media-card').filter({ hasText: 'sunset.png' });
    await card.getByRole('button', { name: 'Delete sunset.png' }).click();
    await page.getByRole('dialog', { name: 'Delete “sunset.png”?' }).getByRole('button', { name: 'Delete' }).click();
    const inUse = page.getByRole('dialog', { name: '“sunset.png” is in use' });
    await inUse.waitFor();
    assert.equal(await inUse.getByRole('list', { name: 'In use by' }).getByRole('link', { name: 'Evening' }).getAttribute('href'), `/content/${item.id}`);
    assert.equal((await server.client.get(`/v1/media/${record.id}`, { key: d.owner.key })).status, 200, 'not deleted yet');
    await inUse.getByRole('button', { name: 'Delete anyway' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted sunset.png.' }).waitFor();
    assert.equal((await server.client.get(`/v1/media/${record.id}`, { key: d.owner.key })).status, 404);
    assert.equal(await page.locator('.media-card').filter({ hasText: 'sunset.png' }).count(), 0);

    // A file nothing uses goes at the first yes.
    await page.locator('.media-card').filter({ hasText: 'diagram.png' }).getByRole('button', { name: 'Delete diagram.png' }).click();
    await page.getByRole('dialog', { name: 'Delete “diagram.png”?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted diagram.png.' }).waitFor();
  });

  it('shows a viewer the files and their Markdown, with nothing to upload, change or delete', async () => {
    const { server, owner } = d;
    const viewer = await addUser(server, owner.key, 'viewer', { password: 'a viewer passphrase' });
    const other = await d.chromium.browser.newContext({ ignoreHTTPSErrors: true });
    try {
      const page = await other.newPage();
      await signInToDashboard(page, server.baseUrl, viewer.email, 'a viewer passphrase');
      await openSection(page, 'Media');
      const card = page.locator('.media-card').filter({ hasText: 'chart.png' });
      await card.waitFor();
      assert.equal(await page.locator('.drop-zone').count(), 0, 'no upload');
      assert.equal(await card.getByRole('button', { name: /Delete|Save alt text/ }).count(), 0);
      assert.ok(await card.getByLabel('Alt text of chart.png').isDisabled());
      assert.ok(await card.getByRole('button', { name: 'Copy Markdown of chart.png' }).isVisible());
    } finally {
      await other.close();
    }
  });
});
