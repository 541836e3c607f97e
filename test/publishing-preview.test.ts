// Preview links (CONTRACT.md §19), opened in a real browser (Debian's Chromium via playwright-core):
// POST /v1/content/{id}/preview answers 201 {url, expires_at} without Location; the link shows the
// draft as it is when opened, rendered by the API's Markdown entry point, without a key, with
// X-Robots-Tag: noindex and the dashboard's Content-Security-Policy; it stops working when the item
// is deleted, and after PREVIEW_TTL (on a clock the test moves).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startBrowser, type RunningBrowser } from './helpers/browser.js';
import { manualClock } from './helpers/limits.js';
import { addKey, addUser } from './helpers/people.js';
import { startServer, type TestServer } from './helpers/server.js';
import { testStores } from './helpers/stores.js';
import { PAGE_HEADERS } from '../src/http/dashboard.js';

for (const store of testStores()) {
  describe(`preview links (${store})`, { timeout: 180_000 }, () => {
    const time = manualClock('2027-03-01T09:00:00.000Z');
    let chromium: RunningBrowser;
    let server: TestServer;
    let context: BrowserContext;
    let page: Page;
    before(async () => {
      chromium = await startBrowser();
      server = await startServer(store, { clock: time.clock, env: { PREVIEW_TTL: '3600' } });
      context = await chromium.browser.newContext({ ignoreHTTPSErrors: true });
      page = await context.newPage();
    });
    after(async () => {
      await context?.close().catch(() => {});
      await chromium?.close();
      await server?.close();
    });

    it('makes a signed link that shows the draft as it is when opened', async () => {
      const owner = await server.account();
      const draft = await server.content(owner.key, {
        title: 'Launch plan',
        content: '# Launch plan\n\nWe ship on **Monday**.\n\n<script>document.title = "script ran"</script>\n\n| a | b |\n|---|---|\n| 1 | 2 |',
      });
      const made = await server.client.post(`/v1/content/${draft.id}/preview`, { key: owner.key });
      assert.equal(made.status, 201, made.text);
      assert.equal(made.headers.location, undefined, 'no Location: the link is not a resource of the API');
      assert.deepEqual(Object.keys(made.body.data).sort(), ['expires_at', 'url']);
      assert.equal(made.body.data.expires_at, new Date(time.now() + 3600_000).toISOString());
      const url = made.body.data.url as string;
      assert.ok(url.startsWith(`${server.app.publicUrl()}/preview/`), url);

      const response = await page.goto(url);
      assert.equal(response?.status(), 200);
      const headers = response!.headers();
      assert.equal(headers['x-robots-tag'], 'noindex');
      assert.equal(headers['content-security-policy'], PAGE_HEADERS['Content-Security-Policy']);
      assert.equal(headers['cache-control'], 'no-store');
      await page.getByRole('heading', { name: 'Launch plan', level: 1 }).first().waitFor();
      assert.match(await page.getByRole('note').innerText(), /Preview: this item is a draft/);
      assert.equal(await page.locator('.body strong').innerText(), 'Monday');
      assert.equal(await page.locator('.body table td').count(), 2);
      assert.equal(await page.title(), 'Preview: Launch plan', 'no script ran');
      // The style sheet came from this origin, under the CSP.
      const styled = await page.locator('article').evaluate((el) => getComputedStyle(el).borderRadius);
      assert.equal(styled, '8px');

      // As it is when opened: an edit shows on the next load, with the rendered body the API gives.
      await server.client.put(`/v1/content/${draft.id}`, { key: owner.key, json: { title: 'Launch plan v2', content: 'Now *Tuesday*.' } });
      await page.reload();
      await page.getByRole('heading', { name: 'Launch plan v2' }).waitFor();
      const rendered = await server.client.get(`/v1/content/${draft.id}?render=html`, { key: owner.key });
      assert.equal((await page.locator('.body').innerHTML()).trim(), rendered.body.data.content_html.trim());

      // Dead once the item is deleted.
      assert.equal((await server.client.delete(`/v1/content/${draft.id}`, { key: owner.key })).status, 204);
      const gone = await page.goto(url);
      assert.equal(gone?.status(), 404);
      await page.getByRole('heading', { name: 'Preview unavailable' }).waitFor();
      assert.equal(gone!.headers()['x-robots-tag'], 'noindex');
    });

    it('stops working after PREVIEW_TTL, and refuses a link it did not sign', async () => {
      const owner = await server.account();
      const draft = await server.content(owner.key, { title: 'Short-lived' });
      const { url } = (await server.client.post(`/v1/content/${draft.id}/preview`, { key: owner.key })).body.data;
      assert.equal((await page.goto(url))?.status(), 200);
      const tampered = `${url.slice(0, -3)}${url.endsWith('AAA') ? 'BBB' : 'AAA'}`;
      assert.equal((await page.goto(tampered))?.status(), 404);
      time.advance(3600_000 + 1000);
      const expired = await page.goto(url);
      assert.equal(expired?.status(), 410);
      assert.match(await page.locator('main').innerText(), /expired/);
    });

    it('takes content:write to make one; a viewer and a delivery key are refused', async () => {
      const owner = await server.account();
      const draft = await server.content(owner.key, { title: 'Secret draft' });
      const viewer = await addUser(server, owner.key, 'viewer');
      const viewerKey = await addKey(server, owner.key, { user_id: viewer.id });
      assert.equal((await server.client.post(`/v1/content/${draft.id}/preview`, { key: viewerKey.key })).status, 403);
      const delivery = await addKey(server, owner.key, { kind: 'delivery' });
      assert.equal((await server.client.post(`/v1/content/${draft.id}/preview`, { key: delivery.key })).status, 403);
      const other = await server.account();
      assert.equal((await server.client.post(`/v1/content/${draft.id}/preview`, { key: other.key })).status, 404, 'another account\'s item does not exist');
    });
  });
}
