// The peer server of `npm run bench -- --peer`: its own SQLite file with the product's seeded rows,
// and bench/peer-server.ts run as plain JS with the product's Node flags (the same process model).
import fs from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import ts from 'typescript';
import type { NewContentRow } from '../src/storage/content-repository.js';
import { productArgs, REPO_ROOT, startChild, type Child } from './processes.js';
import type { SeedAccount } from './seed.js';

/** The peer's schema: the product's content columns, its two list indexes, and per-filter totals. */
const SCHEMA = `
  CREATE TABLE content (
    account_id TEXT NOT NULL, id TEXT NOT NULL PRIMARY KEY, title TEXT NOT NULL, type TEXT NOT NULL, content TEXT NOT NULL,
    status TEXT NOT NULL, author TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, published_at TEXT,
    version INTEGER NOT NULL
  );
  CREATE INDEX content_account_created ON content (account_id, created_at, id);
  CREATE INDEX content_account_type_status ON content (account_id, type, status, created_at, id);
  -- Totals kept by triggers (plain SQL, as the product keeps them), so a list does not COUNT(*) 10,000 rows.
  CREATE TABLE content_counts (account_id TEXT NOT NULL, type TEXT NOT NULL, status TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (account_id, type, status));
  CREATE TRIGGER content_counts_insert AFTER INSERT ON content BEGIN
    INSERT INTO content_counts VALUES (NEW.account_id, NEW.type, NEW.status, 1) ON CONFLICT DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER content_counts_update AFTER UPDATE OF type, status ON content WHEN OLD.type <> NEW.type OR OLD.status <> NEW.status BEGIN
    UPDATE content_counts SET n = n - 1 WHERE account_id = OLD.account_id AND type = OLD.type AND status = OLD.status;
    INSERT INTO content_counts VALUES (NEW.account_id, NEW.type, NEW.status, 1) ON CONFLICT DO UPDATE SET n = n + 1;
  END;
`;

/** Writes the peer's database: the same rows the product was seeded with, in one transaction per account. */
export function seedPeer(file: string, accounts: { account: SeedAccount; rows: NewContentRow[] }[]): void {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(SCHEMA);
    const insert = db.prepare(
      'INSERT INTO content VALUES (@account_id, @id, @title, @type, @content, @status, @author, @created_at, @updated_at, @published_at, @version)',
    );
    for (const { account, rows } of accounts) db.transaction(() => rows.forEach((row) => insert.run({ ...row, account_id: account.accountId })))();
  } finally {
    db.close();
  }
}

/**
 * Starts bench/peer-server.ts transpiled to plain JS (in git-ignored .bench/, so that `fastify` and
 * `better-sqlite3` resolve from the repository) under the same Node flags as `npm start`.
 */
export async function startPeerServer(env: Record<string, string>): Promise<{ child: Child; cleanUp: () => Promise<void> }> {
  const source = await fs.readFile(path.join(REPO_ROOT, 'bench', 'peer-server.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  const file = path.join(REPO_ROOT, '.bench', `peer-server-${process.pid}.mjs`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, outputText);
  const cleanUp = async () => {
    await fs.rm(file, { force: true });
    await fs.rmdir(path.dirname(file)).catch(() => {}); // only if nothing else is in it
  };
  const flags = productArgs().slice(0, -1); // e.g. --max-semi-space-size=8, without dist/main.js
  try {
    return { child: startChild('peer server', [...flags, file], env), cleanUp };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
