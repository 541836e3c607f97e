// A real S3-compatible server for the media tests: s3rver in a child process of its own, on a
// random loopback port, keeping its objects in a temporary directory; and the service's settings
// that point MEDIA_STORE=s3 at it (path-style, as s3rver needs).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface S3Server {
  endpoint: string;
  /** MEDIA_STORE=s3 and the S3_* variables for a server using the bucket `media`. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3(): Promise<S3Server> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-s3-'));
  const script = `import S3rver from 's3rver'; const s = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: ${JSON.stringify(dir)} }); const a = await s.run(); console.log(JSON.stringify(a));`;
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (c: Buffer) => resolve(c.toString()));
    child.once('exit', (code) => reject(new Error(`s3rver exited ${code}`)));
  });
  const endpoint = `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`;
  return {
    endpoint,
    env: { MEDIA_STORE: 's3', S3_ENDPOINT: endpoint, S3_BUCKET: 'media', S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: 'true' },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill();
        await exited;
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
