// The security headers of every answer, as helmet makes them: HSTS when this service terminates
// TLS (a proxy that does sets its own), nosniff, no referrer, no framing, and a Content-Security-
// Policy that lets a JSON answer load nothing. Pages that need more — the dashboard, the server-
// rendered pages, Swagger UI at /docs — set their own CSP over this one; the other headers they
// keep. API answers are never stored by caches (they are per key, and may hold secrets).
// helmet runs once, at start, into a plain header block; each request copies the block.
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

export interface SecurityHeaders {
  /** For every answer. */
  all: Record<string, string>;
  /** For /v1 answers: the same, and `Cache-Control: no-store`. */
  api: Record<string, string>;
}

export function securityHeaders(tls: boolean): SecurityHeaders {
  const all: Record<string, string> = {};
  const collector = {
    setHeader(name: string, value: string | number | readonly string[]) {
      all[name] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete all[name];
    },
  };
  const middleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    strictTransportSecurity: tls ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  let done = false;
  middleware({} as IncomingMessage, collector as unknown as ServerResponse, () => {
    done = true;
  });
  // helmet's middleware is synchronous; a version that is not would leave the block incomplete.
  if (!done) throw new Error('helmet did not finish synchronously');
  return { all, api: { ...all, 'Cache-Control': 'no-store' } };
}
