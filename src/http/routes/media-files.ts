// The bytes of media: GET /v1/media/{id}/file (with a key) and /media/{id}/{filename} (public
// media, or private media through a signed link). ETag is the sha256 (bytes never change under an
// id), Range gives 206, If-None-Match 304; SVG always goes out under a sandboxing CSP.
import Type from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../domain/errors.js';
import { disposition } from '../../domain/media/filenames.js';
import type { MediaService } from '../../domain/media/media.js';
import type { MediaVariants } from '../../domain/media/variants.js';
import type { MediaRow } from '../../storage/media-repository.js';
import { VariantQuery } from '../../domain/schemas/media.js';
import { errorResponses, needs, servesFile } from '../schemas.js';

export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
const IMMUTABLE = 'public, max-age=31536000, immutable';
const FileResponse = Type.String({ format: 'binary', description: 'The bytes (206 with Range).' });

export function mediaFileRoutes(media: MediaService, variants: MediaVariants, which: 'private' | 'public'): FastifyPluginAsyncTypebox {
  return async (app) => {
    if (which === 'private') {
      app.get('/media/:id/file', {
        schema: {
          operationId: 'getMediaFile', summary: 'The bytes of media, or an image variant', tags: ['Media'], ...needs('content:read'), ...servesFile(),
          description: 'ETag "<sha256>", Range → 206, If-None-Match → 304. w, h (1–4096), fit, format, q make a variant: never upscaled, made once, stored.',
          params: Type.Object({ id: Type.String() }), querystring: VariantQuery,
          response: { 200: FileResponse, 206: FileResponse, 304: Type.Null({ description: 'Not modified.' }), ...errorResponses(400, 403, 404, 422) },
        },
      }, async (request, reply) => send(request, reply, await media.row(request.principal!, request.params.id), variants, request.query, 'private, no-cache'));
      return;
    }
    app.get('/media/:id/:filename', {
      schema: {
        operationId: 'getPublicMediaFile', summary: 'Public media, without a key', tags: ['Media'], security: [], ...servesFile(),
        description: 'Served with Cache-Control: public, max-age=31536000, immutable. Private media answer only through a signed link (expires, sig) from render=html.',
        params: Type.Object({ id: Type.String(), filename: Type.String() }), querystring: VariantQuery,
        response: { 200: FileResponse, 206: FileResponse, 304: Type.Null({ description: 'Not modified.' }), ...errorResponses(400, 404, 422) },
      },
    }, async (request, reply) => {
      const row = await media.publicRow(request.params.id);
      if (!row || row.filename !== request.params.filename) throw notFound('Media');
      // Readers' sites on other origins show these images: helmet's same-origin default would block them.
      reply.header('cross-origin-resource-policy', 'cross-origin');
      if (row.public === 1) return send(request, reply, row, variants, request.query, IMMUTABLE);
      if (!(await media.links.valid(row.id, request.query.expires, request.query.sig))) throw notFound('Media');
      return send(request, reply, row, variants, request.query, 'private, max-age=60');
    });
  };
}

async function send(request: FastifyRequest, reply: FastifyReply, row: MediaRow, variants: MediaVariants, query: VariantQuery, cacheControl: string) {
  const file = await variants.file(row, query);
  const tag = `"${file.etag}"`;
  reply.headers({
    etag: tag,
    'cache-control': cacheControl,
    'accept-ranges': 'bytes',
    'content-disposition': disposition('inline', row.filename),
    'x-content-type-options': 'nosniff',
    'content-type': file.contentType,
  });
  if (file.contentType === 'image/svg+xml') reply.header('content-security-policy', SVG_CSP);
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === tag || t.trim() === `W/${tag}` || t.trim() === '*')) return reply.code(304).send();
  const range = parseRange(request.headers.range, file.size);
  if (range === 'unsatisfiable') {
    // The answer is an error in JSON, not the file: no filename to save it under, no tag of the bytes.
    reply.removeHeader('content-disposition').removeHeader('etag');
    return reply.code(416).type('application/json; charset=utf-8').header('content-range', `bytes */${file.size}`).send({ message: 'The range is outside the file.', code: 'range_not_satisfiable' });
  }
  if (range) {
    reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`).header('content-length', range.end - range.start + 1);
    return reply.send(await variants.read(file.key, range));
  }
  reply.header('content-length', file.size);
  return reply.send(await variants.read(file.key));
}

/** One `bytes=` range (several are answered whole, as RFC 9110 allows); undefined for none or a malformed header. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
    if (Number(m[2]) === 0) return 'unsatisfiable';
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
