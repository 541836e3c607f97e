// Generated from the service's OpenAPI document by scripts/client-types.ts (openapi-typescript).
// Do not edit: run `npm run client:types` after changing a route schema.
export interface paths {
    "/v1/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List, search and sort content items
         * @description Newest first by default (created_at, then id, descending); q searches, sort orders. Page with limit and offset, or follow pagination.next_cursor with cursor (stable while items are created and deleted). The body is not included; fetch an item for it.
         */
        get: operations["listContent"];
        put?: never;
        /** Create a content item */
        post: operations["createContent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one content item, with its body
         * @description render=html adds content_html: the Markdown body as sanitized HTML, rendered once per version.
         */
        get: operations["getContent"];
        /** Change some fields of a content item */
        put: operations["updateContent"];
        post?: never;
        /** Delete a content item permanently */
        delete: operations["deleteContent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a content item
         * @description Archiving an archived item succeeds and changes nothing.
         */
        post: operations["archiveContent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/{id}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an item's revisions
         * @description Newest first. The last REVISIONS_KEEP versions (default 100) of each item are kept; bodies are left out.
         */
        get: operations["listContentRevisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/{id}/revisions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one revision, with its body */
        get: operations["getContentRevision"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/{id}/revisions/{version}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a revision
         * @description The item takes the revision's title, type, body and status at a new version (an archived revision restores the item archived); published_at is still set only once. Needs the right to update the item; honours If-Match; emits content.updated.
         */
        post: operations["restoreContentRevision"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the users of the account
         * @description Newest first.
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Add a user to the account
         * @description Admins may add users up to admin; only owners add owners. Without `password`, the user is e-mailed an invitation: a link to choose a password, valid 7 days (docs/email.md).
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one user */
        get: operations["getUser"];
        /**
         * Change some fields of a user
         * @description Nobody changes their own role; an account keeps at least one owner.
         */
        put: operations["updateUser"];
        post?: never;
        /**
         * Remove a user
         * @description Their API keys stop working at once; their content stays.
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a user a fresh invitation
         * @description E-mails a new link to choose a password, valid 7 days; earlier links stop working. Who may: as for changing the user. A user who has chosen a password already gets 409 (they use "Forgot password?").
         */
        post: operations["inviteUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description Your own keys; admins and owners see every key of the account. Revoked keys are not listed.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Generate an API key
         * @description The response carries the key in `key`, this once: store it safely.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Takes effect at once on this instance and within a second on every other.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events after a cursor
         * @description The retained event log (7 days by default), oldest first. Poll with `after` = `pagination.next_after`. Content events need content:read and user events users:read besides events:read.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Real-time events over WebSocket
         * @description Upgrade to a WebSocket (wss://). The key goes in the token query parameter or the Authorization header. See docs/realtime.md for the messages. A plain HTTP GET (no upgrade) gets 426.
         */
        get: operations["realtime"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Quota and rate-limit usage of the account
         * @description Any key of the account may read it; it counts toward the hourly limit and the quota like any request. Admins and owners see the usage of every key, other users that of their own keys.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description Newest first. Secrets are never listed.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Add a webhook endpoint
         * @description The response carries the signing secret in `secret`, this once: store it safely. At most 20 endpoints per account (409).
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one webhook endpoint */
        get: operations["getWebhook"];
        /**
         * Change some fields of a webhook endpoint
         * @description Disabling cancels the attempts still pending; enabling clears disabled_reason and failing_since.
         */
        put: operations["updateWebhook"];
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Its delivery records go with it.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description The new secret is in `secret`, shown this once. For 24 hours both secrets sign every delivery (two space-separated signatures).
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a webhook.test ping
         * @description Queues a `webhook.test` delivery (not written to the event log) and answers with its record. 409 when the endpoint is disabled.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List delivery attempts of an endpoint
         * @description One record per attempt, newest first.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver an event again
         * @description Queues a new attempt of the delivery’s event, due now, and answers with its record. 409 while an attempt of that event is pending, while the endpoint is disabled, or once the event has left the event log.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List OAuth apps
         * @description Your own apps; admins and owners see every app registered in the account. Secrets are never listed.
         */
        get: operations["listOAuthApps"];
        put?: never;
        /**
         * Register an OAuth app
         * @description A confidential app gets its client secret in `client_secret`, this once: store it safely. Its id is the client_id.
         */
        post: operations["createOAuthApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/apps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one OAuth app */
        get: operations["getOAuthApp"];
        /**
         * Change some fields of an OAuth app
         * @description name, redirect_uris and scopes; type cannot change. Narrowing scopes does not narrow tokens already issued.
         */
        put: operations["updateOAuthApp"];
        post?: never;
        /**
         * Delete an OAuth app
         * @description Every grant and token of the app stops working at once (within a second on every instance).
         */
        delete: operations["deleteOAuthApp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/apps/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the client secret
         * @description The new secret is in `client_secret`, shown this once; the old one stops working at once. Tokens already issued keep working. 409 for a public app.
         */
        post: operations["rotateOAuthAppSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/authorizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your connected apps
         * @description The grants you gave to OAuth apps, newest first.
         */
        get: operations["listOAuthAuthorizations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/authorizations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Disconnect an app
         * @description Revokes the grant and every token issued from it: at once here, within a second on every instance.
         */
        delete: operations["revokeOAuthAuthorization"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Error */
        Error: {
            /** @description For people. */
            message: string;
            /** @description Stable and machine-readable, e.g. validation_failed. */
            code: string;
            errors?: {
                /** @description The field, `scopes[1]` for a list element, "" for the body as a whole. */
                field: string;
                /** @description required, invalid_type, invalid_value, too_short, too_long, invalid_format, read_only, unknown_field or empty_update. */
                code: string;
                message: string;
            }[];
            meta: {
                /**
                 * @description Same as the X-Request-Id header.
                 * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                 */
                request_id: string;
                /**
                 * @description Server time spent, in milliseconds.
                 * @example 1.27ms
                 */
                response_time: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Requests allowed in the window: the hourly limit of the key's account, or 60 a minute per address without a valid key. */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the window, this one counted. */
        "X-RateLimit-Remaining": number;
        /** @description When the window closes, in Unix seconds. */
        "X-RateLimit-Reset": number;
        /** @description The same policy in the IETF form: `"hourly";q=<limit>;w=3600` or `"ip";q=60;w=60`. */
        "RateLimit-Policy": string;
        /** @description The current window in the IETF form: `"hourly";r=<remaining>;t=<seconds to reset>`. */
        RateLimit: string;
        /** @description Whole seconds (≥ 1) until the window closes (rate_limited) or the quota renews (quota_exceeded). */
        "Retry-After": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listContent: {
        parameters: {
            query?: {
                /** @description Only items of this type. */
                type?: "blog" | "manual" | "whitepaper" | "strategy";
                /** @description Only items in this status. */
                status?: "draft" | "published" | "archived";
                /** @description Full-text search: items whose title or body contain every word (case, accents and English word endings ignored; the last word also matches as a prefix). Without sort: by relevance (title matches first), then newest first. */
                q?: string;
                /**
                 * @description Comma-separated fields among created_at, updated_at, published_at, title, each optionally prefixed with - for descending; ties end on id descending. Default -created_at. Items without published_at come after all others in both directions.
                 * @example -published_at,title
                 */
                sort?: string;
                /** @description pagination.next_cursor of the previous page. It carries the filters, q and sort of the first request: repeat them unchanged or leave them out. Not combinable with offset. */
                cursor?: string;
                /** @description Page size, 1 or more; values above 100 are clamped to 100. */
                limit?: number;
                /** @description Number of items to skip (not with cursor). */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description content_ followed by a lower-case ULID.
                             * @example content_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            title: string;
                            /** @enum {string} */
                            type: "blog" | "manual" | "whitepaper" | "strategy";
                            /** @enum {string} */
                            status: "draft" | "published" | "archived";
                            /** @description Id of the user who created the item. */
                            author: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                        }[];
                        pagination: {
                            /** @description Number of items matching the filters and q (see total_exact). */
                            total: number;
                            /** @description Page size applied (values above 100 are clamped to 100). */
                            limit: number;
                            /** @description Items skipped; null on a page fetched by cursor. */
                            offset: number | null;
                            /** @description True when further items exist after this page. */
                            has_more: boolean;
                            /** @description Pass as cursor for the next page; null on the last page. */
                            next_cursor: string | null;
                            /** @description Present and false only when a search matched more than 10,000 items: total is then 10000. */
                            total_exact?: boolean;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createContent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to repeat: for 24 hours a repeat with this key, the same path and body gets the first response again (marked Idempotent-Replayed: true) and changes nothing. 1–255 printable ASCII characters. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 200 characters, not all white space. */
                    title: string;
                    /** @enum {string} */
                    type: "blog" | "manual" | "whitepaper" | "strategy";
                    /** @description Markdown; at most 1 MiB of UTF-8. */
                    content: string;
                    /**
                     * @description draft or published. To archive an item use POST /v1/content/{id}/archive.
                     * @enum {string}
                     */
                    status?: "draft" | "published";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description content_ followed by a lower-case ULID.
                             * @example content_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            title: string;
                            /** @enum {string} */
                            type: "blog" | "manual" | "whitepaper" | "strategy";
                            /** @enum {string} */
                            status: "draft" | "published" | "archived";
                            /** @description Id of the user who created the item. */
                            author: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                            /** @description Body, Markdown supported. */
                            content: string;
                            /** @description When the item was first published; null until then. */
                            published_at: string | null;
                            /** @description 1 on create, +1 on every change; also sent as the ETag. */
                            version: number;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state; or the Idempotency-Key is in use by a request still running (idempotency_key_in_use), or its request was applied and the response lost (idempotency_response_lost). */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 2 MiB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation, or the Idempotency-Key was used for another request (idempotency_key_reused). */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getContent: {
        parameters: {
            query?: {
                /** @description html adds content_html, the body rendered as sanitized HTML. */
                render?: "html";
            };
            header?: never;
            path: {
                /** @description The content item id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description content_ followed by a lower-case ULID.
                             * @example content_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            title: string;
                            /** @enum {string} */
                            type: "blog" | "manual" | "whitepaper" | "strategy";
                            /** @enum {string} */
                            status: "draft" | "published" | "archived";
                            /** @description Id of the user who created the item. */
                            author: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                            /** @description Body, Markdown supported. */
                            content: string;
                            /** @description When the item was first published; null until then. */
                            published_at: string | null;
                            /** @description 1 on create, +1 on every change; also sent as the ETag. */
                            version: number;
                            /** @description With render=html: the body as sanitized HTML (CommonMark, GitHub tables, strikethrough and autolinks). */
                            content_html?: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateContent: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier response; 412 when it no longer matches. */
                "if-match"?: string;
            };
            path: {
                /** @description The content item id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 200 characters, not all white space. */
                    title?: string;
                    /** @enum {string} */
                    type?: "blog" | "manual" | "whitepaper" | "strategy";
                    /** @description Markdown; at most 1 MiB of UTF-8. */
                    content?: string;
                    /**
                     * @description draft or published. To archive an item use POST /v1/content/{id}/archive.
                     * @enum {string}
                     */
                    status?: "draft" | "published";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description content_ followed by a lower-case ULID.
                             * @example content_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            title: string;
                            /** @enum {string} */
                            type: "blog" | "manual" | "whitepaper" | "strategy";
                            /** @enum {string} */
                            status: "draft" | "published" | "archived";
                            /** @description Id of the user who created the item. */
                            author: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                            /** @description Body, Markdown supported. */
                            content: string;
                            /** @description When the item was first published; null until then. */
                            published_at: string | null;
                            /** @description 1 on create, +1 on every change; also sent as the ETag. */
                            version: number;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not match the current ETag. */
            412: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 2 MiB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation; errors lists every failing field. */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteContent: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier response; 412 when it no longer matches. */
                "if-match"?: string;
            };
            path: {
                /** @description The content item id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not match the current ETag. */
            412: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    archiveContent: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier response; 412 when it no longer matches. */
                "if-match"?: string;
                /** @description Makes the request safe to repeat: for 24 hours a repeat with this key, the same path and body gets the first response again (marked Idempotent-Replayed: true) and changes nothing. 1–255 printable ASCII characters. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The content item id. */
                id: string;
            };
            cookie?: never;
        };
        /** @description Optional; no fields. */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description content_ followed by a lower-case ULID.
                             * @example content_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            title: string;
                            /** @enum {string} */
                            type: "blog" | "manual" | "whitepaper" | "strategy";
                            /** @enum {string} */
                            status: "draft" | "published" | "archived";
                            /** @description Id of the user who created the item. */
                            author: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                            /** @description Body, Markdown supported. */
                            content: string;
                            /** @description When the item was first published; null until then. */
                            published_at: string | null;
                            /** @description 1 on create, +1 on every change; also sent as the ETag. */
                            version: number;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state; or the Idempotency-Key is in use by a request still running (idempotency_key_in_use), or its request was applied and the response lost (idempotency_response_lost). */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not match the current ETag. */
            412: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation, or the Idempotency-Key was used for another request (idempotency_key_reused). */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listContentRevisions: {
        parameters: {
            query?: {
                /** @description Page size, 1 or more; values above 100 are clamped to 100. */
                limit?: number;
                /** @description Number of items to skip. */
                offset?: number;
            };
            header?: never;
            path: {
                /** @description The content item id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The item version this revision is. */
                            version: number;
                            title: string;
                            /** @enum {string} */
                            type: "blog" | "manual" | "whitepaper" | "strategy";
                            /** @enum {string} */
                            status: "draft" | "published" | "archived";
                            /** @description Id of the user who made this version; null for versions made before revisions were kept (other than the first). */
                            changed_by: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                        }[];
                        pagination: {
                            /** @description Number of items matching the filters. */
                            total: number;
                            /** @description Page size applied (values above 100 are clamped to 100). */
                            limit: number;
                            /** @description Items skipped. */
                            offset: number;
                            /** @description True when further items exist after this page. */
                            has_more: boolean;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getContentRevision: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The content item id. */
                id: string;
                /**
                 * @description A version number (1, 2, …); anything else is 404.
                 * @example 3
                 */
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The item version this revision is. */
                            version: number;
                            title: string;
                            /** @enum {string} */
                            type: "blog" | "manual" | "whitepaper" | "strategy";
                            /** @enum {string} */
                            status: "draft" | "published" | "archived";
                            /** @description Id of the user who made this version; null for versions made before revisions were kept (other than the first). */
                            changed_by: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /** @description The body at this version. */
                            content: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restoreContentRevision: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier response; 412 when it no longer matches. */
                "if-match"?: string;
                /** @description Makes the request safe to repeat: for 24 hours a repeat with this key, the same path and body gets the first response again (marked Idempotent-Replayed: true) and changes nothing. 1–255 printable ASCII characters. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The content item id. */
                id: string;
                /**
                 * @description A version number (1, 2, …); anything else is 404.
                 * @example 3
                 */
                version: string;
            };
            cookie?: never;
        };
        /** @description Optional; no fields. */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description content_ followed by a lower-case ULID.
                             * @example content_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            title: string;
                            /** @enum {string} */
                            type: "blog" | "manual" | "whitepaper" | "strategy";
                            /** @enum {string} */
                            status: "draft" | "published" | "archived";
                            /** @description Id of the user who created the item. */
                            author: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                            /** @description Body, Markdown supported. */
                            content: string;
                            /** @description When the item was first published; null until then. */
                            published_at: string | null;
                            /** @description 1 on create, +1 on every change; also sent as the ETag. */
                            version: number;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state; or the Idempotency-Key is in use by a request still running (idempotency_key_in_use), or its request was applied and the response lost (idempotency_response_lost). */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not match the current ETag. */
            412: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation, or the Idempotency-Key was used for another request (idempotency_key_reused). */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /** @description Only users with this role. */
                role?: "owner" | "admin" | "editor" | "author" | "viewer";
                /** @description Page size, 1 or more; values above 100 are clamped to 100. */
                limit?: number;
                /** @description Number of items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description user_ followed by a lower-case ULID.
                             * @example user_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            /**
                             * Format: email
                             * @description Lower case; unique across the service.
                             */
                            email: string;
                            name: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "editor" | "author" | "viewer";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                        }[];
                        pagination: {
                            /** @description Number of items matching the filters. */
                            total: number;
                            /** @description Page size applied (values above 100 are clamped to 100). */
                            limit: number;
                            /** @description Items skipped. */
                            offset: number;
                            /** @description True when further items exist after this page. */
                            has_more: boolean;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to repeat: for 24 hours a repeat with this key, the same path and body gets the first response again (marked Idempotent-Replayed: true) and changes nothing. 1–255 printable ASCII characters. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description Trimmed and stored in lower case.
                     */
                    email: string;
                    /** @description 1 to 100 characters. */
                    name: string;
                    /**
                     * @description owner, admin, editor, author or viewer.
                     * @enum {string}
                     */
                    role: "owner" | "admin" | "editor" | "author" | "viewer";
                    /** @description At least 12 characters; stored as a scrypt hash, never returned. */
                    password?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description user_ followed by a lower-case ULID.
                             * @example user_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            /**
                             * Format: email
                             * @description Lower case; unique across the service.
                             */
                            email: string;
                            name: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "editor" | "author" | "viewer";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state; or the Idempotency-Key is in use by a request still running (idempotency_key_in_use), or its request was applied and the response lost (idempotency_response_lost). */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 2 MiB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation, or the Idempotency-Key was used for another request (idempotency_key_reused). */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description user_ followed by a lower-case ULID.
                             * @example user_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            /**
                             * Format: email
                             * @description Lower case; unique across the service.
                             */
                            email: string;
                            name: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "editor" | "author" | "viewer";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description Trimmed and stored in lower case.
                     */
                    email?: string;
                    /** @description 1 to 100 characters. */
                    name?: string;
                    /**
                     * @description owner, admin, editor, author or viewer.
                     * @enum {string}
                     */
                    role?: "owner" | "admin" | "editor" | "author" | "viewer";
                    /** @description At least 12 characters; stored as a scrypt hash, never returned. */
                    password?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description user_ followed by a lower-case ULID.
                             * @example user_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            /**
                             * Format: email
                             * @description Lower case; unique across the service.
                             */
                            email: string;
                            name: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "editor" | "author" | "viewer";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 2 MiB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation; errors lists every failing field. */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    inviteUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to repeat: for 24 hours a repeat with this key, the same path and body gets the first response again (marked Idempotent-Replayed: true) and changes nothing. 1–255 printable ASCII characters. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The user id. */
                id: string;
            };
            cookie?: never;
        };
        /** @description Optional; no fields. */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The user invited. */
                            user_id: string;
                            /**
                             * Format: email
                             * @description Where the invitation goes.
                             */
                            email: string;
                            /**
                             * Format: date-time
                             * @description When the new link stops working (7 days).
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            expires_at: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state; or the Idempotency-Key is in use by a request still running (idempotency_key_in_use), or its request was applied and the response lost (idempotency_response_lost). */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation, or the Idempotency-Key was used for another request (idempotency_key_reused). */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Admins and owners: only the keys of this user. */
                user_id?: string;
                /** @description Page size, 1 or more; values above 100 are clamped to 100. */
                limit?: number;
                /** @description Number of items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description key_ followed by a lower-case ULID.
                             * @example key_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            name: string;
                            /**
                             * @description The first 12 characters of the key, to recognise it.
                             * @example cms_live_4Fq
                             */
                            prefix: string;
                            scopes: ("content:read" | "content:write" | "users:read" | "users:write" | "keys:write" | "webhooks:write" | "events:read")[];
                            /** @description The user the key acts as. */
                            user_id: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /** @description May lag by up to a minute. */
                            last_used_at: string | null;
                            expires_at: string | null;
                        }[];
                        pagination: {
                            /** @description Number of items matching the filters. */
                            total: number;
                            /** @description Page size applied (values above 100 are clamped to 100). */
                            limit: number;
                            /** @description Items skipped. */
                            offset: number;
                            /** @description True when further items exist after this page. */
                            has_more: boolean;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to repeat: for 24 hours a repeat with this key, the same path and body gets the first response again (marked Idempotent-Replayed: true) and changes nothing. 1–255 printable ASCII characters. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 100 characters. */
                    name: string;
                    /** @description Omitted: every scope the user's role may hold. */
                    scopes?: ("content:read" | "content:write" | "users:read" | "users:write" | "keys:write" | "webhooks:write" | "events:read")[];
                    /**
                     * Format: date-time
                     * @description A future time; omitted: never expires.
                     */
                    expires_at?: string;
                    /** @description Admins and owners: create the key for another user of the account. */
                    user_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description key_ followed by a lower-case ULID.
                             * @example key_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            name: string;
                            /**
                             * @description The first 12 characters of the key, to recognise it.
                             * @example cms_live_4Fq
                             */
                            prefix: string;
                            scopes: ("content:read" | "content:write" | "users:read" | "users:write" | "keys:write" | "webhooks:write" | "events:read")[];
                            /** @description The user the key acts as. */
                            user_id: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /** @description May lag by up to a minute. */
                            last_used_at: string | null;
                            expires_at: string | null;
                            /** @description The key itself, shown this once: store it safely. */
                            key: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state; or the Idempotency-Key is in use by a request still running (idempotency_key_in_use), or its request was applied and the response lost (idempotency_response_lost). */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 2 MiB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation, or the Idempotency-Key was used for another request (idempotency_key_reused). */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key id (key_…). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Events after this one; omitted: from the oldest retained event. */
                after?: string;
                /** @description Page size, 1 or more; values above 100 are clamped to 100. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description evt_ followed by a lower-case ULID.
                             * @example evt_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            /** @enum {string} */
                            type: "content.created" | "content.updated" | "content.deleted" | "user.created" | "user.updated" | "user.deleted" | "api_key.usage_alert";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /** @description content.created / content.updated: the full content item; content.deleted: {id}; user.created / user.updated: the user; user.deleted: {id}; api_key.usage_alert: {kind, threshold, used, limit, period_end}. */
                            data: {
                                [key: string]: unknown;
                            };
                        }[];
                        pagination: {
                            /** @description Page size applied (values above 100 are clamped to 100). */
                            limit: number;
                            /** @description True when further events exist after this page. */
                            has_more: boolean;
                            /** @description Pass as `after` to continue: the last event of this page, or the `after` given (null at the start) when the page is empty. */
                            next_after: string | null;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The cursor is unknown or older than the retention period. */
            410: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    realtime: {
        parameters: {
            query?: {
                /** @description The API key (alternative to the Authorization header). */
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection is now a WebSocket. */
            101: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A WebSocket endpoint reached without an upgrade request. */
            426: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description free, basic, pro or enterprise. */
                            plan: string;
                            /**
                             * Format: date-time
                             * @description Start of the current billing cycle: 00:00 UTC on the account's billing day.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            period_start: string;
                            /**
                             * Format: date-time
                             * @description When the cycle ends and the quota renews.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            period_end: string;
                            /** @description Requests of this cycle that ended 2xx, plus those still running (this one included). */
                            used: number;
                            /** @description Requests allowed per cycle. */
                            quota: number;
                            /** @description quota − used, never below 0. */
                            remaining: number;
                            /** @description The hourly window; null when rate limits are switched off (RATE_LIMITS=off). */
                            rate_limit: {
                                /** @description Requests per hour. */
                                limit: number;
                                /** @description Left in the current window, this request counted (as X-RateLimit-Remaining). */
                                remaining: number;
                                /** @description When the window closes, Unix seconds (as X-RateLimit-Reset). */
                                reset: number;
                            } | null;
                            /** @description Keys that were used this cycle, most used first: every key for admins and owners, otherwise your own. */
                            keys: {
                                /** @description An API key id, or `dashboard:<user id>` for what that user did signed in to the dashboard. */
                                key_id: string;
                                /** @description null once the key is deleted with its user; `Dashboard` for the dashboard. */
                                name: string | null;
                                /** @description Requests of this cycle made with the key that ended 2xx. */
                                used: number;
                            }[];
                            /** @description OAuth apps whose tokens were used this cycle, most used first: every person's use for admins and owners, otherwise the use of tokens you authorized. */
                            apps: {
                                /** @description An OAuth app (app_…) whose tokens acted in this account; it may be registered in another account. */
                                app_id: string;
                                /** @description null once the app is deleted. */
                                name: string | null;
                                /** @description Requests of this cycle made with the app's tokens that ended 2xx. */
                                used: number;
                            }[];
                            /** @description Every UTC day of the current cycle up to today, oldest first, zeros included. The running count of a day may lag by a few seconds. */
                            days: {
                                /**
                                 * Format: date
                                 * @description A UTC day, YYYY-MM-DD.
                                 */
                                date: string;
                                /** @description Requests of the account that day that ended 2xx (all keys and dashboard sessions). */
                                used: number;
                            }[];
                            /** @description Calls this cycle to routes deprecated in the configuration (DEPRECATIONS), per route and key, most called first; empty when none. Admins and owners see every key, others their own keys. The owners and admins are told by e-mail (docs/email.md). */
                            deprecated_calls: {
                                /** @description The deprecated route's method. */
                                method: string;
                                /** @description The route as registered, `:name` for a parameter (`/v1/content/:id`). */
                                path: string;
                                /**
                                 * Format: date-time
                                 * @description When the route was deprecated (its `Deprecation` header).
                                 * @example 2026-11-22T09:15:03.123Z
                                 */
                                deprecated_at: string;
                                /** @description When it stops working (its `Sunset` header); null when not set. */
                                sunset: string | null;
                                /** @description The migration notes (its `Link` header); null when not set. */
                                link: string | null;
                                /** @description Calls this cycle, whatever their status, by the keys listed. */
                                calls: number;
                                /**
                                 * Format: date-time
                                 * @description The latest of those calls.
                                 * @example 2026-11-22T09:15:03.123Z
                                 */
                                last_called_at: string;
                                /** @description Who made the calls, most calls first. */
                                keys: {
                                    /** @description An API key id, or `dashboard:<user id>` for calls made signed in to the dashboard. */
                                    key_id: string;
                                    /** @description null once the key is deleted with its user; `Dashboard` for the dashboard. */
                                    name: string | null;
                                    calls: number;
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 UTC with milliseconds.
                                     * @example 2026-11-22T09:15:03.123Z
                                     */
                                    last_called_at: string;
                                }[];
                            }[];
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Page size, 1 or more; values above 100 are clamped to 100. */
                limit?: number;
                /** @description Number of items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description wh_ followed by a lower-case ULID.
                             * @example wh_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            /** @description Where events are POSTed. */
                            url: string;
                            description: string;
                            /** @description Event types delivered; `*` means every type. */
                            events: ("content.created" | "content.updated" | "content.deleted" | "user.created" | "user.updated" | "user.deleted" | "api_key.usage_alert" | "*")[];
                            /** @description A disabled endpoint receives nothing and queues nothing. */
                            enabled: boolean;
                            /** @description Why the endpoint is disabled: `requested` (set to false through the API), `gone` (it answered 410) or `failing` (every attempt failed for 3 days); null while enabled. */
                            disabled_reason: ("requested" | "gone" | "failing") | null;
                            disabled_at: string | null;
                            /** @description When the current run of failed attempts began; null after a success. */
                            failing_since: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                        }[];
                        pagination: {
                            /** @description Number of items matching the filters. */
                            total: number;
                            /** @description Page size applied (values above 100 are clamped to 100). */
                            limit: number;
                            /** @description Items skipped. */
                            offset: number;
                            /** @description True when further items exist after this page. */
                            has_more: boolean;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to repeat: for 24 hours a repeat with this key, the same path and body gets the first response again (marked Idempotent-Replayed: true) and changes nothing. 1–255 printable ASCII characters. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description An https URL whose host is, and resolves only to, public addresses (WEBHOOK_ALLOW_PRIVATE=true lifts both rules). */
                    url: string;
                    /** @description Event types to deliver, or `["*"]` for all. */
                    events: ("content.created" | "content.updated" | "content.deleted" | "user.created" | "user.updated" | "user.deleted" | "api_key.usage_alert" | "*")[];
                    /** @description Up to 500 characters; default empty. */
                    description?: string;
                    /** @description Default true. Setting false cancels the attempts still pending. */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description wh_ followed by a lower-case ULID.
                             * @example wh_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            /** @description Where events are POSTed. */
                            url: string;
                            description: string;
                            /** @description Event types delivered; `*` means every type. */
                            events: ("content.created" | "content.updated" | "content.deleted" | "user.created" | "user.updated" | "user.deleted" | "api_key.usage_alert" | "*")[];
                            /** @description A disabled endpoint receives nothing and queues nothing. */
                            enabled: boolean;
                            /** @description Why the endpoint is disabled: `requested` (set to false through the API), `gone` (it answered 410) or `failing` (every attempt failed for 3 days); null while enabled. */
                            disabled_reason: ("requested" | "gone" | "failing") | null;
                            disabled_at: string | null;
                            /** @description When the current run of failed attempts began; null after a success. */
                            failing_since: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                            /**
                             * @description The signing secret (whsec_…), shown this once: store it safely.
                             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
                             */
                            secret: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state; or the Idempotency-Key is in use by a request still running (idempotency_key_in_use), or its request was applied and the response lost (idempotency_response_lost). */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 2 MiB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation, or the Idempotency-Key was used for another request (idempotency_key_reused). */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint id (wh_…). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description wh_ followed by a lower-case ULID.
                             * @example wh_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            /** @description Where events are POSTed. */
                            url: string;
                            description: string;
                            /** @description Event types delivered; `*` means every type. */
                            events: ("content.created" | "content.updated" | "content.deleted" | "user.created" | "user.updated" | "user.deleted" | "api_key.usage_alert" | "*")[];
                            /** @description A disabled endpoint receives nothing and queues nothing. */
                            enabled: boolean;
                            /** @description Why the endpoint is disabled: `requested` (set to false through the API), `gone` (it answered 410) or `failing` (every attempt failed for 3 days); null while enabled. */
                            disabled_reason: ("requested" | "gone" | "failing") | null;
                            disabled_at: string | null;
                            /** @description When the current run of failed attempts began; null after a success. */
                            failing_since: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint id (wh_…). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description An https URL whose host is, and resolves only to, public addresses (WEBHOOK_ALLOW_PRIVATE=true lifts both rules). */
                    url?: string;
                    /** @description Event types to deliver, or `["*"]` for all. */
                    events?: ("content.created" | "content.updated" | "content.deleted" | "user.created" | "user.updated" | "user.deleted" | "api_key.usage_alert" | "*")[];
                    /** @description Up to 500 characters; default empty. */
                    description?: string;
                    /** @description Default true. Setting false cancels the attempts still pending. */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description wh_ followed by a lower-case ULID.
                             * @example wh_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            /** @description Where events are POSTed. */
                            url: string;
                            description: string;
                            /** @description Event types delivered; `*` means every type. */
                            events: ("content.created" | "content.updated" | "content.deleted" | "user.created" | "user.updated" | "user.deleted" | "api_key.usage_alert" | "*")[];
                            /** @description A disabled endpoint receives nothing and queues nothing. */
                            enabled: boolean;
                            /** @description Why the endpoint is disabled: `requested` (set to false through the API), `gone` (it answered 410) or `failing` (every attempt failed for 3 days); null while enabled. */
                            disabled_reason: ("requested" | "gone" | "failing") | null;
                            disabled_at: string | null;
                            /** @description When the current run of failed attempts began; null after a success. */
                            failing_since: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 2 MiB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation; errors lists every failing field. */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint id (wh_…). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to repeat: for 24 hours a repeat with this key, the same path and body gets the first response again (marked Idempotent-Replayed: true) and changes nothing. 1–255 printable ASCII characters. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The endpoint id (wh_…). */
                id: string;
            };
            cookie?: never;
        };
        /** @description Optional; no fields. */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description wh_ followed by a lower-case ULID.
                             * @example wh_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            /** @description Where events are POSTed. */
                            url: string;
                            description: string;
                            /** @description Event types delivered; `*` means every type. */
                            events: ("content.created" | "content.updated" | "content.deleted" | "user.created" | "user.updated" | "user.deleted" | "api_key.usage_alert" | "*")[];
                            /** @description A disabled endpoint receives nothing and queues nothing. */
                            enabled: boolean;
                            /** @description Why the endpoint is disabled: `requested` (set to false through the API), `gone` (it answered 410) or `failing` (every attempt failed for 3 days); null while enabled. */
                            disabled_reason: ("requested" | "gone" | "failing") | null;
                            disabled_at: string | null;
                            /** @description When the current run of failed attempts began; null after a success. */
                            failing_since: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                            /**
                             * @description The signing secret (whsec_…), shown this once: store it safely.
                             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
                             */
                            secret: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state; or the Idempotency-Key is in use by a request still running (idempotency_key_in_use), or its request was applied and the response lost (idempotency_response_lost). */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation, or the Idempotency-Key was used for another request (idempotency_key_reused). */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to repeat: for 24 hours a repeat with this key, the same path and body gets the first response again (marked Idempotent-Replayed: true) and changes nothing. 1–255 printable ASCII characters. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The endpoint id (wh_…). */
                id: string;
            };
            cookie?: never;
        };
        /** @description Optional; no fields. */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description whd_ followed by a lower-case ULID: one record per attempt.
                             * @example whd_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            /** @description The event delivered; also the webhook-id header, the same on every attempt. */
                            event_id: string;
                            /** @description An event type, or webhook.test for a ping. */
                            event_type: string;
                            /** @description 1 for the first attempt of this event at this endpoint, then 2, 3… */
                            attempt: number;
                            /** @enum {string} */
                            status: "pending" | "succeeded" | "failed";
                            /** @description The receiver's HTTP status; null when none was received. */
                            response_status: number | null;
                            /** @description How long the attempt took; null until it is made. */
                            duration_ms: number | null;
                            /** @description Why the attempt failed, for people; null otherwise. */
                            error: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /** @description When the request was sent; null while pending or when it never was. */
                            attempted_at: string | null;
                            /** @description Pending: when this attempt is due. Failed: when the next attempt is due, or null when there will be none. */
                            next_attempt_at: string | null;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state; or the Idempotency-Key is in use by a request still running (idempotency_key_in_use), or its request was applied and the response lost (idempotency_response_lost). */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation, or the Idempotency-Key was used for another request (idempotency_key_reused). */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page size, 1 or more; values above 100 are clamped to 100. */
                limit?: number;
                /** @description Number of items to skip. */
                offset?: number;
            };
            header?: never;
            path: {
                /** @description The endpoint id (wh_…). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description whd_ followed by a lower-case ULID: one record per attempt.
                             * @example whd_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            /** @description The event delivered; also the webhook-id header, the same on every attempt. */
                            event_id: string;
                            /** @description An event type, or webhook.test for a ping. */
                            event_type: string;
                            /** @description 1 for the first attempt of this event at this endpoint, then 2, 3… */
                            attempt: number;
                            /** @enum {string} */
                            status: "pending" | "succeeded" | "failed";
                            /** @description The receiver's HTTP status; null when none was received. */
                            response_status: number | null;
                            /** @description How long the attempt took; null until it is made. */
                            duration_ms: number | null;
                            /** @description Why the attempt failed, for people; null otherwise. */
                            error: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /** @description When the request was sent; null while pending or when it never was. */
                            attempted_at: string | null;
                            /** @description Pending: when this attempt is due. Failed: when the next attempt is due, or null when there will be none. */
                            next_attempt_at: string | null;
                        }[];
                        pagination: {
                            /** @description Number of items matching the filters. */
                            total: number;
                            /** @description Page size applied (values above 100 are clamped to 100). */
                            limit: number;
                            /** @description Items skipped. */
                            offset: number;
                            /** @description True when further items exist after this page. */
                            has_more: boolean;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to repeat: for 24 hours a repeat with this key, the same path and body gets the first response again (marked Idempotent-Replayed: true) and changes nothing. 1–255 printable ASCII characters. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The endpoint id (wh_…). */
                id: string;
                /** @description A delivery record id (whd_…). */
                delivery_id: string;
            };
            cookie?: never;
        };
        /** @description Optional; no fields. */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description whd_ followed by a lower-case ULID: one record per attempt.
                             * @example whd_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            /** @description The event delivered; also the webhook-id header, the same on every attempt. */
                            event_id: string;
                            /** @description An event type, or webhook.test for a ping. */
                            event_type: string;
                            /** @description 1 for the first attempt of this event at this endpoint, then 2, 3… */
                            attempt: number;
                            /** @enum {string} */
                            status: "pending" | "succeeded" | "failed";
                            /** @description The receiver's HTTP status; null when none was received. */
                            response_status: number | null;
                            /** @description How long the attempt took; null until it is made. */
                            duration_ms: number | null;
                            /** @description Why the attempt failed, for people; null otherwise. */
                            error: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /** @description When the request was sent; null while pending or when it never was. */
                            attempted_at: string | null;
                            /** @description Pending: when this attempt is due. Failed: when the next attempt is due, or null when there will be none. */
                            next_attempt_at: string | null;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state; or the Idempotency-Key is in use by a request still running (idempotency_key_in_use), or its request was applied and the response lost (idempotency_response_lost). */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation, or the Idempotency-Key was used for another request (idempotency_key_reused). */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOAuthApps: {
        parameters: {
            query?: {
                /** @description Admins and owners: only the apps of this user. */
                user_id?: string;
                /** @description Page size, 1 or more; values above 100 are clamped to 100. */
                limit?: number;
                /** @description Number of items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description app_ followed by a lower-case ULID; also the OAuth client_id.
                             * @example app_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            name: string;
                            /** @description Compared as exact strings, except that a loopback URI may use any port. */
                            redirect_uris: string[];
                            /**
                             * @description confidential (has a client secret) or public (a native or browser app: client_id only, PKCE).
                             * @enum {string}
                             */
                            type: "confidential" | "public";
                            scopes: ("content:read" | "content:write" | "users:read" | "users:write" | "webhooks:write" | "events:read")[];
                            /** @description The user who registered the app. */
                            user_id: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                        }[];
                        pagination: {
                            /** @description Number of items matching the filters. */
                            total: number;
                            /** @description Page size applied (values above 100 are clamped to 100). */
                            limit: number;
                            /** @description Items skipped. */
                            offset: number;
                            /** @description True when further items exist after this page. */
                            has_more: boolean;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createOAuthApp: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to repeat: for 24 hours a repeat with this key, the same path and body gets the first response again (marked Idempotent-Replayed: true) and changes nothing. 1–255 printable ASCII characters. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 100 characters; people see it on the consent page. */
                    name: string;
                    /** @description 1 to 10 redirect URIs. */
                    redirect_uris: string[];
                    /**
                     * @description Default confidential; cannot be changed later.
                     * @enum {string}
                     */
                    type?: "confidential" | "public";
                    /** @description The most the app may ask for. keys:write is never grantable: a token never mints keys or apps. Omitted: every grantable scope. */
                    scopes?: ("content:read" | "content:write" | "users:read" | "users:write" | "webhooks:write" | "events:read")[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description app_ followed by a lower-case ULID; also the OAuth client_id.
                             * @example app_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            name: string;
                            /** @description Compared as exact strings, except that a loopback URI may use any port. */
                            redirect_uris: string[];
                            /**
                             * @description confidential (has a client secret) or public (a native or browser app: client_id only, PKCE).
                             * @enum {string}
                             */
                            type: "confidential" | "public";
                            scopes: ("content:read" | "content:write" | "users:read" | "users:write" | "webhooks:write" | "events:read")[];
                            /** @description The user who registered the app. */
                            user_id: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                            /**
                             * @description cms_cs_ and 40 base62 characters; confidential apps only, shown this once: store it safely.
                             * @example cms_cs_8Vq2…
                             */
                            client_secret?: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state; or the Idempotency-Key is in use by a request still running (idempotency_key_in_use), or its request was applied and the response lost (idempotency_response_lost). */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 2 MiB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation, or the Idempotency-Key was used for another request (idempotency_key_reused). */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOAuthApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The app id (app_…), also its client_id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description app_ followed by a lower-case ULID; also the OAuth client_id.
                             * @example app_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            name: string;
                            /** @description Compared as exact strings, except that a loopback URI may use any port. */
                            redirect_uris: string[];
                            /**
                             * @description confidential (has a client secret) or public (a native or browser app: client_id only, PKCE).
                             * @enum {string}
                             */
                            type: "confidential" | "public";
                            scopes: ("content:read" | "content:write" | "users:read" | "users:write" | "webhooks:write" | "events:read")[];
                            /** @description The user who registered the app. */
                            user_id: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateOAuthApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The app id (app_…), also its client_id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 100 characters; people see it on the consent page. */
                    name?: string;
                    /** @description 1 to 10 redirect URIs. */
                    redirect_uris?: string[];
                    /** @description The most the app may ask for. keys:write is never grantable: a token never mints keys or apps. */
                    scopes?: ("content:read" | "content:write" | "users:read" | "users:write" | "webhooks:write" | "events:read")[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description app_ followed by a lower-case ULID; also the OAuth client_id.
                             * @example app_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            name: string;
                            /** @description Compared as exact strings, except that a loopback URI may use any port. */
                            redirect_uris: string[];
                            /**
                             * @description confidential (has a client secret) or public (a native or browser app: client_id only, PKCE).
                             * @enum {string}
                             */
                            type: "confidential" | "public";
                            scopes: ("content:read" | "content:write" | "users:read" | "users:write" | "webhooks:write" | "events:read")[];
                            /** @description The user who registered the app. */
                            user_id: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 2 MiB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation; errors lists every failing field. */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteOAuthApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The app id (app_…), also its client_id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateOAuthAppSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to repeat: for 24 hours a repeat with this key, the same path and body gets the first response again (marked Idempotent-Replayed: true) and changes nothing. 1–255 printable ASCII characters. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The app id (app_…), also its client_id. */
                id: string;
            };
            cookie?: never;
        };
        /** @description Optional; no fields. */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description app_ followed by a lower-case ULID; also the OAuth client_id.
                             * @example app_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            name: string;
                            /** @description Compared as exact strings, except that a loopback URI may use any port. */
                            redirect_uris: string[];
                            /**
                             * @description confidential (has a client secret) or public (a native or browser app: client_id only, PKCE).
                             * @enum {string}
                             */
                            type: "confidential" | "public";
                            scopes: ("content:read" | "content:write" | "users:read" | "users:write" | "webhooks:write" | "events:read")[];
                            /** @description The user who registered the app. */
                            user_id: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            updated_at: string;
                            /**
                             * @description cms_cs_ and 40 base62 characters; confidential apps only, shown this once: store it safely.
                             * @example cms_cs_8Vq2…
                             */
                            client_secret?: string;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state; or the Idempotency-Key is in use by a request still running (idempotency_key_in_use), or its request was applied and the response lost (idempotency_response_lost). */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body failed validation, or the Idempotency-Key was used for another request (idempotency_key_reused). */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOAuthAuthorizations: {
        parameters: {
            query?: {
                /** @description Page size, 1 or more; values above 100 are clamped to 100. */
                limit?: number;
                /** @description Number of items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description grant_ followed by a lower-case ULID.
                             * @example grant_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            id: string;
                            app: {
                                /**
                                 * @description app_ followed by a lower-case ULID; also the OAuth client_id.
                                 * @example app_01jd2x3m4n5p6q7r8s9t0v1w2x
                                 */
                                id: string;
                                name: string;
                            };
                            /** @description What you granted; the app acts with these narrowed to what your role allows. */
                            scopes: ("content:read" | "content:write" | "users:read" | "users:write" | "webhooks:write" | "events:read")[];
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             * @example 2026-11-22T09:15:03.123Z
                             */
                            created_at: string;
                            /** @description When a token of this grant was last used; may lag by up to a minute. */
                            last_used_at: string | null;
                        }[];
                        pagination: {
                            /** @description Number of items matching the filters. */
                            total: number;
                            /** @description Page size applied (values above 100 are clamped to 100). */
                            limit: number;
                            /** @description Items skipped. */
                            offset: number;
                            /** @description True when further items exist after this page. */
                            has_more: boolean;
                        };
                        meta: {
                            /**
                             * @description Same as the X-Request-Id header.
                             * @example req_01jd2x3m4n5p6q7r8s9t0v1w2x
                             */
                            request_id: string;
                            /**
                             * @description Server time spent, in milliseconds.
                             * @example 1.27ms
                             */
                            response_time: string;
                        };
                    };
                };
            };
            /** @description Malformed JSON or invalid query parameters. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeOAuthAuthorization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The authorization id (grant_…). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role or scopes do not allow this. */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit or monthly quota exceeded; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
