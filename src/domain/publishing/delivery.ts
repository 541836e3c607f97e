// Delivery keys' caching terms (CONTRACT.md §19): how long public caches may keep their answers when
// the account sets nothing (delivery_cache_seconds, `cms accounts plan --delivery-cache-seconds`),
// and how long a cache may serve a stale answer while it asks again.
export const DEFAULT_DELIVERY_CACHE_SECONDS = 60;
export const MAX_DELIVERY_CACHE_SECONDS = 86_400;
export const STALE_WHILE_REVALIDATE_SECONDS = 600;
