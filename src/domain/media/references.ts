// Content and media together: `media:` references in an item's Markdown are checked on every write
// (an id the account does not have → 422 invalid_reference on `content`), kept as rows in the
// write's transaction (each record's `used_by`), and turned into URLs when the item is rendered.
// Media named by the item's typed fields (checked by the content model's step) are kept as
// references too, so a file a manual shows as a screenshot is "in use" as one its Markdown shows.
import type { Tx } from '../../storage/db.js';
import type { MediaRepository } from '../../storage/media-repository.js';
import type { ContentWrite, ContentWriteStep } from '../content/content-writes.js';
import type { MediaIds } from '../content-model/media-ids.js';
import { invalid } from '../errors.js';
import type { MediaLinks } from './links.js';
import type { MediaService } from './media.js';

const REFERENCE = /media:(media_[A-Za-z0-9]+)/g;
const MEDIA_ID = /^media_[A-Za-z0-9]+$/;

/** The media ids an item's Markdown references, each once. */
export function referencedIds(markdown: string): string[] {
  if (!markdown.includes('media:')) return [];
  return [...new Set([...markdown.matchAll(REFERENCE)].map((m) => m[1]!))];
}

/** Values in typed fields that have the form of a media id (a media field's, or a list of them). */
function fieldValueIds(value: unknown): string[] {
  if (typeof value === 'string') return MEDIA_ID.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(fieldValueIds);
  return [];
}

const unchanged = (write: ContentWrite) =>
  write.previous !== undefined && write.previous.content === write.next.content && JSON.stringify(write.previous.fields) === JSON.stringify(write.next.fields);

export class MediaReferences implements ContentWriteStep, MediaIds {
  constructor(
    private readonly repo: MediaRepository,
    private readonly media: MediaService,
    private readonly links: MediaLinks,
  ) {}

  missing(tx: Tx, accountId: string, ids: string[]): Promise<string[]> {
    return this.repo.missing(tx, accountId, ids);
  }

  prepare(tx: Tx, write: ContentWrite): Promise<void> | void {
    if (write.previous && write.previous.content === write.next.content) return;
    const ids = referencedIds(write.next.content);
    if (ids.length) return this.check(tx, write.accountId, ids);
  }

  private async check(tx: Tx, accountId: string, ids: string[]): Promise<void> {
    const missing = await this.repo.missing(tx, accountId, ids);
    if (missing.length) {
      throw invalid([{ field: 'content', code: 'invalid_reference', message: `No media ${missing.join(', ')} in this account.` }]);
    }
  }

  written(tx: Tx, write: ContentWrite): Promise<void> | void {
    if (unchanged(write)) return;
    const inText = referencedIds(write.next.content);
    // A media field's ids were checked by the model's step; a text that merely looks like one is no reference.
    const inFields = [...new Set(Object.values(write.next.fields).flatMap(fieldValueIds))].filter((id) => !inText.includes(id));
    // A new item has no references to replace.
    if (!write.previous && inText.length + inFields.length === 0) return;
    return this.keep(tx, write, inText, inFields);
  }

  private async keep(tx: Tx, write: ContentWrite, inText: string[], inFields: string[]): Promise<void> {
    const absent = new Set(await this.repo.missing(tx, write.accountId, inFields));
    await this.repo.setRefs(tx, write.accountId, write.next.id, [...inText, ...inFields.filter((id) => !absent.has(id))]);
  }

  async deleted(tx: Tx, accountId: string, id: string): Promise<void> {
    await this.repo.clearRefs(tx, accountId, id);
  }

  /** Rendered HTML with each `media:` reference made the media's URL (private: a signed link). */
  async resolve(db: Parameters<MediaRepository['many']>[0], accountId: string, html: string): Promise<string> {
    const ids = referencedIds(html);
    if (ids.length === 0) return html;
    const urls = new Map<string, string>();
    for (const row of await this.repo.many(db, accountId, ids)) {
      const record = this.media.present(row, []);
      urls.set(row.id, record.url ?? `${this.media.present({ ...row, public: 1 }, []).url}?${(await this.links.query(row.id)).replace('&', '&amp;')}`);
    }
    return html.replace(REFERENCE, (whole, id: string) => urls.get(id) ?? whole);
  }
}
