// Bearer authentication for /v1: the Authorization header becomes request.principal, or 401.
import type { FastifyRequest } from 'fastify';
import type { Authenticator } from '../domain/auth.js';
import { DomainError } from '../domain/errors.js';
import { requireScope, type Principal, type Scope } from '../domain/permissions.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** The key the principal came from (the WebSocket channel re-checks it while connected). */
    credential: string | null;
  }
  interface FastifyContextConfig {
    /** The route also takes the key from `?token=` (WebSocket clients cannot always set headers). */
    queryToken?: boolean;
  }
}

/** The key from `Authorization: Bearer <key>`, or undefined when absent or not a Bearer header. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}

export function authenticate(auth: Authenticator) {
  return async (request: FastifyRequest): Promise<void> => {
    const query = request.query as Record<string, unknown> | undefined;
    const token =
      bearerToken(request.headers.authorization) ??
      (request.routeOptions.config?.queryToken && typeof query?.token === 'string' ? query.token : undefined);
    const principal = token === undefined ? undefined : await auth.authenticate(token);
    if (!principal) {
      throw new DomainError(
        'unauthorized',
        token === undefined ? 'Send your API key as "Authorization: Bearer <key>".' : 'The API key is invalid, revoked or expired.',
      );
    }
    request.principal = principal;
    request.credential = token!;
  };
}

/**
 * Checks the scope a route declares in its OpenAPI security requirement before the body is
 * validated, so a key without the scope gets 403 rather than 422 (CONTRACT.md §3 order). The domain
 * checks again; this only brings the answer forward.
 */
export async function requireDeclaredScope(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema as { security?: { apiKey?: Scope[] }[] } | undefined;
  const scope = schema?.security?.[0]?.apiKey?.[0];
  if (scope !== undefined && request.principal) requireScope(request.principal, scope);
}
