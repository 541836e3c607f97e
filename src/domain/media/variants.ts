// The bytes a file route serves: the original, or an image variant (w, h, fit, format, q) made
// with sharp, stored beside the original under a key named by its parameters, and made once
// across instances: the first to claim the variant's row makes it, the others wait for the object.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import type { Store } from '../../storage/db.js';
import { UniqueViolation } from '../../storage/errors.js';
import type { MediaRepository, MediaRow } from '../../storage/media-repository.js';
import { DomainError, invalid } from '../errors.js';
import type { Clock } from '../ids.js';
import type { VariantQuery } from '../schemas/media.js';
import { isRaster, MAX_PIXELS } from './file-kind.js';
import { blobKey, variantKey, type MediaStore } from './media-store.js';

/** What to serve: where the bytes are, how many, their type and their entity tag. */
export interface ServedFile {
  key: string;
  size: number;
  contentType: string;
  etag: string;
}

const CLAIM_STALE_MS = 60_000;
const WAIT_MS = 30_000;

export class MediaVariants {
  /** Variants this instance made (cms_media_variants_made_total). */
  made = 0;

  constructor(
    private readonly store: Store,
    private readonly repo: MediaRepository,
    private readonly bytes: MediaStore,
    private readonly clock: Clock,
  ) {}

  async file(row: MediaRow, query: VariantQuery): Promise<ServedFile> {
    const { w, h, fit, format, q } = query;
    if (w === undefined && h === undefined && fit === undefined && format === undefined && q === undefined) {
      return { key: blobKey(row.sha256), size: row.size, contentType: row.content_type, etag: row.sha256 };
    }
    if (!isRaster(row.content_type) && row.content_type !== 'image/svg+xml') {
      throw new DomainError('invalid_parameter', 'Variants (w, h, fit, format, q) exist for images only.', [{ field: 'w', code: 'invalid_value', message: 'This media is not an image.' }]);
    }
    const output = format ?? outputOf(row.content_type);
    const variant = `w${w ?? ''}-h${h ?? ''}-${fit ?? 'inside'}-q${q ?? 80}.${output}`;
    const key = variantKey(row.sha256, variant);
    const size = await this.ensure(row, key, variant, { w, h, fit: fit ?? 'inside', format: output, q: q ?? 80 });
    return { key, size, contentType: `image/${output}`, etag: `${row.sha256}-${variant}` };
  }

  read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    return this.bytes.read(key, range);
  }

  /** Makes the variant unless it exists or another instance is making it; resolves to its size. */
  private async ensure(row: MediaRow, key: string, variant: string, options: { w?: number; h?: number; fit: 'cover' | 'contain' | 'inside'; format: string; q: number }): Promise<number> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const stored = await this.bytes.stat(key);
      if (stored) return stored.size;
      const now = this.clock();
      const claim = await this.store
        .transaction((tx) => this.repo.claimVariant(tx, row.sha256, variant, now.toISOString(), new Date(now.getTime() - CLAIM_STALE_MS).toISOString()))
        .catch((error: unknown) => {
          if (error instanceof UniqueViolation) return 'busy' as const;
          throw error;
        });
      if (claim === 'claimed') return this.make(row, key, variant, options);
      // Done but gone (swept with its original and uploaded again): make it anew.
      if (claim === 'done') await this.store.run((db) => this.repo.dropVariantClaim(db, row.sha256, variant));
      if (Date.now() > deadline) throw new DomainError('unavailable', 'The variant is still being made; try again shortly.');
      await sleep(claim === 'done' ? 0 : 50);
    }
  }

  private async make(row: MediaRow, key: string, variant: string, options: { w?: number; h?: number; fit: 'cover' | 'contain' | 'inside'; format: string; q: number }): Promise<number> {
    try {
      const source = await this.bytes.read(blobKey(row.sha256));
      const image = sharp({ limitInputPixels: MAX_PIXELS, failOn: 'error' })
        .rotate()
        .resize({ width: options.w, height: options.h, fit: options.fit, withoutEnlargement: true })
        .toFormat(options.format as 'webp' | 'avif' | 'jpeg' | 'png', { quality: options.q });
      source.pipe(image);
      const body = await image.toBuffer();
      await this.bytes.put(key, body);
      await this.store.run((db) => this.repo.variantDone(db, row.sha256, variant));
      this.made++;
      return body.length;
    } catch (error) {
      await this.store.run((db) => this.repo.dropVariantClaim(db, row.sha256, variant)).catch(() => {});
      if (error instanceof DomainError) throw error;
      throw invalid([{ field: 'file', code: 'invalid_value', message: 'The image could not be decoded within the 50-megapixel limit.' }]);
    }
  }
}

/** A variant keeps the original's format when it can; GIF and SVG become PNG. */
function outputOf(contentType: string): 'webp' | 'avif' | 'jpeg' | 'png' {
  const sub = contentType.split('/')[1];
  return sub === 'webp' || sub === 'avif' || sub === 'jpeg' ? sub : 'png';
}
