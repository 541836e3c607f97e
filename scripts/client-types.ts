// The typed client's types come from the service's own OpenAPI document (openapi-typescript), so
// they never drift from it. `tsx scripts/client-types.ts` writes them; `--check` (run by `npm run
// lint`, hence CI) fails when the committed file differs from what the service generates now.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from './openapi-document.js';

const TARGET = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/client/src/schema.ts');
const HEADER = `// Generated from the service's OpenAPI document by scripts/client-types.ts (openapi-typescript).
// Do not edit: run \`npm run client:types\` after changing a route schema.
`;

const generated = HEADER + astToString(await openapiTS((await openApiDocument()) as unknown as Parameters<typeof openapiTS>[0]));
if (process.argv.includes('--check')) {
  const committed = await fs.readFile(TARGET, 'utf8').catch(() => '');
  if (committed !== generated) {
    console.error(`packages/client/src/schema.ts is out of date with the service's OpenAPI document; run: npm run client:types`);
    process.exit(1);
  }
  console.log('packages/client/src/schema.ts matches the OpenAPI document');
} else {
  await fs.writeFile(TARGET, generated);
  console.log(`wrote ${path.relative(process.cwd(), TARGET)}`);
}
