// Raw sockets, for tests that need control below an HTTP client: bytes sent in parts, garbage,
// requests left half-written. Read one response per socket: bytes are consumed as they arrive.
import net from 'node:net';
import tls from 'node:tls';

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

export function openTcp(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.once('error', reject);
  });
}

export function openTls(port: number, ca: string): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the peer sends until it closes the connection. */
export function readUntilClose(socket: net.Socket, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`connection still open after ${timeoutMs} ms; got ${JSON.stringify(text)}`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

/** One HTTP/1.1 response with a Content-Length body. */
export function readResponse(socket: net.Socket, timeoutMs = 10_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const finish = (error?: Error, response?: RawResponse) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      if (error) reject(error);
      else resolve(response!);
    };
    const timer = setTimeout(() => finish(new Error(`no complete response within ${timeoutMs} ms`)), timeoutMs);
    const onClose = () => finish(new Error(`connection closed before a complete response: ${JSON.stringify(buffer.toString('utf8'))}`));
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (buffer.length < end + 4 + length) return;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1]);
      finish(undefined, { status, headers, body: buffer.subarray(end + 4, end + 4 + length).toString('utf8') });
    };
    socket.on('data', onData);
    socket.once('close', onClose);
  });
}

/** Resolves when the socket closes; rejects when it is still open after `timeoutMs`. */
export function closed(socket: net.Socket, timeoutMs = 5000): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`connection still open after ${timeoutMs} ms`)), timeoutMs);
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
