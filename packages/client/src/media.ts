// The asset library (CONTRACT.md §18), typed from the OpenAPI document like the rest: uploads as
// multipart/form-data — a Blob (a File, or Node's `fs.openAsBlob(path)`, read as it is sent), bytes,
// or a stream framed part by part without being held whole — plus listing by cursor, changes with
// If-Match, deletion (409 while in use, unless `force`) and the file's URL with its image variants.
import type { Client } from 'openapi-fetch';
import { CmsApiError } from './errors.js';
import type { WriteOptions } from './content.js';
import type { operations, paths } from './schema.js';
import type { Send } from './transport.js';
import { unwrap } from './unwrap.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
/** One media record, as the service answers it. */
export type MediaRecord = Json<operations['getMedia']['responses'][200]>['data'];
export type MediaListQuery = NonNullable<operations['listMedia']['parameters']['query']>;
export type MediaPage = Json<operations['listMedia']['responses'][200]>;
export type MediaKind = NonNullable<MediaListQuery['type']>;
/** `alt`, `title`, `filename`, `public`. */
export type MediaUpdate = Json<operations['updateMedia']['requestBody']>;
/** An image variant (CONTRACT.md §18): `w`, `h` (1–4096), `fit`, `format`, `q` (1–100); never upscaled, one side given keeps the aspect. */
export type MediaVariant = Omit<NonNullable<operations['getMediaFile']['parameters']['query']>, 'expires' | 'sig'>;

/** What can be uploaded: a Blob or File, bytes, or a stream of bytes (a web ReadableStream or a Node Readable). */
export type MediaSource = Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface MediaUploadOptions {
  /** The file's name as stored and served (Content-Disposition, the public URL). */
  filename: string;
  /** Up to 500 characters. */
  alt?: string;
  /** Up to 200 characters. */
  title?: string;
  /** Sent with the part; the service reads the real type from the bytes anyway. */
  contentType?: string;
  /** Your own Idempotency-Key (otherwise a new one, so a retried upload never makes two records). */
  idempotencyKey?: string;
}

interface Envelope<T> {
  data: T;
}


async function json<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => undefined)) as unknown;
  if (!response.ok) throw new CmsApiError(response.status, body, response.headers);
  return body as T;
}

async function refusedUnlessOk(response: Response): Promise<Response> {
  if (response.ok) return response;
  throw new CmsApiError(response.status, await response.json().catch(() => undefined), response.headers);
}

const ifMatch = (options: WriteOptions = {}): Record<string, string> => (options.ifMatch === undefined ? {} : { 'if-match': `"${options.ifMatch}"` });

function query(values: object): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== null) search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A quoted multipart parameter: quotes, backslashes and line breaks cannot end it early. */
function quoted(value: string): string {
  return `"${value.replace(/[\r\n"\\]/g, (c) => encodeURIComponent(c))}"`;
}

const isStream = (source: MediaSource): source is ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> =>
  typeof (source as ReadableStream).getReader === 'function' || typeof (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === 'function';

/** The multipart body: the text parts, then the file part streamed from `source` as it is read. */
function streamedBody(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, options: MediaUploadOptions, boundary: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let head = '';
  for (const [name, value] of [['alt', options.alt], ['title', options.title]] as const) {
    if (value !== undefined) head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=${quoted(options.filename)}\r\nContent-Type: ${options.contentType ?? 'application/octet-stream'}\r\n\r\n`;
  const iterable: AsyncIterable<Uint8Array> =
    typeof (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === 'function' ? (source as AsyncIterable<Uint8Array>) : readAll(source as ReadableStream<Uint8Array>);
  const chunks = (async function* () {
    yield encoder.encode(head);
    for await (const chunk of iterable) yield typeof chunk === 'string' ? encoder.encode(chunk) : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    yield encoder.encode(`\r\n--${boundary}--\r\n`);
  })();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

async function* readAll(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

export function mediaApi(api: Client<paths>, baseUrl: string, send: Send) {
  const url = (path: string) => `${baseUrl}${path}`;
  const page = (q: MediaListQuery): Promise<MediaPage> => unwrap(api.GET('/v1/media', { params: { query: q } }));

  return {
    /**
     * Uploads a file and answers its record (201).
     * @example const logo = await cms.media.upload(await fs.openAsBlob('logo.png'), { filename: 'logo.png', alt: 'Our logo' });
     * @example await cms.media.upload(fs.createReadStream('manual.pdf'), { filename: 'manual.pdf' }); // streamed, never whole in memory
     */
    async upload(source: MediaSource, options: MediaUploadOptions): Promise<MediaRecord> {
      const headers: Record<string, string> = options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {};
      if (isStream(source)) {
        // Framed as it is read: sent once, never held whole (a retry would need it all again).
        const boundary = `----cms-client-${globalThis.crypto.randomUUID()}`;
        const request = new Request(url('/v1/media'), {
          method: 'POST',
          headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
          body: streamedBody(source, options, boundary),
          duplex: 'half',
        } as RequestInit);
        return (await json<Envelope<MediaRecord>>(await send(request, { again: null }))).data;
      }
      // A Blob (a file-backed one is read from disk as it goes) is read again for a retry rather than copied.
      const blob = source instanceof Blob ? source : new Blob([source as BlobPart], options.contentType ? { type: options.contentType } : {});
      const request = () => {
        const form = new FormData();
        if (options.alt !== undefined) form.set('alt', options.alt);
        if (options.title !== undefined) form.set('title', options.title);
        form.set('file', blob, options.filename);
        return new Request(url('/v1/media'), { method: 'POST', headers, body: form });
      };
      return (await json<Envelope<MediaRecord>>(await send(request(), { again: request }))).data;
    },

    /** One page, newest first: `q`, `type`, `limit`, and `cursor` or `offset`. */
    list: (q: MediaListQuery = {}): Promise<MediaPage> => page(q),

    /**
     * Every record that matches, page after page by cursor.
     * @example for await (const file of cms.media.iterate({ type: 'image' })) console.log(file.filename);
     */
    async *iterate(q: Omit<MediaListQuery, 'cursor' | 'offset'> = {}): AsyncGenerator<MediaRecord> {
      const limit = q.limit ?? 100;
      let current = await page({ ...q, limit });
      for (;;) {
        yield* current.data;
        const cursor = current.pagination.next_cursor;
        if (cursor === null || cursor === undefined) return;
        current = await page({ cursor, limit });
      }
    },

    get: async (id: string): Promise<MediaRecord> => (await unwrap(api.GET('/v1/media/{id}', { params: { path: { id } } }))).data,

    /** Changes `alt`, `title`, `filename` or `public`; `{ ifMatch }` refuses it (412) if the record changed since. */
    update: async (id: string, changes: MediaUpdate, options?: WriteOptions): Promise<MediaRecord> =>
      (await unwrap(api.PUT('/v1/media/{id}', { params: { path: { id } }, body: changes, headers: ifMatch(options) }))).data,

    /**
     * Deletes a file. While content references it the service refuses (a CmsApiError 409 whose
     * `usedBy` lists the items) unless `force`.
     */
    delete: async (id: string, options: WriteOptions & { force?: boolean } = {}): Promise<void> => {
      await unwrap(api.DELETE('/v1/media/{id}', { params: { path: { id }, query: options.force ? { force: 'true' } : {} }, headers: ifMatch(options) }));
    },

    /**
     * The authenticated URL of the bytes, or of an image variant (send the key with it, or use `file`).
     * @example cms.media.fileUrl(id, { w: 400, format: 'webp' })
     */
    fileUrl: (id: string, variant: MediaVariant = {}): string => url(`/v1/media/${encodeURIComponent(id)}/file${query(variant)}`),

    /** The bytes (or a variant) as a Response; `range` asks for part of them (`bytes=0-1023` → 206). */
    file: async (id: string, variant: MediaVariant = {}, options: { range?: string } = {}): Promise<Response> =>
      refusedUnlessOk(await send(new Request(url(`/v1/media/${encodeURIComponent(id)}/file${query(variant)}`), { headers: options.range ? { range: options.range } : {} }))),

    /** The Markdown that shows an image (or links a file) in content: `![alt](media:media_…)`. */
    markdown: (record: Pick<MediaRecord, 'id' | 'alt' | 'filename' | 'content_type'>): string =>
      !record.content_type.startsWith('image/') ? `[${record.filename.replace(/[[\]]/g, '\\$&')}](media:${record.id})` : `![${(record.alt ?? '').replace(/[[\]]/g, '\\$&')}](media:${record.id})`,
  };
}
