// MEDIA_STORE=disk: objects as files under DATA_DIR/media, written to a temporary file, fsynced and
// renamed, so a name never holds half a file.
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MediaStore, StagedUpload, StoredObject } from './media-store.js';

export class DiskMediaStore implements MediaStore {
  constructor(private readonly dir: string) {}

  private file(key: string): string {
    return path.join(this.dir, ...key.split('/'));
  }

  private async tempFile(): Promise<string> {
    await fs.mkdir(path.join(this.dir, 'tmp'), { recursive: true });
    return path.join(this.dir, 'tmp', randomUUID());
  }

  stage(source: Readable): StagedUpload {
    // The pipeline is attached at once (no await before it), so no error of the source goes unheard.
    mkdirSync(path.join(this.dir, 'tmp'), { recursive: true });
    const file = path.join(this.dir, 'tmp', randomUUID());
    const temp = Promise.resolve(file);
    const written = pipeline(source, createWriteStream(file));
    const done = written.then(async () => {
      // fsync applies to the file, whichever descriptor asks: the bytes are on disk before any rename.
      const handle = await fs.open(file, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    });
    return {
      done,
      promote: async (key) => this.moveInto(await temp, key),
      discard: async () => fs.rm(await temp, { force: true }),
      head: async (bytes) => {
        const handle = await fs.open(await temp, 'r');
        try {
          const buffer = Buffer.alloc(bytes);
          const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
          return buffer.subarray(0, bytesRead);
        } finally {
          await handle.close();
        }
      },
    };
  }

  private async moveInto(temp: string, key: string): Promise<void> {
    const target = this.file(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(temp, target);
    // The rename itself is made durable by syncing its directory.
    const dir = await fs.open(path.dirname(target), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }

  async put(key: string, body: Buffer): Promise<void> {
    const temp = await this.tempFile();
    const handle = await fs.open(temp, 'w');
    try {
      await handle.writeFile(body);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await this.moveInto(temp, key);
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      const stats = await fs.stat(this.file(key));
      return { key, size: stats.size, modifiedAt: stats.mtime };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const stream = createReadStream(this.file(key), range ? { start: range.start, end: range.end } : {});
    // Fail here (404 to the caller) rather than mid-response when the file is missing.
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return stream;
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    const root = this.file(prefix.replace(/\/$/, ''));
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(root, { withFileTypes: true, recursive: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const full = path.join(entry.parentPath, entry.name);
      const stats = await fs.stat(full).catch(() => undefined);
      if (stats) yield { key: path.relative(this.dir, full).split(path.sep).join('/'), size: stats.size, modifiedAt: stats.mtime };
    }
  }

  async close(): Promise<void> {}
}
