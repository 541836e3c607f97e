// Content items as Markdown files with YAML front matter (`title`, `type`, `status`, `id`,
// `version`; publishing's `slug`, `publish_at`, `unpublish_at`; the content model's `fields`, a
// mapping of typed field values), for `cms content export` and `import`. The body after the front matter is the item's
// content byte for byte, so an export read back in changes nothing. Files are replaced atomically
// (written beside, then renamed): a crash never leaves half a file — but for an import's rewrites of
// new items' files, made in place (`overwrite`) under the journal that replays them.
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';

/**
 * YAML 1.2's core schema, both ways: a time stays the text it was (no Date), and what is written
 * reads back the same. js-yaml rather than a document-model library: an import parses and writes
 * front matter for every file, and js-yaml does each in a fifth of the time (docs/bulk.md).
 */
const SCHEMA = { schema: yaml.CORE_SCHEMA };

export interface ContentFile {
  title: string;
  type: string;
  status: string;
  /** Absent in a file written by hand for a new item; set by import once created. */
  id?: string;
  version?: number;
  /** Absent: the service makes one from the title (a new item) or keeps the one it has. */
  slug?: string;
  /** Absent: no schedule (import clears one the item has). */
  publish_at?: string;
  unpublish_at?: string;
  /** The item's typed fields (docs/content-model.md); absent: none (import removes the ones the item has). */
  fields?: Record<string, unknown>;
  content: string;
}

const KNOWN_FIELDS = ['title', 'type', 'status', 'id', 'version', 'slug', 'publish_at', 'unpublish_at', 'fields'];

/** A front matter time as the service keeps it (UTC with milliseconds); throws naming the field. */
function time(field: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : undefined;
  if (text === undefined || Number.isNaN(Date.parse(text)) || !/^\d{4}-\d\d-\d\dT/.test(text)) {
    throw new ContentFileError(`front matter "${field}" must be an ISO 8601 time, such as 2027-06-01T09:00:00Z`);
  }
  return new Date(text).toISOString();
}

const FRONT_MATTER = /^---\r?\n(?:([\s\S]*?)\r?\n)?---(?:\r?\n|$)/;

export class ContentFileError extends Error {}

/** The file's front matter and body; throws ContentFileError naming what is wrong. */
export function parseContentFile(text: string): ContentFile {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new ContentFileError('the file must start with YAML front matter between two "---" lines');
  let meta: unknown;
  try {
    meta = yaml.load(match[1] ?? '', SCHEMA) ?? {};
  } catch (error) {
    throw new ContentFileError(`the front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) throw new ContentFileError('the front matter must be a YAML mapping');
  const m = meta as Record<string, unknown>;
  const unknown = Object.keys(m).filter((k) => !KNOWN_FIELDS.includes(k));
  if (unknown.length) throw new ContentFileError(`unknown front matter field(s): ${unknown.join(', ')}`);
  const text_ = (field: string, value: unknown, fallback?: string): string => {
    if (value === undefined && fallback !== undefined) return fallback;
    if (typeof value !== 'string' && typeof value !== 'number') throw new ContentFileError(`front matter "${field}" is required and must be text`);
    return String(value);
  };
  if (m.version !== undefined && (!Number.isInteger(m.version) || (m.version as number) < 1)) {
    throw new ContentFileError('front matter "version" must be a whole number of 1 or more');
  }
  if (m.id !== undefined && (typeof m.id !== 'string' || !/^content_[0-9a-z]{26}$/.test(m.id))) {
    throw new ContentFileError('front matter "id" must be a content id (content_…)');
  }
  if (m.slug !== undefined && (typeof m.slug !== 'string' || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(m.slug) || m.slug.length > 200)) {
    throw new ContentFileError('front matter "slug" must be 1–200 characters of a-z, 0-9 and single hyphens');
  }
  if (m.fields !== undefined && m.fields !== null && (typeof m.fields !== 'object' || Array.isArray(m.fields))) {
    throw new ContentFileError('front matter "fields" must be a mapping of field names to values');
  }
  const fields = m.fields ? (m.fields as Record<string, unknown>) : undefined;
  return {
    title: text_('title', m.title),
    type: text_('type', m.type),
    status: text_('status', m.status, 'draft'),
    id: m.id as string | undefined,
    version: m.version as number | undefined,
    slug: m.slug as string | undefined,
    publish_at: time('publish_at', m.publish_at),
    unpublish_at: time('unpublish_at', m.unpublish_at),
    ...(fields && Object.keys(fields).length ? { fields } : {}),
    content: text.slice(match[0].length),
  };
}

export function formatContentFile(file: ContentFile): string {
  const meta: Record<string, unknown> = {};
  if (file.id !== undefined) meta.id = file.id;
  meta.title = file.title;
  meta.type = file.type;
  if (file.slug !== undefined) meta.slug = file.slug;
  meta.status = file.status;
  if (file.publish_at !== undefined) meta.publish_at = file.publish_at;
  if (file.unpublish_at !== undefined) meta.unpublish_at = file.unpublish_at;
  if (file.fields !== undefined && Object.keys(file.fields).length) meta.fields = file.fields;
  if (file.version !== undefined) meta.version = file.version;
  return `---\n${yaml.dump(meta, { ...SCHEMA, lineWidth: -1, noRefs: true })}---\n${file.content}`;
}

/** Writes `text` to `file` atomically. */
export async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  await fs.writeFile(temporary, text);
  await fs.rename(temporary, file);
}

/**
 * Writes `text` over `file` in place: written from the start, then cut to its length. Not atomic —
 * for a caller whose journal rewrites the file whole should this be cut short (an import's batch) —
 * but a third of the cost of replacing the file (no new file, no freed and reallocated blocks).
 */
export function overwrite(file: string, text: string): void {
  const bytes = Buffer.from(text);
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, 0);
    ftruncateSync(fd, bytes.length);
  } finally {
    closeSync(fd);
  }
}

/** The Markdown files of a directory, by name. */
export async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.md')).map((e) => path.join(dir, e.name)).sort();
}
