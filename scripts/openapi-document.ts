// The service's OpenAPI document, generated from the route schemas of a real app built on a
// throw-away SQLite store (nothing listens): for `redocly lint` and for the client's types.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-openapi-'));
  try {
    const app = await createApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    await app.http.ready();
    const document = app.http.swagger() as unknown as Record<string, unknown>;
    await app.shutdown();
    return document;
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
