// The content list's bulk actions, in Chromium: checkboxes and a batch for the selected rows, and a
// bulk job for "all N matching" with its progress bar until it ends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openSection, startDashboard, type Dashboard } from './helpers/dashboard.js';

describe('dashboard: bulk actions on content (sqlite)', { timeout: 180_000 }, () => {
  let d: Dashboard;
  before(async () => {
    d = await startDashboard();
  });
  after(() => d?.close());

  it('publishes the selected rows in one batch, then archives all matching as a job', async () => {
    const { page, server, owner } = d;
    for (const title of ['Bulk one', 'Bulk two', 'Bulk three']) await server.content(owner.key, { title });
    await openSection(page, 'Content');
    await page.getByRole('checkbox', { name: 'Select Bulk one' }).check();
    await page.getByRole('checkbox', { name: 'Select Bulk two' }).check();
    await page.getByRole('button', { name: 'Publish selected' }).click();
    await page.getByRole('status').filter({ hasText: '2 published.' }).waitFor();
    const published = await server.client.get('/v1/content?status=published', { key: owner.key });
    assert.deepEqual(published.body.data.map((i: { title: string }) => i.title).sort(), ['Bulk one', 'Bulk two']);

    await page.getByLabel('Status').selectOption('draft');
    await page.getByRole('button', { name: 'Archive all 1 matching' }).click();
    await page.getByRole('status').filter({ hasText: 'Job succeeded: 1 of 1 done.' }).waitFor();
    assert.match((await page.getByRole('img', { name: /Job progress/ }).getAttribute('aria-label'))!, /100 %/);
    const drafts = await server.client.get('/v1/content?status=draft', { key: owner.key });
    assert.equal(drafts.body.pagination.total, 0);
    const jobs = await server.client.get('/v1/jobs', { key: owner.key });
    assert.equal(jobs.body.data[0].status, 'succeeded');
  });
});
