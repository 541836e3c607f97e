// The Content Management Service client: the generated, fully typed calls of every route (`api`),
// plus helpers where they add real value — content iteration by cursor, idempotent creates,
// retries of 429/503 after Retry-After, typed errors, a resuming event subscription, and webhook
// verification.
import createFetchClient, { type Client } from 'openapi-fetch';
import { contentApi } from './content.js';
import { batchApi } from './batch.js';
import { jobsApi } from './jobs.js';
import { publishingApi } from './publishing.js';
import { contentTypesApi } from './content-types.js';
import { mediaApi } from './media.js';
import type { paths } from './schema.js';
import { subscribe, type SubscribeOptions, type Subscription } from './subscribe.js';
import { clientFetch } from './transport.js';

export interface CmsClientOptions {
  /** The service's base URL, e.g. `https://cms.example.com`. */
  baseUrl: string;
  /** An API key (`cms_live_…`, or a delivery key `cms_live_dlv_…`) or an OAuth access token (`cms_oat_…`). */
  token: string;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Retries after a 429 or 503, each after its Retry-After (default 3). */
  retries?: number;
  /** The longest Retry-After the client waits for before giving the error to you (default 60 s). */
  maxRetryWaitSeconds?: number;
  userAgent?: string;
}

export interface CmsClient {
  /** Every route, typed from the OpenAPI document: `await cms.api.GET('/v1/users', …)`. */
  api: Client<paths>;
  /** Content items; `batch` makes up to 100 changes in one request. */
  content: ReturnType<typeof contentApi> & { batch: ReturnType<typeof batchApi> };
  /** Bulk jobs over every item a filter matches: start, get, list, cancel, wait. */
  jobs: ReturnType<typeof jobsApi>;
  /** Schedules, slugs, preview links and the Atom feed. */
  publishing: ReturnType<typeof publishingApi>;
  /** Content models: typed fields per content type, and the JSON Schema of each type's items. */
  contentTypes: ReturnType<typeof contentTypesApi>;
  /** The asset library: upload, list, change, delete, and the files and their image variants. */
  media: ReturnType<typeof mediaApi>;
  events: {
    /** Live events, resumed automatically after a drop. */
    subscribe(options: SubscribeOptions): Subscription;
  };
}

/**
 * @example
 * const cms = createCmsClient({ baseUrl: 'https://cms.example.com', token: process.env.CMS_API_KEY! });
 * const item = await cms.content.create({ title: 'Hello', type: 'blog', content: '# Hi' });
 * for await (const each of cms.content.iterate({ status: 'published' })) console.log(each.title);
 */
export function createCmsClient(options: CmsClientOptions): CmsClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const send = clientFetch({
    token: options.token,
    fetch: options.fetch ?? globalThis.fetch,
    retries: options.retries ?? 3,
    maxRetryWaitSeconds: options.maxRetryWaitSeconds ?? 60,
    userAgent: options.userAgent,
  });
  const api = createFetchClient<paths>({ baseUrl, fetch: send });
  return {
    api,
    content: { ...contentApi(api), batch: batchApi(api) },
    jobs: jobsApi(api),
    publishing: publishingApi(api),
    contentTypes: contentTypesApi(api),
    media: mediaApi(api, baseUrl, send),
    events: { subscribe: (subscription) => subscribe(baseUrl, options.token, subscription) },
  };
}

export { CmsApiError, type FieldError } from './errors.js';
export type { ContentCreate, ContentItem, ContentListItem, ContentListQuery, ContentPage, ContentUpdate, WriteOptions } from './content.js';
export type { BatchOperation, BatchOptions, BatchResult } from './batch.js';
export type { BulkRequest, Job, WaitOptions } from './jobs.js';
export type { CmsEvent, EventType } from './events.js';
export type { ContentType, PreviewLink, Schedule } from './publishing.js';
export type { ContentTypeModel, FieldDefinition } from './content-types.js';
export type { MediaKind, MediaListQuery, MediaPage, MediaRecord, MediaSource, MediaUpdate, MediaUploadOptions, MediaVariant } from './media.js';
export { SubscriptionError, type SubscribeOptions, type Subscription, type WebSocketConstructor } from './subscribe.js';
export { verifyWebhook, WebhookVerificationError, type IncomingHeaders } from './webhooks.js';
export type { components, operations, paths } from './schema.js';
