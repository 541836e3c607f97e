// Content models (CONTRACT.md §20): each content type's typed fields, and the JSON Schema of its
// items for generating types (`cms types generate`).
import type { Client } from 'openapi-fetch';
import type { WriteOptions } from './content.js';
import type { operations, paths } from './schema.js';
import type { ContentType } from './publishing.js';
import { unwrap } from './unwrap.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type ContentTypeModel = Json<operations['getContentType']['responses'][200]>['data'];
export type FieldDefinition = ContentTypeModel['fields'][number];

export function contentTypesApi(api: Client<paths>) {
  return {
    /** The four content types and their models. */
    list: async (): Promise<ContentTypeModel[]> => (await unwrap(api.GET('/v1/content-types'))).data,

    /** One type's model; a model never written has version 0. */
    get: async (type: ContentType): Promise<ContentTypeModel> => (await unwrap(api.GET('/v1/content-types/{type}', { params: { path: { type } } }))).data,

    /**
     * Replaces a type's model (admins and owners); `ifMatch` is the model version read. A change that
     * does not fit the stored items is a CmsApiError 409 whose errors carry `items` counts.
     * @example await cms.contentTypes.put('manual', [{ name: 'pages', kind: 'integer', indexed: true }], { ifMatch: 0 });
     */
    put: async (type: ContentType, fields: FieldDefinition[], options: WriteOptions = {}): Promise<ContentTypeModel> =>
      (await unwrap(api.PUT('/v1/content-types/{type}', {
        params: { path: { type } },
        body: { fields },
        headers: options.ifMatch === undefined ? {} : { 'if-match': `"${options.ifMatch}"` },
      }))).data,

    /** The JSON Schema (2020-12) of the type's items as read. */
    schema: async (type: ContentType): Promise<Record<string, unknown>> =>
      JSON.parse((await unwrap(api.GET('/v1/content-types/{type}/schema', { params: { path: { type } }, parseAs: 'text' }))) as unknown as string) as Record<string, unknown>,
  };
}
