// Writes the generated OpenAPI document to a file (default openapi.json), for `redocly lint`.
// Builds the real app on a throw-away SQLite store; nothing listens.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const out = process.argv[2] ?? 'openapi.json';
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cms-openapi-'));
const app = await createApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
await app.http.ready();
await fs.writeFile(out, `${JSON.stringify(app.http.swagger(), null, 2)}\n`);
await app.shutdown();
await fs.rm(dataDir, { recursive: true, force: true });
console.log(`wrote ${out}`);
