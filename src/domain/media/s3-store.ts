// MEDIA_STORE=s3: objects in an S3-compatible bucket. Uploads stream through lib-storage's Upload
// (multipart for large files) under `tmp/`, then are copied to their content-addressed key.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { MediaConfig } from '../../config.js';
import type { MediaStore, StagedUpload, StoredObject } from './media-store.js';

type S3Config = Extract<MediaConfig['store'], { kind: 's3' }>;

export class S3MediaStore implements MediaStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
    });
  }

  /** Creates the bucket when it does not exist (development servers start empty). */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    }
  }

  stage(source: Readable): StagedUpload {
    const temp = `tmp/${randomUUID()}`;
    // 8 MiB parts, two at a time: memory stays flat whatever the file's size.
    const upload = new Upload({ client: this.client, params: { Bucket: this.bucket, Key: temp, Body: source }, partSize: 8 * 1024 * 1024, queueSize: 2 });
    const done = upload.done().then(() => undefined);
    return {
      done,
      promote: async (key) => {
        await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: key, CopySource: `${this.bucket}/${temp}` }));
        await this.delete(temp);
      },
      discard: async () => {
        await upload.abort().catch(() => {});
        await this.delete(temp).catch(() => {});
      },
      head: async (bytes) => this.bytes(temp, { start: 0, end: bytes - 1 }),
    };
  }

  private async bytes(key: string, range: { start: number; end: number }): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.read(key, range)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async put(key: string, body: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body }));
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404) return undefined;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
    return object.Body as Readable;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
