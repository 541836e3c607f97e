// `cms content export` and `import`: a directory of Markdown files (one per item, content-files.ts)
// mirrored to and from the service. Import is idempotent — the same files twice change nothing —
// and safe: an item is updated by id with If-Match on the version in its file, so an edit made on
// the service since the export is refused (412), never overwritten; a new item is created under an
// Idempotency-Key derived from its file, so a re-run after a crash does not create it twice; and
// each file is rewritten with its item's id and version once the service has it. New items are sent
// 100 to a request (POST /v1/content/batch, independent), up to 3 batches in flight, each under a
// key derived from its files and written down in the directory (a journal file per batch) until its
// files are rewritten (docs/bulk.md#cms-content-import).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { CmsApiError, type BatchOperation, type BatchResult, type CmsClient, type ContentItem, type ContentListQuery } from '@cms-service/client';
import { formatContentFile, markdownFiles, overwrite, parseContentFile, writeAtomically, type ContentFile } from './content-files.js';
import { exportMedia, fieldMediaIds, importMedia, mediaReferences, rewriteFieldIds, rewriteReferences } from './content-media.js';

const PARALLEL = 8;
/**
 * Batches in flight: while the service writes one, the next ones wait in its queue (and share its
 * group commit) and the files of another are rewritten. On loopback 3 now keeps the service as busy
 * as 8 (docs/bulk.md); 8 also hides the round trips to a service farther away.
 */
const BATCHES_IN_FLIGHT = 8;

export interface ImportSummary {
  created: number;
  updated: number;
  unchanged: number;
  failed: { file: string; error: string }[];
  /** Present when the directory has media (media.json): files uploaded, files the account already had. */
  media?: { uploaded: number; reused: number };
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

/**
 * Work started as it comes, at most `limit` at a time: `start` waits for a free lane. After a failure
 * nothing more starts (`failed` says so); `finish` waits for the work under way and throws the first failure.
 */
class Lanes {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly limit: number) {}

  get failed(): boolean {
    return this.failure !== undefined;
  }

  async start(work: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.limit) await Promise.race(this.running);
    if (this.failure) return;
    const task: Promise<void> = work()
      .catch((error: unknown) => void (this.failure ??= { error }))
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  async finish(): Promise<void> {
    await Promise.all(this.running);
    if (this.failure) throw this.failure.error;
  }
}

/** Runs `work` over `items`, `limit` at a time, in order of start (see Lanes for failures). */
async function inParallel<T>(items: T[], work: (item: T) => Promise<void>, limit = PARALLEL): Promise<void> {
  const lanes = new Lanes(limit);
  for (const item of items) {
    if (lanes.failed) break;
    await lanes.start(() => work(item));
  }
  await lanes.finish();
}

const toFile = (item: ContentItem): ContentFile => ({
  id: item.id,
  title: item.title,
  type: item.type,
  status: item.status,
  version: item.version,
  slug: item.slug ?? undefined,
  publish_at: item.publish_at ?? undefined,
  unpublish_at: item.unpublish_at ?? undefined,
  ...(item.fields && Object.keys(item.fields).length ? { fields: item.fields as Record<string, unknown> } : {}),
  content: item.content,
});

export async function exportContent(
  cms: CmsClient,
  dir: string,
  filter: ContentListQuery,
): Promise<{ exported: number; dir: string; media: number; missing_media?: string[] }> {
  await fs.mkdir(dir, { recursive: true });
  const ids: string[] = [];
  for await (const item of cms.content.iterate(filter)) ids.push(item.id);
  const bar = progress(ids.length, 'export');
  const referenced: string[] = [];
  await inParallel(ids, async (id) => {
    try {
      const item = await cms.content.get(id);
      referenced.push(...mediaReferences(item.content), ...fieldMediaIds(item.fields));
      await writeAtomically(path.join(dir, `${id}.md`), formatContentFile(toFile(item)));
    } catch (error) {
      // Deleted between the listing and the read: nothing to export.
      if (!(error instanceof CmsApiError && error.status === 404)) throw error;
    }
    bar.increment();
  });
  bar.stop();
  // The files the Markdown shows, beside it: media/<filename>, listed in media.json.
  const media = await exportMedia(cms, dir, referenced);
  return {
    exported: (await markdownFiles(dir)).filter((f) => ids.includes(path.basename(f, '.md'))).length,
    dir: path.resolve(dir),
    media: media.files,
    ...(media.missing.length ? { missing_media: media.missing } : {}),
  };
}

/**
 * Where a batch of creates in flight is written down (`.cms-import-pending-<key>.json`, one per
 * batch; earlier versions wrote `.cms-import-pending.json`), so a re-run after a crash replays it
 * (never creates twice).
 */
const JOURNAL_PREFIX = '.cms-import-pending';
const journalFile = (dir: string, key: string) => path.join(dir, `${JOURNAL_PREFIX}-${key}.json`);
const isJournal = (name: string) => name.startsWith(JOURNAL_PREFIX) && name.endsWith('.json');
/** Creates per request: the most a batch takes (CONTRACT.md §21). */
export const BATCH = 100;

interface Journal {
  key: string;
  files: string[];
  /** Each file's status as it asked (an archived one is created, then archived); absent in older journals. */
  statuses?: string[];
  body: { atomic: false; operations: BatchOperation[] };
}

export async function importContent(cms: CmsClient, dir: string): Promise<ImportSummary> {
  const summary: ImportSummary = { created: 0, updated: 0, unchanged: 0, failed: [] };
  // The files first, so that the Markdown's references name media the account has (rewritten where its ids differ).
  const media = await importMedia(cms, dir, describe);
  summary.failed.push(...media.failed);
  const ids = new Map([...media.ids].filter(([from, to]) => from !== to));
  // Batches sent by a run that stopped before it had rewritten their files: replay them first.
  const replayed = new Set<string>();
  for (const name of (await fs.readdir(dir)).filter(isJournal).sort()) {
    const journal = JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')) as Journal;
    await sendCreates(cms, dir, journal, summary);
    await fs.rm(path.join(dir, name), { force: true });
    for (const file of journal.files) replayed.add(path.resolve(file));
  }
  // Each file is counted once: those the replay created are done.
  const files = (await markdownFiles(dir)).filter((file) => !replayed.has(path.resolve(file)));
  const bar = progress(files.length, 'import');
  // The files are read in order while the batches before them are on their way: new items go in
  // batches of 100 (in file order), each one request, BATCHES_IN_FLIGHT at a time; files of items
  // the service has are compared and updated one by one, PARALLEL at a time. After a batch fails
  // nothing more is read or sent, and the batches under way finish first.
  const batches = new Lanes(BATCHES_IN_FLIGHT);
  const updates = new Lanes(PARALLEL);
  const creates: { file: string; wanted: ContentFile }[] = [];
  const send = (chunk: typeof creates) => batches.start(async () => {
    await sendCreates(cms, dir, journalOf(chunk), summary);
    bar.increment(chunk.length);
  });
  for (const file of files) {
    if (batches.failed) break;
    let text: string;
    let wanted: ContentFile;
    try {
      // Read, like the rewrites of new items' files, with the synchronous call: a promise's file
      // handle costs several times the read of a small file, and an import reads thousands.
      text = readFileSync(file, 'utf8');
      wanted = parseContentFile(text);
      if (ids.size) {
        wanted.content = rewriteReferences(wanted.content, ids);
        if (wanted.fields) wanted.fields = rewriteFieldIds(wanted.fields, ids);
      }
    } catch (error) {
      summary.failed.push({ file: path.basename(file), error: describe(error) });
      bar.increment();
      continue;
    }
    if (wanted.id === undefined) {
      creates.push({ file, wanted });
      if (creates.length === BATCH) await send(creates.splice(0));
      continue;
    }
    await updates.start(async () => {
      try {
        summary[await importOne(cms, file, text, wanted)]++;
      } catch (error) {
        summary.failed.push({ file: path.basename(file), error: describe(error) });
      }
      bar.increment();
    });
  }
  if (creates.length && !batches.failed) await send(creates);
  await updates.finish();
  await batches.finish();
  bar.stop();
  summary.failed.sort((a, b) => a.file.localeCompare(b.file));
  if (media.uploaded + media.reused + media.failed.length) summary.media = { uploaded: media.uploaded, reused: media.reused };
  return summary;
}

/** A batch of new items' files, as sent and written down: the same files (paths and bytes) always ask with the same key, so a re-run replays, never duplicates. */
function journalOf(chunk: { file: string; wanted: ContentFile }[]): Journal {
  const body = { atomic: false as const, operations: chunk.map(({ wanted }) => ({ op: 'create' as const, data: createBody(wanted) })) };
  const hash = createHash('sha256');
  for (const { file } of chunk) hash.update(path.resolve(file)).update('\0');
  hash.update(JSON.stringify(body));
  return { key: `cms-import-${hash.digest('hex').slice(0, 48)}`, files: chunk.map((c) => c.file), statuses: chunk.map((c) => c.wanted.status), body };
}

function createBody(wanted: ContentFile) {
  const schedule = { ...(wanted.publish_at ? { publish_at: wanted.publish_at } : {}), ...(wanted.unpublish_at ? { unpublish_at: wanted.unpublish_at } : {}) };
  return { title: wanted.title, type: wanted.type, content: wanted.content, status: wanted.status === 'published' ? 'published' : 'draft', ...(wanted.slug ? { slug: wanted.slug } : {}), ...(wanted.fields ? { fields: wanted.fields } : {}), ...schedule } as never;
}

/**
 * Sends one batch of creates under its key, written down first; archives the new items whose file
 * says archived (a second batch); rewrites each file with its item's id and version; then forgets it.
 * The files are rewritten in place, not through a temporary file and a rename: creating a file is
 * the slow part of an import (about 1 ms each on the 2-core machine, ten times an overwrite), and
 * the journal already covers a rewrite cut short — until the last file is written the journal
 * stays, and the next run replays the batch and writes every file of it again from the answer.
 */
async function sendCreates(cms: CmsClient, dir: string, journal: Journal, summary: ImportSummary): Promise<void> {
  const written = journalFile(dir, journal.key);
  await writeAtomically(written, JSON.stringify(journal));
  const results = await cms.content.batch(journal.body.operations, { atomic: false, idempotencyKey: journal.key });
  const wanted = journal.statuses ?? (await Promise.all(journal.files.map(async (file) => parseContentFile(await fs.readFile(file, 'utf8')).status)));
  const toArchive = results.flatMap((result, i) => (result.status === 201 && result.data && wanted[i] === 'archived' ? [{ i, id: result.data.id, version: result.data.version }] : []));
  const items = results.map((result) => (result.status === 201 ? (result.data as ContentItem) : undefined));
  if (toArchive.length) {
    const archived = await cms.content.batch(toArchive.map(({ id, version }) => ({ op: 'archive' as const, id, if_match: `"${version}"` })), { atomic: false });
    archived.forEach((result, j) => {
      if (result.status === 200 && result.data) items[toArchive[j]!.i] = result.data as ContentItem;
    });
  }
  journal.files.forEach((file, i) => {
    const item = items[i];
    if (!item) {
      summary.failed.push({ file: path.basename(file), error: describeResult(results[i]!) });
      return;
    }
    overwrite(file, formatContentFile(toFile(item)));
    summary.created++;
  });
  await fs.rm(written, { force: true });
}

function describeResult(result: BatchResult): string {
  const error = result.error;
  if (!error) return `status ${result.status}`;
  const fields = (error.errors ?? []).map((e) => `${e.field}: ${e.message}`).join('; ');
  return `${error.message}${fields ? ` ${fields}` : ''} (${result.status} ${error.code})`;
}

async function importOne(cms: CmsClient, file: string, text: string, wanted: ContentFile): Promise<'created' | 'updated' | 'unchanged'> {
  const current = wanted.id === undefined ? undefined : await cms.content.get(wanted.id).catch(notFoundAsUndefined);
  if (!current) {
    // The file names an item the service does not have (another service's export, or deleted): create it.
    const created = await cms.content.create(createBody(wanted), {
      // The same file (path and bytes) always asks with the same key: a re-run replays, never duplicates.
      idempotencyKey: `cms-import-${createHash('sha256').update(path.resolve(file)).update('\0').update(text).digest('hex').slice(0, 48)}`,
    });
    const final = wanted.status === 'archived' ? await cms.content.archive(created.id, { ifMatch: created.version }) : created;
    await writeAtomically(file, formatContentFile(toFile(final)));
    return 'created';
  }
  const changes: Record<string, unknown> = {};
  for (const field of ['title', 'type', 'content'] as const) if (wanted[field] !== current[field]) changes[field] = wanted[field];
  if (wanted.slug !== undefined && wanted.slug !== current.slug) changes.slug = wanted.slug;
  // The file's fields are the whole truth: names it lacks are removed (null), the rest set.
  const had = (current.fields ?? {}) as Record<string, unknown>;
  const fields = wanted.fields ?? {};
  if (JSON.stringify(fields) !== JSON.stringify(had)) {
    changes.fields = { ...Object.fromEntries(Object.keys(had).filter((name) => !(name in fields)).map((name) => [name, null])), ...fields };
  }
  const archive = wanted.status === 'archived' && current.status !== 'archived';
  if (wanted.status !== current.status && !archive) changes.status = wanted.status;
  // The file's schedule, absent meaning none; sent with any status change too (a status set alone cancels a schedule).
  for (const field of ['publish_at', 'unpublish_at'] as const) {
    if ((wanted[field] ?? null) !== current[field] || (changes.status !== undefined && wanted[field] !== undefined)) changes[field] = wanted[field] ?? null;
  }
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
