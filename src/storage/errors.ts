// Typed storage errors: driver-specific failures are translated into these by the dialect files,
// so the domain can react to "this e-mail exists" without knowing SQLite or PostgreSQL error codes.

export class UniqueViolation extends Error {
  constructor(readonly constraint: string | undefined, cause: unknown) {
    super(`unique constraint violated${constraint ? `: ${constraint}` : ''}`, { cause });
    this.name = 'UniqueViolation';
  }
}

export class StoreUnavailable extends Error {
  constructor(cause: unknown) {
    super('the store is unreachable', { cause });
    this.name = 'StoreUnavailable';
  }
}
