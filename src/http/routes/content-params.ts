// Request and response pieces the content routes and the revision routes share.
import type { FastifyReply } from 'fastify';
import Type from 'typebox';
import type { ContentItem } from '../../domain/schemas/content.js';
import { etag } from '../preconditions.js';

export const IdParams = Type.Object({ id: Type.String({ description: 'The content item id.' }) });
export const IfMatchHeaders = Type.Object({ 'if-match': Type.Optional(Type.String({ description: 'An ETag from an earlier response; 412 when it no longer matches.' })) });
/** Actions without fields (archive, restore): the body may be omitted or `{}`, and anything in it is rejected. */
export const NoFields = Type.Object({}, { additionalProperties: false, 'x-optional-body': true, description: 'Optional; no fields.' });
export const tags = ['Content'];

export interface ItemResponse {
  status: number;
  headers: Record<string, string>;
  body: { data: ContentItem };
}

/**
 * The response to a change that yields an item, said once for the handler and for the routes'
 * `responseOf` (so a keyed request's stored response is exactly what was sent).
 */
export const created = (item: ContentItem): ItemResponse => ({ status: 201, headers: { location: `/v1/content/${item.id}`, etag: etag(item.version) }, body: { data: item } });
export const changed = (item: ContentItem): ItemResponse => ({ status: 200, headers: { etag: etag(item.version) }, body: { data: item } });

export function send(reply: FastifyReply, response: ItemResponse): FastifyReply {
  return reply.code(response.status).headers(response.headers).send(response.body);
}
