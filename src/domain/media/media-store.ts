// Where media bytes live: one interface, a disk and an S3 implementation, chosen by MEDIA_STORE in
// the composition root. Keys are content-addressed: `blobs/<sha256>` for originals,
// `variants/<sha256>/<variant>` beside them; uploads are staged under `tmp/` until their hash is known.
import type { Readable } from 'node:stream';

export interface StoredObject {
  key: string;
  size: number;
  modifiedAt: Date;
}

/** Bytes being written under a temporary name: promoted to their final key, or discarded. */
export interface StagedUpload {
  /** Resolves once every byte of the source is durably stored under the temporary name. */
  readonly done: Promise<void>;
  /** Moves the staged bytes to `key` (atomically: never a half file under a name). */
  promote(key: string): Promise<void>;
  /** Deletes the staged bytes (safe to call after a failure or twice). */
  discard(): Promise<void>;
  /** The first bytes written, re-read (for reading image dimensions). */
  head(bytes: number): Promise<Buffer>;
}

export interface MediaStore {
  /** Starts writing `source` under a temporary name. */
  stage(source: Readable): StagedUpload;
  /** Writes a small object whole (variants). */
  put(key: string, body: Buffer): Promise<void>;
  /** The object's size, or undefined when there is none. */
  stat(key: string): Promise<StoredObject | undefined>;
  /** Reads an object, or the inclusive byte range given. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  delete(key: string): Promise<void>;
  /** Every object under a prefix (`blobs/`, `variants/`, `tmp/`), for the sweep. */
  list(prefix: string): AsyncIterable<StoredObject>;
  close(): Promise<void>;
}

export const blobKey = (sha256: string) => `blobs/${sha256}`;
export const variantKey = (sha256: string, variant: string) => `variants/${sha256}/${variant}`;
