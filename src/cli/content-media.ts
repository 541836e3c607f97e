// The media an export's Markdown references (`![alt](media:media_…)`, CONTRACT.md §18) or its
// `media` fields name, kept beside it so a round trip keeps its images: export downloads each file to `media/<filename>` and lists
// them in `media.json` (id, file, sha256, alt, title…); import uploads the ones the target account
// lacks — found by sha256 among its media, so the same bytes are never stored twice — and rewrites
// the references of the Markdown (and the media fields) it imports where the target's ids differ.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, openAsBlob } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CmsApiError, type CmsClient, type MediaRecord } from '@cms-service/client';
import { writeAtomically } from './content-files.js';

/** The manifest of an export's media, beside its Markdown files. */
export const MEDIA_MANIFEST = 'media.json';
export const MEDIA_DIR = 'media';

export interface MediaEntry {
  id: string;
  /** The file, relative to the export's directory (`media/<filename>`). */
  file: string;
  filename: string;
  content_type: string;
  sha256: string;
  alt: string | null;
  title: string | null;
  public: boolean;
}

const REFERENCE = /\(media:(media_[0-9a-z]{26})(?=[\s)])/g;

/** The media ids a Markdown body references, in order of first use. */
export function mediaReferences(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(REFERENCE)].map((m) => m[1]!))];
}

const MEDIA_ID = /^media_[0-9a-z]{26}$/;

/** The media ids of an item's typed fields: the values of `media` fields and of lists of them (docs/content-model.md). */
export function fieldMediaIds(fields: unknown): string[] {
  if (typeof fields === 'string') return MEDIA_ID.test(fields) ? [fields] : [];
  if (Array.isArray(fields)) return fields.flatMap(fieldMediaIds);
  if (fields && typeof fields === 'object') return Object.values(fields).flatMap(fieldMediaIds);
  return [];
}

/** `fields` with each media id that `ids` maps replaced by its new id. */
export function rewriteFieldIds<T>(fields: T, ids: ReadonlyMap<string, string>): T {
  if (typeof fields === 'string') return (MEDIA_ID.test(fields) ? (ids.get(fields) ?? fields) : fields) as T;
  if (Array.isArray(fields)) return fields.map((value: unknown) => rewriteFieldIds(value, ids)) as T;
  if (fields && typeof fields === 'object') return Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, rewriteFieldIds(value, ids)])) as T;
  return fields;
}

/** `markdown` with each referenced id that `ids` maps replaced by its new id. */
export function rewriteReferences(markdown: string, ids: ReadonlyMap<string, string>): string {
  return markdown.replace(REFERENCE, (whole, id: string) => (ids.has(id) ? `(media:${ids.get(id)}` : whole));
}

/** A file name safe to write on any system: no directories, no control or reserved characters. */
export function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_').replace(/^\.+/, '').trim().slice(0, 150);
  return cleaned || 'file';
}

async function sha256Of(file: string): Promise<string | undefined> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return hash.digest('hex');
}

/** The manifest written by an earlier export or import; empty when there is none. */
export async function readManifest(dir: string): Promise<MediaEntry[]> {
  const text = await fs.readFile(path.join(dir, MEDIA_MANIFEST), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return [];
  const entries = JSON.parse(text) as unknown;
  if (!Array.isArray(entries)) throw new Error(`${MEDIA_MANIFEST} must be a JSON array of media entries`);
  return entries as MediaEntry[];
}

const writeManifest = (dir: string, entries: MediaEntry[]) =>
  writeAtomically(path.join(dir, MEDIA_MANIFEST), `${JSON.stringify([...entries].sort((a, b) => a.file.localeCompare(b.file)), null, 2)}\n`);

/**
 * Downloads every file `ids` names into `dir/media` (a file already there with the same sha256 is
 * kept) and writes the manifest. A reference to media the account does not have is left as it is.
 */
export async function exportMedia(cms: CmsClient, dir: string, ids: string[]): Promise<{ files: number; missing: string[] }> {
  const records: MediaRecord[] = [];
  const missing: string[] = [];
  for (const id of [...new Set(ids)].sort()) {
    try {
      records.push(await cms.media.get(id));
    } catch (error) {
      if (!(error instanceof CmsApiError && error.status === 404)) throw error;
      missing.push(id);
    }
  }
  if (records.length === 0) return { files: 0, missing };
  await fs.mkdir(path.join(dir, MEDIA_DIR), { recursive: true });
  // `media/<filename>`, and `<name>.<id>.<ext>` for a second record of the same name (decided in id order).
  const taken = new Set<string>();
  const entries: MediaEntry[] = [];
  for (const record of records) {
    let name = safeFilename(record.filename);
    if (taken.has(name.toLowerCase())) {
      const ext = path.extname(name);
      name = `${name.slice(0, name.length - ext.length)}.${record.id}${ext}`;
    }
    taken.add(name.toLowerCase());
    const relative = `${MEDIA_DIR}/${name}`;
    const target = path.join(dir, relative);
    if ((await sha256Of(target)) !== record.sha256) await download(cms, record, target);
    entries.push({ id: record.id, file: relative, filename: record.filename, content_type: record.content_type, sha256: record.sha256, alt: record.alt, title: record.title, public: record.public });
  }
  await writeManifest(dir, entries);
  return { files: entries.length, missing };
}

/** The bytes of `record` into `target`, written beside and renamed once their sha256 is checked. */
async function download(cms: CmsClient, record: MediaRecord, target: string): Promise<void> {
  const response = await cms.media.file(record.id);
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  const hash = createHash('sha256');
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  body.on('data', (chunk: Buffer) => hash.update(chunk));
  await pipeline(body, createWriteStream(temporary));
  const sha256 = hash.digest('hex');
  if (sha256 !== record.sha256) {
    await fs.rm(temporary, { force: true });
    throw new Error(`the bytes of ${record.id} do not match their sha256 (got ${sha256}); export again`);
  }
  await fs.rename(temporary, target);
}

export interface MediaImport {
  /** Old id → the target account's id, for every entry the target now has. */
  ids: Map<string, string>;
  uploaded: number;
  reused: number;
  failed: { file: string; error: string }[];
}

/**
 * Makes sure the target account has every file of the manifest: an entry whose id it has with the
 * same bytes is kept; otherwise media with the same sha256 is reused, or the file is uploaded
 * (under an Idempotency-Key derived from its bytes and name, so a re-run after a crash does not
 * upload it twice). The manifest is then rewritten with the target's ids.
 */
export async function importMedia(cms: CmsClient, dir: string, describe: (error: unknown) => string): Promise<MediaImport> {
  const entries = await readManifest(dir);
  const result: MediaImport = { ids: new Map(), uploaded: 0, reused: 0, failed: [] };
  if (entries.length === 0) return result;
  let bySha: Map<string, MediaRecord> | undefined;
  const known = async () => {
    if (!bySha) {
      bySha = new Map();
      for await (const record of cms.media.iterate()) if (!bySha.has(record.sha256)) bySha.set(record.sha256, record);
    }
    return bySha;
  };
  const written: MediaEntry[] = [];
  for (const entry of entries) {
    try {
      const file = path.resolve(dir, entry.file);
      if (!file.startsWith(path.resolve(dir, MEDIA_DIR) + path.sep)) throw new Error(`"${entry.file}" is not inside ${MEDIA_DIR}/`);
      const sha256 = await sha256Of(file);
      if (sha256 === undefined) throw new Error(`${entry.file} is missing`);
      const same = await cms.media.get(entry.id).catch((error: unknown) => {
        if (error instanceof CmsApiError && error.status === 404) return undefined;
        throw error;
      });
      let record: MediaRecord;
      if (same && same.sha256 === sha256) {
        record = same;
        result.reused++;
      } else {
        const existing = (await known()).get(sha256);
        if (existing) {
          record = existing;
          result.reused++;
        } else {
          record = await cms.media.upload(await openAsBlob(file, { type: entry.content_type }), {
            filename: entry.filename,
            ...(entry.alt !== null && entry.alt !== undefined ? { alt: entry.alt } : {}),
            ...(entry.title !== null && entry.title !== undefined ? { title: entry.title } : {}),
            idempotencyKey: `cms-import-media-${createHash('sha256').update(sha256).update('\0').update(entry.filename).digest('hex').slice(0, 44)}`,
          });
          if (entry.public && !record.public) record = await cms.media.update(record.id, { public: true }, { ifMatch: record.version });
          (await known()).set(sha256, record);
          result.uploaded++;
        }
      }
      result.ids.set(entry.id, record.id);
      written.push({ ...entry, id: record.id, sha256 });
    } catch (error) {
      result.failed.push({ file: entry.file, error: describe(error) });
      written.push(entry);
    }
  }
  await writeManifest(dir, written);
  return result;
}
