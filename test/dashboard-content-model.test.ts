// The dashboard's "Content model" section and the content editor's typed fields, in Chromium
// (issue 25 item 6): an admin adds, edits, reorders and removes fields of the manual model; a bad
// definition's error stands beside its input; a change the items do not fit is refused with the
// counts in words; a stale model (If-Match) is said so; then an item is written with the typed form
// (enum select, date picker, number, reference search, media picker) and a value the model refuses
// is shown beside its input.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openSection, startDashboard, type Dashboard } from './helpers/dashboard.js';
import { multipart, PDF } from './helpers/multipart.js';
import { makePng } from './helpers/png.js';

describe('dashboard: content model (sqlite)', { timeout: 240_000 }, () => {
  let d: Dashboard;
  before(async () => {
    d = await startDashboard();
  });
  after(() => d?.close());

  const model = async () => (await d.server.client.get('/v1/content-types/manual', { key: d.owner.key })).body.data as { version: number; fields: { name: string; kind: string; [k: string]: unknown }[] };
  const said = (text: string | RegExp) => d.page.getByRole('status').filter({ hasText: text }).waitFor();
  const alerted = (text: string | RegExp) => d.page.getByRole('alert').filter({ hasText: text }).waitFor();

  async function addField(name: string, kind: string, more: (form: import('playwright-core').Locator) => Promise<void> = async () => {}) {
    const form = d.page.getByRole('form', { name: 'Add a field' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Kind', { exact: true }).selectOption(kind);
    await more(form);
    await form.getByRole('button', { name: 'Add field' }).click();
    await said(`Added the field “${name}”.`);
  }

  it('adds, edits, reorders and removes fields, explaining refusals', async () => {
    const { page } = d;
    await openSection(page, 'Content model');
    await page.getByLabel('Content type').selectOption('manual');
    await page.getByText('No fields yet').waitFor();

    await addField('product', 'enum', (form) => form.getByLabel('Choices (one per line)').fill('cms\ncrm'));
    await addField('version', 'string', (form) => form.getByLabel('Indexed').check());
    await addField('pages', 'integer', (form) => form.getByLabel('Lowest (optional)').fill('1'));
    await addField('released', 'date');
    await addField('summary', 'text');
    await addField('related', 'reference', (form) => form.getByRole('checkbox', { name: 'Blog post' }).check());
    let stored = await model();
    assert.deepEqual(stored.fields.map((f) => f.name), ['product', 'version', 'pages', 'released', 'summary', 'related']);
    assert.deepEqual(stored.fields[0], { name: 'product', kind: 'enum', values: ['cms', 'crm'] });
    assert.deepEqual(stored.fields[1], { name: 'version', kind: 'string', indexed: true });
    assert.deepEqual(stored.fields[2], { name: 'pages', kind: 'integer', min: 1 });
    assert.deepEqual(stored.fields[5], { name: 'related', kind: 'reference', types: ['blog'] });
    assert.equal(stored.version, 6);

    // A bad definition: the API's error stands beside the input it is about.
    const add = page.getByRole('form', { name: 'Add a field' });
    await add.getByLabel('Name').fill('Bad name');
    await add.getByRole('button', { name: 'Add field' }).click();
    await add.locator('input[name="name"][aria-invalid="true"]').waitFor();
    await add.getByLabel('Kind', { exact: true }).selectOption('integer');
    await add.getByLabel('Name').fill('level');
    await add.getByLabel('Lowest (optional)').fill('5');
    await add.getByLabel('Default (optional)').fill('2');
    await add.getByRole('button', { name: 'Add field' }).click();
    await add.locator('input[name="default"][aria-invalid="true"]').waitFor();
    assert.equal((await model()).version, 6);

    // Reorder.
    await page.getByRole('button', { name: 'Move pages up' }).click();
    await said('Moved “pages” up.');
    assert.deepEqual((await model()).fields.map((f) => f.name).slice(0, 3), ['product', 'pages', 'version']);

    // Edit: a limit on version.
    await page.getByRole('button', { name: 'Edit version' }).click();
    const edit = page.getByRole('form', { name: 'Edit the field “version”' });
    await edit.getByLabel('Most characters (optional)').fill('5');
    await edit.getByRole('button', { name: 'Save field' }).click();
    await said('Saved the field “version”.');
    stored = await model();
    assert.deepEqual(stored.fields.find((f) => f.name === 'version'), { name: 'version', kind: 'string', indexed: true, max_length: 5 });

    // Two items without pages: making pages required (no default) is refused with the count in words.
    for (const title of ['Old one', 'Old two']) await d.server.content(d.owner.key, { title, type: 'manual' });
    await page.getByRole('button', { name: 'Edit pages' }).click();
    const pages = page.getByRole('form', { name: 'Edit the field “pages”' });
    await pages.getByLabel('Required').check();
    await pages.getByRole('button', { name: 'Save field' }).click();
    await pages.getByRole('alert').filter({ hasText: '2 items of this type have no value for “pages”: give the field a default, or fill it in on those items first.' }).waitFor();
    assert.equal((await model()).fields.find((f) => f.name === 'pages')!.required, undefined);
    await pages.getByRole('button', { name: 'Cancel' }).click();

    // Someone else changes the model meanwhile: the next change is refused as stale (If-Match), and the model shown is the new one.
    const current = await model();
    const other = await d.server.client.put('/v1/content-types/manual', { key: d.owner.key, json: { fields: [...current.fields, { name: 'owner', kind: 'string' }] } });
    assert.equal(other.status, 200, other.text);
    await page.getByRole('button', { name: 'Remove summary' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove field' }).click();
    await alerted('Someone changed this model since you opened it');
    await page.getByRole('rowheader', { name: 'owner', exact: true }).waitFor();

    // Now the removal goes through.
    await page.getByRole('button', { name: 'Remove summary' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove field' }).click();
    await said('Removed the field “summary”.');
    assert.deepEqual((await model()).fields.map((f) => f.name), ['product', 'pages', 'version', 'released', 'related', 'owner']);
  });

  it('writes an item with the typed form: select, date picker, number, reference search; errors beside inputs', async () => {
    const { page, server, owner } = d;
    const target = await server.content(owner.key, { title: 'Release notes blog', type: 'blog' });
    const put = await server.client.put('/v1/content-types/manual', { key: owner.key, json: { fields: [
      { name: 'product', kind: 'enum', values: ['cms', 'crm'] },
      { name: 'pages', kind: 'integer', min: 1 },
      { name: 'version', kind: 'string', indexed: true, max_length: 5 },
      { name: 'released', kind: 'date' },
      { name: 'related', kind: 'reference', types: ['blog'] },
    ] } });
    assert.equal(put.status, 200, put.text);
    await openSection(page, 'Content');
    await page.getByRole('link', { name: 'New content' }).click();
    await page.getByLabel('Title').fill('Admin guide');
    await page.getByLabel('Text (Markdown)').fill('How to run it.');
    await page.getByLabel('Type', { exact: true }).selectOption('manual');
    await page.getByRole('group', { name: 'Fields of this type' }).waitFor();
    assert.equal(await page.getByLabel('released', { exact: true }).getAttribute('type'), 'date');
    await page.getByLabel('product', { exact: true }).selectOption('crm');
    await page.getByLabel('pages', { exact: true }).fill('120');
    await page.getByLabel('released', { exact: true }).fill('2026-03-01');
    await page.getByLabel('version', { exact: true }).fill('2.1.0-long');
    await page.getByLabel('Find an item for related').fill('release');
    await page.getByRole('button', { name: 'Search items for related' }).click();
    await page.getByRole('button', { name: 'Choose Release notes blog' }).click();
    assert.equal(await page.getByLabel('related', { exact: true }).inputValue(), target.id);

    // version has at most 5 characters: the error stands beside it, nothing is created.
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.locator('input[name="fields.version"][aria-invalid="true"]').waitFor();
    await page.getByLabel('version', { exact: true }).fill('2.1');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await said('Created as a draft.');
    const list = await server.client.get('/v1/content?type=manual&fields.version=2.1', { key: owner.key });
    assert.equal(list.body.data.length, 1);
    const item = await server.client.get(`/v1/content/${list.body.data[0].id}`, { key: owner.key });
    assert.deepEqual(item.body.data.fields, { product: 'crm', pages: 120, version: '2.1', released: '2026-03-01', related: target.id });

    // An edit clears a value (sent as null) and keeps the others.
    await page.getByLabel('pages', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await said('Saved.');
    const edited = await server.client.get(`/v1/content/${list.body.data[0].id}`, { key: owner.key });
    assert.deepEqual(edited.body.data.fields, { product: 'crm', version: '2.1', released: '2026-03-01', related: target.id });
  });

  it('fills media fields from the library: a file chosen for one, screenshots uploaded and added to a list', async () => {
    const { page, server, owner } = d;
    const { body, headers } = multipart([{ name: 'file', value: PDF, filename: 'datasheet.pdf' }]);
    const uploaded = await server.client.post('/v1/media', { key: owner.key, raw: body, headers });
    assert.equal(uploaded.status, 201, uploaded.text);
    const pdf = uploaded.body.data as { id: string };
    const put = await server.client.put('/v1/content-types/manual', { key: owner.key, json: { fields: [
      { name: 'product', kind: 'enum', values: ['cms', 'crm'] },
      { name: 'datasheet', kind: 'media' },
      { name: 'screenshots', kind: 'list', of: 'media' },
    ] } });
    assert.equal(put.status, 200, put.text);
    await openSection(page, 'Content');
    await page.getByRole('link', { name: 'New content' }).click();
    await page.getByLabel('Title').fill('Manual with pictures');
    await page.getByLabel('Text (Markdown)').fill('See the screenshots.');
    await page.getByLabel('Type', { exact: true }).selectOption('manual');
    await page.getByRole('group', { name: 'Fields of this type' }).waitFor();

    // One file: chosen from the library (every kind, not only images), its id put in the input.
    await page.getByRole('button', { name: 'Choose a file for datasheet' }).click();
    const chooser = page.getByRole('dialog', { name: 'Media for datasheet' });
    await chooser.getByRole('button', { name: 'Choose datasheet.pdf' }).click();
    await chooser.waitFor({ state: 'detached' });
    assert.equal(await page.getByLabel('datasheet', { exact: true }).inputValue(), pdf.id);

    // A list: two screenshots uploaded from the dialog, each added as a line.
    for (const [name, rgb] of [['first.png', [200, 0, 0]], ['second.png', [0, 0, 200]]] as const) {
      await page.getByRole('button', { name: 'Add a file to screenshots' }).click();
      const dialog = page.getByRole('dialog', { name: 'Media for screenshots' });
      await dialog.locator('input[type=file]').setInputFiles([{ name, mimeType: 'image/png', buffer: makePng(40, 30, [...rgb]) }]);
      await dialog.waitFor({ state: 'detached' });
    }
    const library = (await server.client.get('/v1/media?limit=10', { key: owner.key })).body.data as { id: string; filename: string }[];
    const idOf = (filename: string) => library.find((m) => m.filename === filename)!.id;
    assert.equal(await page.getByLabel('screenshots — one per line').inputValue(), `${idOf('first.png')}\n${idOf('second.png')}`);

    await page.getByLabel('product', { exact: true }).selectOption('cms');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Created as a draft.' }).waitFor();
    const list = await server.client.get('/v1/content?type=manual&q=pictures', { key: owner.key });
    const item = await server.client.get(`/v1/content/${list.body.data[0].id}`, { key: owner.key });
    assert.deepEqual(item.body.data.fields, { product: 'cms', datasheet: pdf.id, screenshots: [idOf('first.png'), idOf('second.png')] });
    // The files know where they are used.
    const sheet = await server.client.get(`/v1/media/${pdf.id}`, { key: owner.key });
    assert.deepEqual(sheet.body.data.used_by, [item.body.data.id]);
  });
});
