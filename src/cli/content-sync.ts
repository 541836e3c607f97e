// `cms content export` and `import`: a directory of Markdown files (one per item, content-files.ts)
// mirrored to and from the service. Import is idempotent — the same files twice change nothing —
// and safe: an item is updated by id with If-Match on the version in its file, so an edit made on
// the service since the export is refused (412), never overwritten; a new item is created under an
// Idempotency-Key derived from its file, so a re-run after a crash does not create it twice; and
// each file is rewritten with its item's id and version once the service has it.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { CmsApiError, type CmsClient, type ContentItem, type ContentListQuery } from '@cms-service/client';
import { formatContentFile, markdownFiles, parseContentFile, writeAtomically, type ContentFile } from './content-files.js';

const PARALLEL = 8;

export interface ImportSummary {
  created: number;
  updated: number;
  unchanged: number;
  failed: { file: string; error: string }[];
}

/** A progress bar on stderr when it is a terminal; nothing otherwise (stdout stays pure JSON). */
function progress(total: number, label: string) {
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: `${label} [{bar}] {value}/{total}`, hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return bar;
}

/** Runs `work` over `items`, PARALLEL at a time, in order of start. */
async function inParallel<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const toFile = (item: ContentItem): ContentFile => ({ id: item.id, title: item.title, type: item.type, status: item.status, version: item.version, content: item.content });

export async function exportContent(cms: CmsClient, dir: string, filter: ContentListQuery): Promise<{ exported: number; dir: string }> {
  await fs.mkdir(dir, { recursive: true });
  const ids: string[] = [];
  for await (const item of cms.content.iterate(filter)) ids.push(item.id);
  const bar = progress(ids.length, 'export');
  await inParallel(ids, async (id) => {
    try {
      const item = await cms.content.get(id);
      await writeAtomically(path.join(dir, `${id}.md`), formatContentFile(toFile(item)));
    } catch (error) {
      // Deleted between the listing and the read: nothing to export.
      if (!(error instanceof CmsApiError && error.status === 404)) throw error;
    }
    bar.increment();
  });
  bar.stop();
  return { exported: (await markdownFiles(dir)).filter((f) => ids.includes(path.basename(f, '.md'))).length, dir: path.resolve(dir) };
}

export async function importContent(cms: CmsClient, dir: string): Promise<ImportSummary> {
  const files = await markdownFiles(dir);
  const summary: ImportSummary = { created: 0, updated: 0, unchanged: 0, failed: [] };
  const bar = progress(files.length, 'import');
  await inParallel(files, async (file) => {
    try {
      const text = await fs.readFile(file, 'utf8');
      const outcome = await importOne(cms, file, text, parseContentFile(text));
      summary[outcome]++;
    } catch (error) {
      summary.failed.push({ file: path.basename(file), error: describe(error) });
    }
    bar.increment();
  });
  bar.stop();
  summary.failed.sort((a, b) => a.file.localeCompare(b.file));
  return summary;
}

async function importOne(cms: CmsClient, file: string, text: string, wanted: ContentFile): Promise<'created' | 'updated' | 'unchanged'> {
  const current = wanted.id === undefined ? undefined : await cms.content.get(wanted.id).catch(notFoundAsUndefined);
  if (!current) {
    const created = await cms.content.create(
      { title: wanted.title, type: wanted.type, content: wanted.content, status: wanted.status === 'published' ? 'published' : 'draft' } as never,
      // The same file (path and bytes) always asks with the same key: a re-run replays, never duplicates.
      { idempotencyKey: `cms-import-${createHash('sha256').update(path.resolve(file)).update('\0').update(text).digest('hex').slice(0, 48)}` },
    );
    const final = wanted.status === 'archived' ? await cms.content.archive(created.id, { ifMatch: created.version }) : created;
    await writeAtomically(file, formatContentFile(toFile(final)));
    return 'created';
  }
  const changes: Record<string, string> = {};
  for (const field of ['title', 'type', 'content'] as const) if (wanted[field] !== current[field]) changes[field] = wanted[field];
  const archive = wanted.status === 'archived' && current.status !== 'archived';
  if (wanted.status !== current.status && !archive) changes.status = wanted.status;
  if (Object.keys(changes).length === 0 && !archive) {
    if (wanted.version !== current.version) await writeAtomically(file, formatContentFile(toFile(current)));
    return 'unchanged';
  }
  // Changed on the service since this file was written: refuse rather than overwrite that edit.
  let version = wanted.version ?? current.version;
  let item = current;
  if (Object.keys(changes).length) {
    item = await cms.content.update(current.id, changes as never, { ifMatch: version });
    version = item.version;
  }
  if (archive) item = await cms.content.archive(current.id, { ifMatch: version });
  await writeAtomically(file, formatContentFile(toFile(item)));
  return 'updated';
}

function notFoundAsUndefined(error: unknown): undefined {
  if (error instanceof CmsApiError && error.status === 404) return undefined;
  throw error;
}

function describe(error: unknown): string {
  if (error instanceof CmsApiError) {
    if (error.code === 'precondition_failed') return 'the item was changed on the service since this file was written (412); export it again, then re-apply your edit';
    const fields = error.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
    return `${error.message}${fields ? ` ${fields}` : ''} (${error.status} ${error.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}
