// A hot query compiled once. Kysely builds and compiles a query's tree on every call (several µs,
// the most of a cached read's own cost); for the few queries that every request runs, the SQL is
// compiled on first use and then run with each call's parameters. On SQLite the statement is then
// also prepared once (the dialect caches statements by their SQL).
import type { Compilable, CompiledQuery, Insertable } from 'kysely';
import type { Db } from './db.js';
import type { Database } from './schema.js';

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

/**
 * A multi-row insert into `table` of the given columns, compiled once per number of rows (Kysely
 * builds a node per value: at a hundred rows of a dozen columns, building and compiling costs more
 * than SQLite's own work). A column a row leaves undefined is stored as null. Like Prepared, an
 * instance serves one store (a repository's field): the SQL is that store's dialect.
 */
export class PreparedInsert<Row> {
  private readonly compiled = new Map<number, CompiledQuery>();

  constructor(
    private readonly table: keyof Database & string,
    private readonly columns: readonly (keyof Row & string)[],
  ) {}

  async run(db: Db, rows: readonly Insertable<Row>[]): Promise<void> {
    if (rows.length === 0) return;
    const compiled = this.compiled.get(rows.length) ?? this.compile(db, rows.length);
    const parameters: unknown[] = [];
    for (const row of rows) for (const column of this.columns) parameters.push((row as Record<string, unknown>)[column] ?? null);
    await db.executeQuery({ ...compiled, parameters });
  }

  private compile(db: Db, count: number): CompiledQuery {
    // Each value a marker of its place, to check that Kysely binds them row by row, column by column.
    const sample = Array.from({ length: count }, (_, i) => Object.fromEntries(this.columns.map((column, j) => [column, `${i}:${j}`])));
    const compiled = db.insertInto(this.table).values(sample as never).compile();
    const expected = sample.flatMap((row) => Object.values(row));
    if (compiled.parameters.length !== expected.length || compiled.parameters.some((p, i) => p !== expected[i])) {
      throw new Error(`a prepared insert must bind its values row by row: ${compiled.sql}`);
    }
    this.compiled.set(count, compiled);
    return compiled;
  }
}
