// What Kysely takes for PostgreSQL connections. Each connection Kysely asks for is a `Session`, which
// takes a pooled connection (a `Wire`) only once it has something to send, and makes statements travel
// together: a transaction's `begin` and opening (transaction.ts `transact`) wait for its first
// statement, statements handed to `sendLater` wait for the next one (a statement with parameters then
// joins them as text, its values written in: see `withLiterals`), and statements with parameters run
// as statements each connection prepares once.
//
// Creates at the top or bottom of one list share their transaction (`ListGroup`): the writes of one
// process that add tasks to one list within one turn of work commit together, each in a savepoint of
// its own, so one request's failure rolls back only its own work. docs/postgresql.md says what holds.
import type { PostgresPoolClient } from 'kysely';
import type { Pool, PoolClient } from 'pg';
import { COMMIT, notPreparable, preparedStatements, withLiterals } from './deferred-commit.ts';
import {
  DISCARD,
  FLUSH,
  GROUP,
  type HeldStatements,
  OPENING,
  type Opening,
  SEND_LATER,
  takeOpening,
} from './transaction.ts';

type Result = { command: string; rowCount: number | null; rows: Record<string, unknown>[] };

/** Distinct statements a server process prepares on each PostgreSQL connection, at most. */
const MAX_NAMED_STATEMENTS = 1000;

const answered = (command: string): Result => ({ command, rowCount: null, rows: [] });

/** A statement with its parameters written in, to share a text with others; undefined if it cannot be. */
function asText(text: string, values: unknown): string | undefined {
  if (!Array.isArray(values) || values.length === 0) return text;
  try {
    return withLiterals({ sql: text, parameters: values });
  } catch {
    return undefined;
  }
}

/** The results of a text of several statements, without those of the statements it prepared first. */
function resultsOf(result: unknown): Result[] {
  const results = (Array.isArray(result) ? result : [result]) as Result[];
  let first = 0;
  while (results[first]?.command === 'PREPARE') first++;
  return results.slice(first);
}

/** The pool Kysely draws its connections from: sessions over the process's pooled connections. */
export class Sessions {
  readonly options = {};
  readonly #pool: Pool;
  readonly #counter: { count: number };
  /** Statement names, per SQL text: the same on every connection (see `Wire`). */
  readonly names = new Map<string, string>();
  /** Statements each connection has prepared by name (they outlive transactions and sessions). */
  readonly #prepared = new WeakMap<PoolClient, Set<string>>();
  /** The open group of creates on each list (see `ListGroup`). */
  readonly groups = new Map<string, ListGroup>();

  constructor(pool: Pool, counter: { count: number }) {
    this.#pool = pool;
    this.#counter = counter;
  }

  async connect(): Promise<PostgresPoolClient> {
    return new Session(this) as unknown as PostgresPoolClient;
  }

  async end(): Promise<void> {
    await this.#pool.end();
  }

  /** A pooled connection, for as long as its user holds it. */
  async wire(): Promise<Wire> {
    const client = await this.#pool.connect();
    let prepared = this.#prepared.get(client);
    if (prepared === undefined) {
      prepared = new Set();
      this.#prepared.set(client, prepared);
    }
    return new Wire(client, prepared, this.names, this.#counter);
  }
}

/** One pooled connection, held: sends statements, preparing what it has not yet. */
export class Wire {
  readonly #client: PoolClient;
  readonly #prepared: Set<string>;
  readonly #names: Map<string, string>;
  readonly #counter: { count: number };
  /** Set when the connection failed under a statement: it is not given back to the pool. */
  #broken = false;

  constructor(
    client: PoolClient,
    prepared: Set<string>,
    names: Map<string, string>,
    counter: { count: number },
  ) {
    this.#client = client;
    this.#prepared = prepared;
    this.#names = names;
    this.#counter = counter;
  }

  /** One round trip: a text of statements, or one statement with parameters (prepared by name). */
  async send(text: string, values?: unknown): Promise<unknown> {
    this.#counter.count++;
    try {
      if (!Array.isArray(values) || values.length === 0) return await this.#sendText(text);
      let name = this.#names.get(text);
      if (name === undefined && this.#names.size < MAX_NAMED_STATEMENTS) {
        name = `tw_${this.#names.size}`;
        this.#names.set(text, name);
      }
      return await this.#client.query(name === undefined ? { text, values } : { name, text, values });
    } catch (error) {
      // An error without an SQLSTATE is the connection's own (it closed, say).
      if ((error as { code?: unknown }).code === undefined) this.#broken = true;
      throw error;
    }
  }

  /** Anything else Kysely may send (a cursor, a callback), as it is. */
  raw(...args: unknown[]): unknown {
    this.#counter.count++;
    return (this.#client.query as (...args: unknown[]) => unknown)(...args);
  }

  release(): void {
    this.#client.release(this.#broken);
  }

  /**
   * A text whose statements this connection has yet to prepare prepares them first, in the same round
   * trip, ahead of everything (so ahead of a `begin` too: a prepared statement outlives transactions).
   */
  async #sendText(text: string): Promise<unknown> {
    const needed = preparedStatements(text, this.#prepared);
    if (needed.length === 0) return this.#client.query(text);
    for (const { name } of needed) this.#prepared.add(name);
    try {
      return await this.#client.query(
        `${needed.map(({ name, sql }) => `prepare ${name} as ${sql}`).join(';')};${text}`,
      );
    } catch (error) {
      // A statement PostgreSQL would not prepare (class 42: its SQL, or a parameter's type) stopped
      // the text at its `prepare`: those of this text run as text from now on.
      if (String((error as { code?: unknown }).code).startsWith('42')) {
        for (const { name } of needed) {
          this.#prepared.delete(name);
          notPreparable(name);
        }
      }
      throw error;
    }
  }
}

/** What Kysely takes for one connection: held back statements, then a pooled connection or a group. */
class Session implements HeldStatements {
  readonly #sessions: Sessions;
  #wire: Wire | undefined;
  /**
   * A `begin` waiting for the transaction's first statement, with the opening it carries and the group
   * it may join (see `ListGroup`).
   */
  #begin: { opening: Opening | undefined; group?: string } | undefined;
  /** Statements held by `sendLater`, sent in front of the next one (a rollback drops them). */
  #later: string[] = [];
  /** The transaction's commit has gone with a statement: Kysely's own `commit` is answered here. */
  #commitSent = false;
  /** The group this transaction joined, if it did. */
  #member: Member | undefined;

  constructor(sessions: Sessions) {
    this.#sessions = sessions;
  }

  release(): void {
    this.#wire?.release();
    this.#wire = undefined;
  }

  sendLater(text: string): void {
    this.#later.push(text);
  }

  joinGroup(key: string): void {
    if (this.#begin !== undefined) this.#begin.group = key;
  }

  readonly query = (text: unknown, values?: unknown, callback?: unknown): unknown => {
    if (callback !== undefined || typeof text !== 'string' || typeof values === 'function') {
      return this.#held().then((wire) => wire.raw(text, values, callback));
    }
    const bare = !Array.isArray(values) || values.length === 0;
    if (bare && text === 'begin' && this.#begin === undefined && this.#member === undefined) {
      this.#begin = { opening: undefined };
      return Promise.resolve(answered('BEGIN'));
    }
    if (bare && text.startsWith(OPENING)) {
      if (this.#begin === undefined) return Promise.reject(new Error('an opening outside a transaction'));
      const opening = takeOpening(text.slice(OPENING.length));
      if (opening !== undefined) opening.connection = this;
      this.#begin.opening = opening;
      return Promise.resolve(answered('SELECT'));
    }
    if (bare && text.startsWith(GROUP)) {
      this.joinGroup(text.slice(GROUP.length));
      return Promise.resolve(answered('SELECT'));
    }
    if (bare && text.startsWith(SEND_LATER)) {
      this.sendLater(text.slice(SEND_LATER.length));
      return Promise.resolve(answered('SELECT'));
    }
    if (bare && text === DISCARD) {
      this.#later = [];
      return Promise.resolve(answered('SELECT'));
    }
    if (bare && (text === 'commit' || text === 'rollback')) return this.#end(text);
    // A statement that carries its transaction's commit (see deferred-commit.ts).
    if (bare && (text === COMMIT || text.endsWith(`;${COMMIT}`))) {
      this.#commitSent = true;
      if (this.#member !== undefined) {
        const own = text === COMMIT ? [] : [text.slice(0, -COMMIT.length - 1)];
        const later = this.#later;
        this.#later = [];
        return this.#member.finish([...later, ...own]).then(() => answered('COMMIT'));
      }
    }
    if (this.#member !== undefined) return this.#member.read(text, values);
    const group = this.#begin?.group;
    if (group !== undefined && this.#begin?.opening?.locking === 'rows' && this.#later.length === 0) {
      const opening = this.#begin.opening;
      const own = asText(text, values);
      if (own !== undefined) {
        this.#begin = undefined;
        this.#member = ListGroup.join(this.#sessions, group, opening);
        return this.#member.first(own);
      }
    }
    return this.#sendWithHeld(text, values);
  };

  /** Kysely's `commit` or `rollback`. */
  async #end(text: 'commit' | 'rollback'): Promise<Result> {
    if (text === 'rollback') this.#later = [];
    const member = this.#member;
    if (member !== undefined) {
      this.#member = undefined;
      const sent = this.#commitSent;
      this.#commitSent = false;
      if (text === 'rollback') await member.leave();
      else if (!sent) await member.finish(this.#later);
      return answered(text.toUpperCase());
    }
    if (this.#commitSent) {
      this.#commitSent = false;
      if (text === 'commit') return answered('COMMIT');
    }
    // A transaction that ends before its first statement never needs to begin.
    if (this.#begin !== undefined && (text === 'rollback' || this.#later.length === 0)) {
      this.#begin = undefined;
      return answered(text.toUpperCase());
    }
    return (await this.#sendWithHeld(text, undefined)) as Result;
  }

  /** The pooled connection this session holds, taken now if it holds none. */
  async #held(): Promise<Wire> {
    this.#wire ??= await this.#sessions.wire();
    return this.#wire;
  }

  /** Sends `text` with whatever waits for it: the `begin` and its opening, then held statements. */
  async #sendWithHeld(text: string, values: unknown): Promise<unknown> {
    const wire = await this.#held();
    const begin = this.#begin;
    const opening = begin?.opening;
    const flush = text === FLUSH;
    if (begin === undefined && this.#later.length === 0)
      return flush ? answered('SELECT') : wire.send(text, values);
    const own = flush ? undefined : asText(text, values);
    const held = [...(begin === undefined ? [] : ['begin', ...(opening?.statements ?? [])]), ...this.#later];
    this.#begin = undefined;
    this.#later = [];
    const results = resultsOf(await wire.send([...held, ...(own === undefined ? [] : [own])].join(';')));
    if (opening !== undefined) opening.read(results.slice(1, 1 + opening.statements.length));
    // Nothing to send but what waited (a flush), or a statement that could not share a text: it goes
    // now, on its own.
    if (own === undefined) return flush ? answered('SELECT') : wire.send(text, values);
    return results.at(-1);
  }
}

/** What a member sent in one text, and where its results go. */
interface Part {
  member: Member;
  statements: string[];
  /** A member's writes, answer and savepoint: they run all or not at all (see `ListGroup`). */
  final: boolean;
  resolve(results: Result[]): void;
  reject(error: unknown): void;
}

/**
 * The write transactions of one process that add tasks at the top or bottom of one list, made one
 * transaction: what arrives while it is open joins it, each member's reads travel together in one
 * text, and each member's writes (its task, its event, its stored answer) run in a savepoint of their
 * own, in one text with the other members' that are ready, and with the commit when they are the last.
 * A member's writes that fail roll back to its savepoint: the others' stand. Once a member is done
 * the group takes no one new, and commits when every member is done: the list's lock is then held
 * from the group's first write to its commit, one round trip's work. What arrives meanwhile opens the
 * next group, whose reads run at once and whose writes wait for that lock. Members lock nothing but the
 * list and the rows they insert, so groups (like single creates) never wait for each other in a cycle.
 */
class ListGroup {
  readonly #sessions: Sessions;
  readonly #key: string;
  #wire: Promise<Wire> | undefined;
  /** `begin`, the write lock and what every write transaction reads as it begins, once. */
  readonly #opening: readonly string[];
  readonly #beginResults: Promise<Result[]>;
  #resolveBegin!: (results: Result[]) => void;
  #rejectBegin!: (error: unknown) => void;
  #begun = false;
  /** Takes members (until one is done). */
  #open = true;
  #active = 0;
  #savepoints = 0;
  /** The claims of the members' Idempotency-Keys: one session holds a key twice without waiting. */
  readonly #claims = new Set<string>();
  #queue: Part[] = [];
  #sending = false;
  #commitQueued = false;
  #failed: unknown;
  readonly committed: Promise<void>;
  #resolveCommit!: () => void;
  #rejectCommit!: (error: unknown) => void;
  /** Resolves once the group's transaction has ended, committed or rolled back, and its locks are gone. */
  readonly ended: Promise<void>;
  #resolveEnded!: () => void;

  private constructor(sessions: Sessions, key: string, opening: Opening) {
    this.#sessions = sessions;
    this.#key = key;
    // The write lock, and the reads every write transaction makes as it begins.
    this.#opening = [opening.statements[0]!, ...opening.statements.slice(1 + opening.claimCount)];
    this.#beginResults = new Promise((resolve, reject) => {
      this.#resolveBegin = resolve;
      this.#rejectBegin = reject;
    });
    this.#beginResults.catch(() => {});
    this.committed = new Promise((resolve, reject) => {
      this.#resolveCommit = resolve;
      this.#rejectCommit = reject;
    });
    this.committed.catch(() => {});
    this.ended = new Promise((resolve) => {
      this.#resolveEnded = resolve;
    });
  }

  /** The open group of list `key`, or a new one: the member it takes. */
  static join(sessions: Sessions, key: string, opening: Opening): Member {
    let group = sessions.groups.get(key);
    if (group === undefined || !group.#open) {
      group = new ListGroup(sessions, key, opening);
      sessions.groups.set(key, group);
    }
    group.#active++;
    opening.grouped = true;
    return new Member(group, opening);
  }

  /** A member's claim: false when another member of this group holds the same key. */
  claim(statements: readonly string[]): boolean {
    const key = statements[0];
    if (key === undefined) return true;
    if (this.#claims.has(key)) return false;
    this.#claims.add(key);
    return true;
  }

  get beginResults(): Promise<Result[]> {
    return this.#beginResults;
  }

  /** A member's next savepoint name. */
  savepoint(): string {
    return `tw_member_${++this.#savepoints}`;
  }

  /** Sends `statements` for `member` with what else is ready; answers their results. */
  send(member: Member, statements: string[], final: boolean): Promise<Result[]> {
    if (this.#failed !== undefined) return Promise.reject(this.#failed);
    if (final) this.#close();
    return new Promise((resolve, reject) => {
      this.#queue.push({ member, statements, final, resolve, reject });
      this.#pump();
    });
  }

  /** A member is done (its writes are queued, or it left): the last one commits the group. */
  done(): void {
    this.#active--;
    this.#close();
    if (this.#active === 0 && !this.#commitQueued) {
      this.#commitQueued = true;
      this.#pump();
    }
  }

  #close(): void {
    if (!this.#open) return;
    this.#open = false;
    if (this.#sessions.groups.get(this.#key) === this) this.#sessions.groups.delete(this.#key);
  }

  #pump(): void {
    if (this.#sending) return;
    this.#sending = true;
    // What the members sent during this turn of work goes in one text.
    setImmediate(() => {
      void this.#sendQueued().finally(() => {
        this.#sending = false;
        if (this.#queue.length > 0 || (this.#commitQueued && this.#active === 0 && !this.#settled))
          this.#pump();
      });
    });
  }

  #settled = false;

  /** One text: `begin` first (once), the members' reads, their writes, and the commit once all are done. */
  async #sendQueued(): Promise<void> {
    if (this.#settled) return;
    // Reads before writes: a write that fails then leaves every read answered (see `#recover`).
    const parts = [...this.#queue.filter((part) => !part.final), ...this.#queue.filter((part) => part.final)];
    this.#queue = [];
    const commit = this.#commitQueued && this.#active === 0;
    if (parts.length === 0 && !commit) return;
    const begin = this.#begun ? [] : ['begin', ...this.#opening];
    const texts = parts.map((part) => part.statements.join(';'));
    const text = [...begin, ...texts, ...(commit ? [COMMIT] : [])]
      .filter((part) => part.length > 0)
      .join(';');
    let results: Result[];
    try {
      this.#wire ??= this.#sessions.wire();
      const wire = await this.#wire;
      results = resultsOf(await wire.send(text));
    } catch (error) {
      await this.#recover(error, parts, commit);
      return;
    }
    let next = 0;
    if (!this.#begun) {
      this.#begun = true;
      this.#resolveBegin(results.slice(1, 1 + this.#opening.length));
      next = 1 + this.#opening.length;
    }
    for (const part of parts) {
      const count = part.statements.filter((statement) => statement.length > 0).length;
      part.resolve(results.slice(next, next + count));
      next += count;
    }
    if (commit) await this.#settle();
  }

  /**
   * A text failed. If a member's writes failed, the transaction rolls back to that member's savepoint:
   * that member fails, the members' writes before it stand, and whatever followed it (other writes,
   * the commit) goes again; reads are asked again (asking twice changes nothing). Otherwise (`begin`,
   * a read, the commit itself) the whole group fails: no member's change is made.
   */
  async #recover(error: unknown, parts: Part[], commit: boolean): Promise<void> {
    const finals = parts.filter((part) => part.final);
    const wire = this.#begun ? await this.#wire?.catch(() => undefined) : undefined;
    if (wire !== undefined) {
      for (let index = finals.length - 1; index >= 0; index--) {
        const savepoint = finals[index]!.statements[0]!.slice('savepoint '.length);
        const rolledBack = await wire.send(`rollback to ${savepoint};release ${savepoint}`).then(
          () => true,
          () => false,
        );
        if (!rolledBack) continue;
        // The writes of `finals[index]` failed; those before it stand.
        for (const part of finals.slice(0, index)) part.resolve([]);
        finals[index]!.reject(error);
        this.#queue.unshift(...parts.filter((part) => !part.final), ...finals.slice(index + 1));
        if (commit) this.#commitQueued = true;
        return;
      }
    }
    this.#fail(error, parts);
  }

  #fail(error: unknown, parts: Part[]): void {
    this.#failed = error;
    this.#close();
    for (const part of [...parts, ...this.#queue]) part.reject(error);
    this.#queue = [];
    this.#rejectBegin(error);
    this.#rejectCommit(error);
    this.#settled = true;
    void this.#release(true);
  }

  async #settle(): Promise<void> {
    this.#settled = true;
    this.#resolveCommit();
    await this.#release(false);
  }

  async #release(rollback: boolean): Promise<void> {
    try {
      const wire = await this.#wire?.catch(() => undefined);
      if (wire === undefined) return;
      if (rollback && this.#begun) await wire.send('rollback').catch(() => {});
      wire.release();
    } finally {
      this.#resolveEnded();
    }
  }
}

/** One transaction in a `ListGroup`. */
class Member {
  readonly #group: ListGroup;
  readonly #opening: Opening;
  #done = false;
  /** Whether this member asked for an Idempotency-Key's claim in the group's transaction (see `leave`). */
  #claimed = false;

  constructor(group: ListGroup, opening: Opening) {
    this.#group = group;
    this.#opening = opening;
  }

  /** The transaction's first statement, with its claim (judged, as the opening's, before it answers). */
  async first(statement: string): Promise<Result> {
    const { statements, claimCount } = this.#opening;
    const claim = statements.slice(1, 1 + claimCount);
    const own = this.#group.claim(claim);
    this.#claimed = own && claimCount > 0;
    const sent = await this.#group.send(this, [...(own ? claim : []), statement], false);
    const begun = await this.#group.beginResults;
    // Another member holds this key: read as a claim another session holds would be.
    const claimed = own
      ? sent.slice(0, claimCount)
      : claim.map((_, index) =>
          index === 0 ? { command: 'SELECT', rowCount: 1, rows: [{ claimed: false }] } : answered('SELECT'),
        );
    this.#opening.read([begun[0]!, ...claimed, ...begun.slice(1)]);
    return sent.at(-1)!;
  }

  /** A read, answered from the group's connection. Writes wait for `finish` (`sendLater`). */
  async read(text: string, values: unknown): Promise<Result> {
    const own = asText(text, values);
    if (own === undefined || !/^\s*select\b/i.test(text)) {
      throw new Error(`a grouped transaction sends its writes later (sendLater): ${text.slice(0, 60)}`);
    }
    return (await this.#group.send(this, [own], false)).at(-1)!;
  }

  /** Ends the member: its writes (`statements`) in a savepoint of their own; resolves once the group commits. */
  async finish(statements: readonly string[]): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    if (statements.length > 0) {
      const savepoint = this.#group.savepoint();
      const sent = this.#group.send(
        this,
        [`savepoint ${savepoint}`, ...statements, `release ${savepoint}`],
        true,
      );
      this.#group.done();
      await sent;
    } else {
      this.#group.done();
    }
    await this.#group.committed;
  }

  /**
   * The transaction rolled back: its writes were never sent. A key it claimed stays claimed by the
   * group's transaction, not by the member, until the group ends: a member that asked for a claim waits
   * for that, so that neither its answer (a stored answer replayed, say) nor its own run again (a race
   * lost) comes before the key is free, or a retry of the key would find it still running.
   */
  async leave(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    this.#group.done();
    if (this.#claimed) await this.#group.ended;
  }
}
