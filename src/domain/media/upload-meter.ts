// Watches an upload's bytes on their way to the store: hashes them, counts them, keeps the first
// few for type detection, checks whether they are plain UTF-8 text, and stops the stream the moment
// it passes the size limit or the account's storage left — so memory stays flat and a too-large
// body is refused while it arrives.
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { DomainError } from '../errors.js';

export const HEAD_BYTES = 256 * 1024;

export class UploadMeter extends Transform {
  private readonly hash = createHash('sha256');
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
  /**
   * Bytes passed so far. Not `size`: lib-storage's Upload reads a body's `size` as its whole
   * length, and a stream whose `size` said 0 made an S3 multipart upload of a large file fail.
   */
  bytes = 0;
  /** False once a byte that plain text does not hold (NUL, most control bytes, invalid UTF-8) went by. */
  text = true;

  constructor(
    private readonly maxBytes: number,
    /** Bytes of storage the account has left. */
    private readonly storageLeft: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(new DomainError('payload_too_large', `The file is larger than the limit of ${this.maxBytes} bytes.`));
    if (this.bytes > this.storageLeft) return done(storageFull());
    this.hash.update(chunk);
    if (this.headLength < HEAD_BYTES) {
      this.headChunks.push(chunk.subarray(0, HEAD_BYTES - this.headLength));
      this.headLength += Math.min(chunk.length, HEAD_BYTES - this.headLength);
    }
    if (this.text) this.checkText(chunk, true);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.text) this.checkText(Buffer.alloc(0), false);
    done();
  }

  private checkText(chunk: Buffer, more: boolean): void {
    // Tab, LF, FF and CR are text; other C0 bytes and DEL are not.
    for (const byte of chunk) {
      if ((byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) || byte === 0x7f) {
        this.text = false;
        return;
      }
    }
    try {
      this.decoder.decode(chunk, { stream: more });
    } catch {
      this.text = false;
    }
  }

  get sha256(): string {
    return this.hash.copy().digest('hex');
  }

  get head(): Buffer {
    return Buffer.concat(this.headChunks);
  }
}

export const storageFull = () => new DomainError('storage_quota_exceeded', "The upload would take the account past its storage quota; delete media or change plan.");
