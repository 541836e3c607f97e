// A fetch for OAuth client libraries (openid-client's customFetch) that trusts the test server's own
// certificate, so TLS is verified against it rather than switched off for the whole process.
import https from 'node:https';

export interface FetchOptions {
  method: string;
  headers: Record<string, string>;
  body?: unknown;
}

export function fetchTrusting(ca: string): (url: string, options: FetchOptions) => Promise<Response> {
  const agent = new https.Agent({ ca, keepAlive: false });
  return (url, options) =>
    new Promise((resolve, reject) => {
      const body = options.body === undefined || options.body === null ? undefined : String(options.body);
      const headers = { ...options.headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) };
      const request = https.request(url, { method: options.method, headers, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          const head = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) head.append(name, one);
          }
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: head }));
        });
      });
      request.on('error', reject);
      request.end(body);
    });
}
