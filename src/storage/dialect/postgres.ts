// PostgreSQL specifics: the pool, and driver error translation.
import pg from 'pg';
import { PostgresDialect } from 'kysely';
import { StoreUnavailable, UniqueViolation } from '../errors.js';

// COUNT(*) and BIGINT come back as strings by default; our counts fit comfortably in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function postgresDialect(url: string): { dialect: PostgresDialect; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // An idle client that loses its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return { dialect: new PostgresDialect({ pool }), pool };
}

const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', '57P01', '57P03', '08006', '08001']);

export function translatePostgresError(error: unknown): unknown {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code === '23505') return new UniqueViolation(e.constraint, error);
  if (e?.code !== undefined && CONNECTION_ERRORS.has(e.code)) return new StoreUnavailable(error);
  if (/timeout exceeded when trying to connect|Connection terminated/i.test(e?.message ?? '')) return new StoreUnavailable(error);
  return error;
}
