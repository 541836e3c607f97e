// A hot query compiled once. Kysely builds and compiles a query's tree on every call (several µs,
// the most of a cached read's own cost); for the few queries that every request runs, the SQL is
// compiled on first use and then run with each call's parameters. On SQLite the statement is then
// also prepared once (the dialect caches statements by their SQL).
import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './db.js';

export class Prepared<Row, Args extends unknown[]> {
  private compiled: CompiledQuery<Row> | undefined;

  /**
   * `build` must use every argument as a bound parameter, once, in the order given (checked on
   * first use against `sample`, which is only used to build the query).
   */
  constructor(
    private readonly build: (db: Db, ...args: Args) => Compilable<Row>,
    private readonly sample: Args,
  ) {}

  async rows(db: Db, ...args: Args): Promise<Row[]> {
    const compiled = (this.compiled ??= this.compile(db));
    return (await db.executeQuery<Row>({ ...compiled, parameters: args })).rows;
  }

  private compile(db: Db): CompiledQuery<Row> {
    const compiled = this.build(db, ...this.sample).compile();
    const same = compiled.parameters.length === this.sample.length && compiled.parameters.every((p, i) => p === this.sample[i]);
    if (!same) throw new Error(`a prepared query must bind its arguments in order, once each: ${compiled.sql}`);
    return compiled;
  }
}
