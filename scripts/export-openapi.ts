// Writes the generated OpenAPI document to a file (default openapi.json), for `redocly lint`.
import fs from 'node:fs/promises';
import { openApiDocument } from './openapi-document.js';

const out = process.argv[2] ?? 'openapi.json';
await fs.writeFile(out, `${JSON.stringify(await openApiDocument(), null, 2)}\n`);
console.log(`wrote ${out}`);
