// PostgreSQL specifics: the pool (its lost connections, and back-off while the database is away),
// and driver error translation.
import type pg from 'pg';
import { PostgresDialect } from 'kysely';
import { BackOff } from '../back-off.js';
import { StoreUnavailable, UniqueViolation } from '../errors.js';
import type { StoreHealth } from '../health.js';
import { pgDriver } from '../drivers.js';

export function postgresDialect(url: string, health: StoreHealth, poolSize = 10): PostgresDialect {
  const pool = new (pgDriver().Pool)({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // A client whose connection dies emits 'error'. pg-pool handles that for idle clients (re-emitted
  // on the pool) but not for checked-out ones: unhandled, it would end the process. Every client
  // gets a handler of its own; the pool drops the dead client at release, and the query it was
  // running fails with an error translated to StoreUnavailable (503).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', (error) => health.failed(error)));
  const gate = new ConnectGate(pool);
  return new PostgresDialect({ pool: { connect: () => gate.connect(), end: () => pool.end() } });
}

/**
 * While the database cannot be reached, one connection attempt at a time, spaced by a back-off
 * (100 ms doubling to 1 s): other requests are answered 503 at once instead of each waiting for its
 * own attempt to fail and adding to the load of a database that is refusing connections. The first
 * attempt after the database's return succeeds, and everything goes back to normal.
 */
class ConnectGate {
  private readonly backOff = new BackOff();
  private retryAt = 0;
  private probing = false;
  private lastError: unknown;

  constructor(private readonly pool: pg.Pool) {}

  async connect(): Promise<pg.PoolClient> {
    // Idle clients may still be good (one backend was terminated, not the database): use them.
    const gated = this.backOff.failing && this.pool.idleCount === 0;
    if (gated) {
      if (this.probing || Date.now() < this.retryAt) throw new StoreUnavailable(this.lastError);
      this.probing = true;
    }
    try {
      const client = await this.pool.connect();
      this.backOff.reset();
      return client;
    } catch (error) {
      this.lastError = error;
      this.retryAt = Date.now() + this.backOff.next();
      throw error;
    } finally {
      if (gated) this.probing = false;
    }
  }
}

/**
 * SQLSTATEs that mean the database cannot serve now, whatever the statement: connection exceptions
 * (class 08), insufficient resources (class 53: too many connections, disk full, out of memory),
 * credentials no longer accepted (class 28), a database not accepting connections (55000), shutting
 * down or starting up (57P01–57P03), or gone (3D000).
 */
const UNAVAILABLE_STATES = /^(?:08|53|28)...$|^(?:55000|57P0[123]|3D000)$/;
/** Socket errors on the way to the database. */
const NETWORK_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
/** pg's own words for a connection that died, never came, or was used after it died. */
const LOST_CONNECTION = /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed/i;

export function translatePostgresError(error: unknown): unknown {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code === '23505') return new UniqueViolation(e.constraint, error);
  if (error instanceof StoreUnavailable) return error;
  if (e?.code !== undefined && (UNAVAILABLE_STATES.test(e.code) || NETWORK_ERRORS.has(e.code))) return new StoreUnavailable(error);
  if (LOST_CONNECTION.test(e?.message ?? '')) return new StoreUnavailable(error);
  return error;
}
