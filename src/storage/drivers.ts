// The PostgreSQL and Redis client libraries, loaded on first use: a process on SQLite without
// REDIS_URL never loads them (≈ 2.7 MB of heap, docs/benchmarks.md "Memory"). Both are CommonJS, so
// a synchronous require keeps the constructors that use them synchronous.
import { createRequire } from 'node:module';
import type pg from 'pg';
import type * as IORedis from 'ioredis';

const require = createRequire(import.meta.url);
let pgModule: typeof pg | undefined;

/** pg, with BIGINT read as a number (COUNT(*) and BIGINT come back as strings by default; our counts fit in a double). */
export function pgDriver(): typeof pg {
  if (!pgModule) {
    pgModule = require('pg') as typeof pg;
    pgModule.types.setTypeParser(pgModule.types.builtins.INT8, (value) => Number(value));
  }
  return pgModule;
}

export function redisDriver(): typeof IORedis {
  return require('ioredis') as typeof IORedis;
}
