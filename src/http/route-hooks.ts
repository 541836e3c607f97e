// Hooks added to one route from an onRoute hook, so that a check runs only on the routes that need
// it rather than as an instance hook that every request passes through.
import type { RouteOptions } from 'fastify';

type RouteHookName = 'preValidation' | 'preHandler' | 'onSend';

/** Adds `hook` after the route's own hooks of that stage (or `first`: before them). */
export function appendHook<H>(route: RouteOptions, name: RouteHookName, hook: H, options: { first?: boolean } = {}): void {
  const existing = route[name] as unknown;
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  (route as unknown as Record<RouteHookName, unknown[]>)[name] = options.first ? [hook, ...list] : [...list, hook];
}
