// Benchmark data: accounts via the real `cms` CLI, 11,000 items via the app's storage layer (fast).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { openStore } from '../src/storage/db.js';
import { ContentRepository, type NewContentRow } from '../src/storage/content-repository.js';
import { newId } from '../src/domain/ids.js';
import { CONTENT_TYPES } from '../src/domain/schemas/content.js';
import { REPO_ROOT } from './processes.js';

export interface SeedAccount {
  accountId: string;
  userId: string;
  key: string;
}

/**
 * `cms accounts create` against the benchmark's data directory. Enterprise plan with limits far
 * above what the benchmark sends, so rate limits and quotas never turn a measured request into a 429.
 */
export async function createAccount(env: Record<string, string>, email: string): Promise<SeedAccount> {
  const args = ['dist/cli/main.js', 'accounts', 'create', '--email', email, '--plan', 'enterprise', '--rate-limit', '1000000000', '--quota', '1000000000'];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: REPO_ROOT, env });
  const created = JSON.parse(stdout) as { account_id: string; user_id: string; api_key: string };
  return { accountId: created.account_id, userId: created.user_id, key: created.api_key };
}

/** Status mix: 50 % published, 30 % draft, 20 % archived. */
function statusFor(i: number): string {
  const r = (i * 7919) % 10;
  return r < 5 ? 'published' : r < 8 ? 'draft' : 'archived';
}

/**
 * `count` items for the account, created over the past year (oldest first, so ids and timestamps
 * agree), cycling through the four types. The peer server (bench/peer-server.ts) is seeded with the
 * very same rows, so both servers answer the same lists.
 */
export function contentRows(account: SeedAccount, count: number): NewContentRow[] {
  const start = Date.now() - 365 * 24 * 3600 * 1000;
  const step = Math.floor((365 * 24 * 3600 * 1000) / count);
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(start + i * step).toISOString();
    const status = statusFor(i);
    const type = CONTENT_TYPES[i % CONTENT_TYPES.length]!;
    return {
      id: newId('content'),
      title: `${type} item ${i}: notes on benchmarking`,
      type,
      content: `# Item ${i}\n\n${'Some Markdown body text for the benchmark. '.repeat(10)}`,
      status,
      author: account.userId,
      created_at: at,
      updated_at: at,
      published_at: status === 'draft' ? null : at,
      version: 1,
    };
  });
}

/** Inserts `count` generated items (or the `rows` given) for the account; returns their ids. */
export async function seedContent(sqliteFile: string, account: SeedAccount, count: number | NewContentRow[]): Promise<string[]> {
  const rows = typeof count === 'number' ? contentRows(account, count) : count;
  const store = openStore({ kind: 'sqlite', file: sqliteFile });
  const repo = new ContentRepository('sqlite');
  try {
    await store.transaction(async (tx) => {
      for (const row of rows) await repo.insert(tx, account.accountId, row);
    });
  } finally {
    await store.close();
  }
  return rows.map((row) => row.id);
}
