// Runs bare-server.ts as plain JS (transpiled into git-ignored .bench/) so no TS loader inflates its RSS.
import fs from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT, startChild, type Child } from './processes.js';

export async function startBareServer(env: Record<string, string>): Promise<{ child: Child; cleanUp: () => Promise<void> }> {
  const source = await fs.readFile(path.join(REPO_ROOT, 'bench', 'bare-server.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  // Inside the repository, so that `import 'fastify'` resolves from its node_modules.
  const file = path.join(REPO_ROOT, '.bench', `bare-server-${process.pid}.mjs`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, outputText);
  const cleanUp = async () => {
    await fs.rm(file, { force: true });
    await fs.rmdir(path.dirname(file)).catch(() => {}); // only if nothing else is in it
  };
  try {
    return { child: startChild('bare server', [file], env), cleanUp };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
