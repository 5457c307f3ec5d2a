// Compile once, bind many. Building and compiling a Kysely query costs about as much as running it on
// SQLite, so the hottest queries are built once per database, with placeholders where their arguments
// go, and each call only binds new values to the compiled SQL. The SQL is still Kysely's, compiled by
// the dialect of the database it runs on.
import {
  type Compilable,
  type CompiledQuery,
  createQueryId,
  type QueryResult,
  type RawBuilder,
  sql,
} from 'kysely';
import { type Executor, perDatabase } from './executor.ts';
import { groupCommit, sendLater } from './transaction.ts';

const MAX_KEPT_ARITY = 128;

// SQLite plans a statement afresh each time a value its plan may depend on is bound again (a value
// compared with an indexed column, in a join, or a LIMIT): re-planning costs as much as running the
// query, and on a join several times more. Behind a cast the value is opaque to the planner, and the
// plan, still using the same indexes, is kept. Standard SQL, read the same by PostgreSQL.

/** A bound text value whose rebinding does not make SQLite plan the statement again. */
export function textParam(value: string): RawBuilder<string> {
  return sql<string>`cast(${value} as text)`;
}

/** A bound integer (a LIMIT) whose rebinding does not make SQLite plan the statement again. */
export function integerParam(value: number): RawBuilder<number> {
  return sql<number>`cast(${value} as integer)`;
}

/** Stands for the argument at `index` while the query is compiled. */
class Placeholder {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
}

interface Template {
  compiled: CompiledQuery;
  /** Per compiled parameter: the index of the argument bound to it, or -1 to keep the compiled value. */
  slots: number[];
}

export interface PreparedQuery<Args extends unknown[], Row> {
  /** Every row. */
  execute(db: Executor, ...args: Args): Promise<Row[]>;
  executeTakeFirst(db: Executor, ...args: Args): Promise<Row | undefined>;
  /** For writes: the number of rows inserted, updated or deleted. */
  executeWrite(db: Executor, ...args: Args): Promise<number>;
  /**
   * The query as it would run, to send in one text with other statements (an Idempotency-Key's claim
   * and stored answer travel so: http/idempotency.ts).
   */
  bound(db: Executor, ...args: Args): CompiledQuery;
  /**
   * For writes whose outcome nothing reads: inside a PostgreSQL transaction, sent with the
   * transaction's next statement (see `sendLater`); elsewhere at once.
   */
  writeLater(db: Executor, ...args: Args): Promise<void>;
}

/**
 * `build` receives placeholders for its arguments: it may only pass them to Kysely as values (a rest
 * argument may be an `in` list; no string building, no branching on them), which is checked when it
 * is compiled.
 */
export function prepareQuery<Args extends unknown[], Row>(
  build: (db: Executor, ...args: Args) => Compilable<Row>,
): PreparedQuery<Args, Row> {
  // Per database, per number of arguments (a rest argument may bind an `in` list of any length).
  const templatesOf = perDatabase(() => new Map<number, Template>());

  function compile(db: Executor, arity: number): Template {
    const placeholders = Array.from({ length: arity }, (_, index) => new Placeholder(index));
    const compiled = build(db, ...(placeholders as unknown as Args)).compile();
    const slots = compiled.parameters.map((value) => (value instanceof Placeholder ? value.index : -1));
    for (let index = 0; index < arity; index++) {
      if (!slots.includes(index)) {
        throw new Error(`prepared query does not bind argument ${index} as a value: ${compiled.sql}`);
      }
    }
    return { compiled, slots };
  }

  function bind(db: Executor, args: Args): CompiledQuery {
    // Plugins transform each query as it is compiled: with any installed, compile every time.
    if (db.getExecutor().plugins.length > 0) return build(db, ...args).compile();
    const byArity = templatesOf(db);
    let template = byArity.get(args.length);
    if (!template) {
      template = compile(db, args.length);
      // Long `in` lists are rare (whole boards): they are compiled each time rather than kept.
      if (args.length <= MAX_KEPT_ARITY) byArity.set(args.length, template);
    }
    const { compiled, slots } = template;
    const parameters = compiled.parameters.map((value, position) => {
      const slot = slots[position]!;
      return slot === -1 ? value : args[slot];
    });
    return { sql: compiled.sql, query: compiled.query, parameters, queryId: createQueryId() };
  }

  function run<R>(db: Executor, args: Args): Promise<QueryResult<R>> {
    return runBound<R>(db, bind(db, args));
  }

  async function runBound<R>(db: Executor, query: CompiledQuery): Promise<QueryResult<R>> {
    // On SQLite a statement runs synchronously: when it cannot interleave with another transaction,
    // it skips Kysely's connection queue (a handful of promise hops, as much as a small query costs).
    // Plugins see results on Kysely's path only, so with any installed the statement takes that path.
    const group = groupCommit(db);
    if (group?.mayRunNow(db.isTransaction) && db.getExecutor().plugins.length === 0) {
      return group.execute<R>(query);
    }
    return db.executeQuery<R>(query);
  }

  return {
    async execute(db, ...args) {
      return (await run<Row>(db, args)).rows;
    },
    async executeTakeFirst(db, ...args) {
      return (await run<Row>(db, args)).rows[0];
    },
    async executeWrite(db, ...args) {
      return Number((await run(db, args)).numAffectedRows ?? 0n);
    },
    bound(db, ...args) {
      return bind(db, args);
    },
    async writeLater(db, ...args) {
      // Bound once: run at once where it cannot be sent later (SQLite, or outside a transaction).
      const query = bind(db, args);
      if (!(await sendLater(db, query))) await runBound(db, query);
    },
  };
}
