// /v1/media: thin handlers over the media library. The upload is streamed part by part from
// @fastify/multipart into the domain, which never sees Fastify.
import Type from 'typebox';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, invalid } from '../../domain/errors.js';
import type { MediaService, UploadPart } from '../../domain/media/media.js';
import { One, Page } from '../../domain/schemas/common.js';
import { MediaDeleteQuery, MediaListQuery, MediaPagination, MediaRecord, MediaUpdate, MediaUpload } from '../../domain/schemas/media.js';
import { errorResponses, needs, sendsETag } from '../schemas.js';
import { etag, parseIfMatch } from '../preconditions.js';
import { IfMatchHeaders } from './content-params.js';
import { mediaFileRoutes } from './media-files.js';
import type { MediaVariants } from '../../domain/media/variants.js';

const tags = ['Media'];
const IdParams = Type.Object({ id: Type.String({ description: 'The media id.' }) });

export function mediaRoutes(media: MediaService, variants: MediaVariants, maxBytes: number): FastifyPluginAsyncTypebox {
  return async (app) => {
    // The size limit is the domain's (counted while streaming); busboy's own limits bound the rest.
    await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: maxBytes + 1, files: 1, fields: 10, parts: 12, fieldSize: 8 * 1024, headerPairs: 100 } });

    app.get('/media', {
      schema: {
        operationId: 'listMedia', summary: 'List media, newest first', tags, ...needs('content:read'),
        description: 'q finds words in the filename, title or alt; type filters image, document or other. Page with limit and offset, or follow pagination.next_cursor.',
        querystring: MediaListQuery,
        response: { 200: Page(MediaRecord, MediaPagination), ...errorResponses(400, 403) },
      },
    }, async (request) => media.list(request.principal!, request.query));

    app.post('/media', {
      schema: {
        operationId: 'uploadMedia', summary: 'Upload a file (multipart/form-data)', tags, ...sendsETag(), ...needs('content:write'),
        description: 'One part named file, and optional alt and title. The type is read from the bytes. Streamed: a file over MEDIA_MAX_BYTES, or past the storage quota, is refused while it arrives (413).',
        body: MediaUpload,
        response: { 201: One(MediaRecord), ...errorResponses(400, 403, 413, 415, 422) },
      },
    }, async (request, reply) => {
      if (!request.isMultipart()) throw new DomainError('unsupported_media_type', 'Upload media as multipart/form-data with a part named file.');
      try {
        const record = await media.upload(request.principal!, partsOf(request));
        return reply.code(201).headers({ location: `/v1/media/${record.id}`, etag: etag(record.version) }).send({ data: record });
      } catch (error) {
        return refuseUpload(reply, error);
      }
    });

    app.get('/media/:id', {
      schema: {
        operationId: 'getMedia', summary: 'Get one media record', tags, ...sendsETag(), ...needs('content:read'),
        params: IdParams,
        response: { 200: One(MediaRecord), ...errorResponses(400, 403, 404) },
      },
    }, async (request, reply) => {
      const record = await media.get(request.principal!, request.params.id);
      return reply.header('ETag', etag(record.version)).send({ data: record });
    });

    app.put('/media/:id', {
      schema: {
        operationId: 'updateMedia', summary: 'Change alt, title, filename or public', tags, ...sendsETag(), ...needs('content:write'),
        params: IdParams, headers: IfMatchHeaders, body: MediaUpdate,
        response: { 200: One(MediaRecord), ...errorResponses(400, 403, 404, 412, 413, 415, 422) },
      },
    }, async (request, reply) => {
      const record = await media.update(request.principal!, request.params.id, request.body, parseIfMatch(request.headers['if-match']));
      return reply.header('ETag', etag(record.version)).send({ data: record });
    });

    app.delete('/media/:id', {
      schema: {
        operationId: 'deleteMedia', summary: 'Delete media', tags, ...needs('content:write'),
        description: 'While content references it: 409 with used_by, unless force=true. Its bytes stop counting toward the storage quota at once.',
        params: IdParams, headers: IfMatchHeaders, querystring: MediaDeleteQuery,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(400, 403, 404, 409, 412) },
      },
    }, async (request, reply) => {
      await media.remove(request.principal!, request.params.id, parseIfMatch(request.headers['if-match']), request.query.force === 'true');
      return reply.code(204).send(null);
    });

    await app.register(mediaFileRoutes(media, variants, 'private'));
  };
}

/** The request's parts as the domain takes them; parsing starts now, before the domain's first await. */
function partsOf(request: FastifyRequest): AsyncIterable<UploadPart> {
  return adapt(request.parts());
}

async function* adapt(parts: ReturnType<FastifyRequest['parts']>): AsyncIterable<UploadPart> {
  for await (const part of parts) {
    if (part.type === 'file') yield { kind: 'file', name: part.fieldname, filename: part.filename, stream: part.file };
    else yield { kind: 'field', name: part.fieldname, value: String(part.value) };
  }
}

/**
 * An upload refused before its body was read to the end: the answer goes at once and the
 * connection closes, so the rest of a large body is never read. Busboy's own refusals become ours.
 */
function refuseUpload(reply: FastifyReply, error: unknown): never {
  const code = (error as { code?: string }).code;
  if (!(error instanceof DomainError) || error.code === 'payload_too_large' || error.code === 'storage_quota_exceeded') reply.header('connection', 'close');
  if (code === 'FST_FILES_LIMIT') throw invalid([{ field: 'file', code: 'invalid_value', message: 'Send one file part.' }]);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw invalid([{ field: '', code: 'invalid_value', message: 'Too many parts; send file, alt and title.' }]);
  if (code === 'FST_REQ_FILE_TOO_LARGE') throw new DomainError('payload_too_large', 'The file is larger than the limit.');
  if (error instanceof Error && !(error instanceof DomainError) && /multipart|boundary|end of form|Unexpected end/i.test(error.message)) {
    throw new DomainError('invalid_parameter', 'The multipart body is malformed or ended early.');
  }
  throw error;
}
