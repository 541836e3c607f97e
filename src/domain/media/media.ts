// The media library (CONTRACT.md §18): uploads streamed to the store, the records, their rights,
// paging and changes. Bytes are stored first; the record, the storage used and `media.created`
// commit together afterwards, so a failed commit leaves only bytes the sweep removes.
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MediaConfig, Plan } from '../../config.js';
import type { Store } from '../../storage/db.js';
import type { MediaRepository, MediaRow } from '../../storage/media-repository.js';
import { requireScope, type Principal } from '../auth/permissions.js';
import { DomainError, forbidden, invalid, notFound, type FieldError } from '../errors.js';
import type { EventLog } from '../events/event-log.js';
import { newId, type Clock } from '../ids.js';
import { continuation, cursorPage } from '../keyset-cursor.js';
import type { MediaListQuery, MediaPage, MediaRecord, MediaUpdate } from '../schemas/media.js';
import { pageWindow } from '../schemas/common.js';
import { detectType, isRaster, kindOf, MAX_PIXELS, rasterDimensions, svgDimensions, type Dimensions } from './file-kind.js';
import { checkName, uploadedName } from './filenames.js';
import { blobKey, type MediaStore, type StagedUpload } from './media-store.js';
import { storageFull, UploadMeter } from './upload-meter.js';
import type { MediaLinks } from './links.js';

export type UploadPart = { kind: 'field'; name: string; value: string } | { kind: 'file'; name: string; filename?: string; stream: Readable };

export type Precondition = number[] | undefined;

export class MediaService {
  constructor(
    private readonly store: Store,
    private readonly repo: MediaRepository,
    private readonly events: EventLog,
    readonly bytes: MediaStore,
    private readonly config: MediaConfig,
    private readonly clock: Clock,
    private readonly publicUrl: () => string,
    /** Signed links to private media (render=html, the public file route). */
    readonly links: MediaLinks,
  ) {}

  /** Bytes used and allowed (GET /v1/usage). */
  async storage(accountId: string, plan: string): Promise<{ used_bytes: number; quota_bytes: number }> {
    const { used, quota } = await this.store.run((db) => this.repo.storage(db, accountId));
    return { used_bytes: used, quota_bytes: quota ?? this.config.storage[plan as Plan] ?? this.config.storage.free };
  }

  /** `cms accounts plan --storage <bytes>`: the account's own storage quota (null: its plan's). */
  setQuota(accountId: string, bytes: number | null): Promise<void> {
    return this.store.transaction((tx) => this.repo.setQuota(tx, accountId, bytes));
  }

  async upload(principal: Principal, parts: AsyncIterable<UploadPart>): Promise<MediaRecord> {
    requireScope(principal, 'content:write');
    const storage = await this.storage(principal.accountId, principal.plan);
    if (storage.used_bytes >= storage.quota_bytes) throw storageFull();
    const fields: Record<string, string> = {};
    const errors: FieldError[] = [];
    let file: { staged: StagedUpload; meter: UploadMeter; filename: string | FieldError } | undefined;
    try {
      for await (const part of parts) {
        if (part.kind === 'file' && part.name === 'file' && !file) {
          const meter = new UploadMeter(this.config.maxBytes, storage.quota_bytes - storage.used_bytes);
          // pipeline, not pipe: a part that failed before it reached us (a body cut short) fails the meter too.
          void pipeline(part.stream, meter).catch(() => {});
          const staged = this.bytes.stage(meter);
          file = { staged, meter, filename: uploadedName(part.filename) };
          await staged.done;
        } else if (part.kind === 'field' && (part.name === 'alt' || part.name === 'title') && fields[part.name] === undefined) {
          fields[part.name] = part.value;
        } else {
          if (part.kind === 'file') part.stream.resume();
          const repeated = part.name === 'file' || fields[part.name] !== undefined;
          errors.push({ field: part.name, code: repeated ? 'invalid_value' : 'unknown_field', message: repeated ? 'Send this part once.' : 'Unknown part; send file, alt and title.' });
        }
      }
      if (!file) errors.push({ field: 'file', code: 'required', message: 'Send the file as a part named file.' });
      if ((fields.alt ?? '').length > 500) errors.push({ field: 'alt', code: 'too_long', message: 'At most 500 characters.' });
      if ((fields.title ?? '').length > 200) errors.push({ field: 'title', code: 'too_long', message: 'At most 200 characters.' });
      if (file && typeof file.filename !== 'string') errors.push(file.filename);
      if (file && file.meter.bytes === 0) errors.push({ field: 'file', code: 'too_short', message: 'The file is empty.' });
      if (errors.length) throw invalid(errors);
      const { meter, staged } = file!;
      const contentType = await detectType(meter.head, meter.text);
      if (!this.config.types.includes(contentType)) {
        throw invalid([{ field: 'file', code: 'unsupported_type', message: `Files of type ${contentType} are not accepted; accepted: ${this.config.types.join(', ')}.` }]);
      }
      const dimensions = await this.dimensions(contentType, meter.head, staged);
      await staged.promote(blobKey(meter.sha256));
      return await this.record(principal, {
        filename: file!.filename as string,
        contentType,
        size: meter.bytes,
        sha256: meter.sha256,
        dimensions,
        alt: fields.alt ?? '',
        title: fields.title ?? '',
      });
    } catch (error) {
      await file?.staged.discard().catch(() => {});
      throw error;
    }
  }

  private async dimensions(contentType: string, head: Buffer, staged: StagedUpload): Promise<Dimensions> {
    if (contentType === 'image/svg+xml') return svgDimensions(head);
    if (!isRaster(contentType)) return { width: null, height: null };
    const size = (await rasterDimensions(head)) ?? (await rasterDimensions(await staged.head(4 * 1024 * 1024)));
    if (!size) throw invalid([{ field: 'file', code: 'invalid_value', message: 'The image does not decode.' }]);
    if (size.width * size.height > MAX_PIXELS) {
      throw invalid([{ field: 'file', code: 'invalid_value', message: `The image is ${size.width} × ${size.height}: more than 50 megapixels.` }]);
    }
    return size;
  }

  private record(principal: Principal, file: { filename: string; contentType: string; size: number; sha256: string; dimensions: Dimensions; alt: string; title: string }) {
    return this.events.change(principal.accountId, async (tx, emit) => {
      // Checked again in the write turn: concurrent uploads may have used the room seen at the start.
      const { used, quota } = await this.repo.storage(tx, principal.accountId);
      if (used + file.size > (quota ?? this.config.storage[principal.plan as Plan] ?? this.config.storage.free)) throw storageFull();
      const now = this.clock().toISOString();
      const row: MediaRow = {
        id: newId('media'),
        account_id: principal.accountId,
        filename: file.filename,
        content_type: file.contentType,
        kind: kindOf(file.contentType),
        size: file.size,
        sha256: file.sha256,
        width: file.dimensions.width,
        height: file.dimensions.height,
        alt: file.alt,
        title: file.title,
        public: 0,
        version: 1,
        created_by: principal.userId,
        created_at: now,
        updated_at: now,
      };
      await this.repo.insert(tx, row);
      await this.repo.addUsed(tx, principal.accountId, file.size);
      const record = this.present(row, []);
      emit('media.created', record);
      return record;
    });
  }

  async list(principal: Principal, query: MediaListQuery): Promise<MediaPage> {
    requireScope(principal, 'content:read');
    const { limit } = pageWindow(query);
    const { after, offset, filters } = continuation(query, principal.accountId, { q: query.q, type: query.type });
    const filter = { kind: filters.type as MediaListQuery['type'], words: (filters.q ?? '').toLowerCase().split(/\s+/).filter(Boolean), after, limit: limit + 1, offset };
    const { rows, total } = await this.store.run((db) => this.repo.list(db, principal.accountId, filter));
    const page = cursorPage(rows, { limit, offset, after, total }, principal.accountId, filters);
    const used = await this.store.run((db) => this.repo.usedBy(db, principal.accountId, page.rows.map((r) => r.id)));
    return { data: page.rows.map((row) => this.present(row, used.get(row.id) ?? [])), pagination: page.pagination };
  }

  async get(principal: Principal, id: string): Promise<MediaRecord> {
    requireScope(principal, 'content:read');
    const row = await this.store.run((db) => this.repo.get(db, principal.accountId, id));
    if (!row) throw notFound('Media');
    return this.withUse(principal.accountId, row);
  }

  /** The record as stored, for serving its bytes (rights checked). */
  async row(principal: Principal, id: string): Promise<MediaRow> {
    requireScope(principal, 'content:read');
    const row = await this.store.run((db) => this.repo.get(db, principal.accountId, id));
    if (!row) throw notFound('Media');
    return row;
  }

  publicRow(id: string): Promise<MediaRow | undefined> {
    return this.store.run((db) => this.repo.getAnyAccount(db, id));
  }

  async update(principal: Principal, id: string, input: MediaUpdate, precondition: Precondition): Promise<MediaRecord> {
    requireScope(principal, 'content:write');
    const errors: FieldError[] = [];
    if (Object.keys(input).length === 0) errors.push({ field: '', code: 'empty_update', message: 'Send at least one of alt, title, filename, public.' });
    if (input.filename !== undefined) {
      const name = checkName(input.filename);
      if (typeof name !== 'string') errors.push(name);
    }
    if (errors.length) throw invalid(errors);
    return this.events.change(principal.accountId, async (tx, emit) => {
      const row = await this.current(tx, principal, id, precondition);
      const changes = {
        ...(input.alt !== undefined ? { alt: input.alt } : {}),
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.filename !== undefined ? { filename: input.filename } : {}),
        ...(input.public !== undefined ? { public: input.public ? 1 : 0 } : {}),
        version: row.version + 1,
        updated_at: this.clock().toISOString(),
      };
      await this.repo.update(tx, principal.accountId, id, changes);
      const record = await this.withUse(principal.accountId, { ...row, ...changes }, tx);
      emit('media.updated', record);
      return record;
    });
  }

  async remove(principal: Principal, id: string, precondition: Precondition, force: boolean): Promise<void> {
    requireScope(principal, 'content:write');
    await this.events.change(principal.accountId, async (tx, emit) => {
      const row = await this.current(tx, principal, id, precondition);
      const usedBy = (await this.repo.usedBy(tx, principal.accountId, [id])).get(id) ?? [];
      if (usedBy.length > 0 && !force) {
        throw new DomainError('conflict', `The media is referenced by ${usedBy.length} content item(s); remove the references or delete with ?force=true.`, undefined, { used_by: usedBy });
      }
      await this.repo.delete(tx, principal.accountId, id);
      // The bytes stop counting at once; the file itself goes with the next sweep unless other records share it.
      await this.repo.addUsed(tx, principal.accountId, -row.size);
      emit('media.deleted', { id });
    });
  }

  /** The record `principal` may change: 404, then 403 (authors change only their own), then 412. */
  private async current(tx: Parameters<MediaRepository['insert']>[0], principal: Principal, id: string, precondition: Precondition): Promise<MediaRow> {
    const row = await this.repo.get(tx, principal.accountId, id);
    if (!row) throw notFound('Media');
    if (principal.role === 'author' && row.created_by !== principal.userId) throw forbidden(`Your role (${principal.role}) may change only media you uploaded.`);
    if (precondition !== undefined && !precondition.includes(row.version)) {
      throw new DomainError('precondition_failed', `If-Match does not match the media's current ETag "${row.version}".`);
    }
    return row;
  }

  private async withUse(accountId: string, row: MediaRow, db?: Parameters<MediaRepository['get']>[0]): Promise<MediaRecord> {
    const used = db ? await this.repo.usedBy(db, accountId, [row.id]) : await this.store.run((d) => this.repo.usedBy(d, accountId, [row.id]));
    return this.present(row, used.get(row.id) ?? []);
  }

  /** The public path of a record's bytes. */
  publicPath(row: Pick<MediaRow, 'id' | 'filename'>): string {
    return `/media/${row.id}/${encodeURIComponent(row.filename)}`;
  }

  present(row: MediaRow, usedBy: string[]): MediaRecord {
    return {
      id: row.id,
      filename: row.filename,
      content_type: row.content_type,
      size: row.size,
      sha256: row.sha256,
      width: row.width,
      height: row.height,
      alt: row.alt,
      title: row.title,
      public: row.public === 1,
      url: row.public === 1 ? `${this.publicUrl()}${this.publicPath(row)}` : null,
      used_by: usedBy,
      version: row.version,
      created_by: row.created_by,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}
