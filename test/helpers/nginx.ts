// A real caching proxy for the delivery-key suites: Debian's nginx, started here in the foreground
// with a prefix, temporary directories and a configuration of its own (nothing of the system's is
// read or written), listening on a loopback port in plain HTTP and proxying to the test server over
// HTTPS with proxy_cache. Each answer says what the cache did in X-Cache-Status
// ($upstream_cache_status: MISS, HIT, EXPIRED, STALE, UPDATING, REVALIDATED, or none when not cached).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

export interface CachingProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  pid: number;
  /** nginx's own error log so far (for a failing test's message). */
  errors(): Promise<string>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function config(dir: string, port: number, upstreamPort: number, certFile: string): string {
  return `
daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 128; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=cms:1m max_size=64m inactive=10m use_temp_path=off;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass https://127.0.0.1:${upstreamPort};
      proxy_ssl_trusted_certificate ${certFile};
      proxy_ssl_verify on;
      proxy_ssl_name localhost;
      proxy_ssl_server_name on;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host localhost;
      # Cached as the answers' own Cache-Control says (public, max-age, stale-while-revalidate; Vary honoured).
      proxy_cache cms;
      proxy_cache_revalidate on;
      proxy_cache_lock on;
      add_header X-Cache-Status $upstream_cache_status always;
    }
  }
}
`;
}

/** Starts nginx in front of `upstreamPort` (HTTPS, its certificate in `certFile`). */
export async function startCachingProxy(upstreamPort: number, certFile: string): Promise<CachingProxy> {
  if (!fs.existsSync(NGINX)) throw new Error(`nginx is not installed at ${NGINX}: the delivery-key proxy tests need it ("apt-get install -y nginx"), or set NGINX_PATH.`);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cms-nginx-'));
  const port = await freePort();
  const file = path.join(dir, 'nginx.conf');
  await fsp.writeFile(file, config(dir, port, upstreamPort, certFile));
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', file, '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const errors = () => fsp.readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '').then((log) => `${stderr}${log}`);
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // nginx's fast shutdown.
      process.kill(child.pid!, 'SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
    }
    await fsp.rm(dir, { recursive: true, force: true });
  };
  // Listening once a connection is accepted.
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      const why = await errors();
      await close();
      throw new Error(`nginx exited (${child.exitCode}) before it listened: ${why}`);
    }
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) {
      const why = await errors();
      await close();
      throw new Error(`nginx did not listen within 15 s: ${why}`);
    }
    await sleep(50);
  }
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, errors, close };
}
