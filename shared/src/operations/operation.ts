// What one operation of the service is, declared once: the server registers its route and guard from it, the
// OpenAPI document describes it from it, and the typed clients call it from it (docs/openapi.md).
import type { z } from 'zod';
import type { ErrorCode } from '../schemas/errors.ts';
import type { Scope } from '../schemas/scopes.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Who may call: a v2 key (or a v1 session token: legacy token auth), a v1 session token, or anyone. */
export type Auth = 'v2' | 'v1' | 'none';

/** What a path parameter names: shortly (in the client's errors: "task id") and in full (in the document). */
export interface PathParam {
  readonly name: string;
  readonly description: string;
}

/** A scope needed only when the request sends a field: `thread_id` in the body of POST /v2/tasks. */
export interface ScopeWhenSent {
  readonly in: 'body' | 'query';
  readonly field: string;
  readonly scope: Scope;
}

export interface Declaration {
  readonly method: Method;
  /** The full path, OpenAPI style: `/v2/tasks/{id}`. */
  readonly path: string;
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  /** The decisions the service implements for this operation, in plain words. */
  readonly description?: string;
  /** Default `v2`. */
  readonly auth?: Auth;
  /** What the guard checks before the request is read (v2 and v1 alike). */
  readonly scopes?: readonly Scope[];
  /** Checked too, before the request is read, when the field is sent. */
  readonly scopesWhenSent?: readonly ScopeWhenSent[];
  /** What each `{param}` of the path names. */
  readonly pathParams?: Readonly<Record<string, PathParam>>;
  /** A zod object of the query parameters (one parameter per property). */
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** A body the operation can do without (every field optional): the request body is then not required. */
  readonly bodyOptional?: boolean;
  /** v2: the schema of `data` in the success envelope. */
  readonly data?: z.ZodType;
  /** v2: `data` is a page of these, with `meta.pagination`. */
  readonly page?: z.ZodType;
  /** v1 and the token endpoint: the bare success body; `null` = 200 with no body. */
  readonly bare?: z.ZodType | null;
  /** Behind the paid gate: a board, list or task of an unpaid team answers 402 subscription_required. */
  readonly gated?: boolean;
  /** Error codes beyond the ones every operation of its kind can give and the gate's. */
  readonly errors?: readonly ErrorCode[];
}

/** A declaration with its defaults filled in. */
export type Operation<D extends Declaration = Declaration> = D & {
  readonly auth: Auth;
  readonly scopes: readonly Scope[];
  /** Takes an Idempotency-Key: every write that needs credentials. */
  readonly idempotent: boolean;
};

const WRITES: ReadonlySet<Method> = new Set(['POST', 'PATCH', 'DELETE']);

/** Declares one operation. */
export function operation<const D extends Declaration>(declaration: D): Operation<D> {
  const auth = declaration.auth ?? 'v2';
  return {
    ...declaration,
    auth,
    scopes: declaration.scopes ?? [],
    idempotent: auth !== 'none' && WRITES.has(declaration.method),
  };
}

/** The names of a path's parameters: `'/v2/tasks/{id}/move'` gives `'id'`. */
export type PathParamName<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamName<Rest>
  : never;

/** The names of a path's parameters, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

// What the path parameters name, by the object they name.
export const ID = {
  team: { id: { name: 'team id', description: 'team id (`team_…`)' } },
  board: { id: { name: 'board id', description: 'board id (`brd_…`)' } },
  list: { id: { name: 'list id', description: 'list id (`lst_…`)' } },
  task: { id: { name: 'task id', description: 'task id (`tsk_…`)' } },
  field: { id: { name: 'custom field id', description: 'custom field id' } },
  thread: { id: { name: 'thread id', description: 'raw mailbox thread id (hex)' } },
  draft: { id: { name: 'draft id', description: 'draft id, as a draft lists it (`draft_id`)' } },
  contact: { id: { name: 'contact id', description: 'contact id (`con_…`)' } },
  company: { id: { name: 'company id', description: 'company id (`cmp_…`)' } },
  webhook: { id: { name: 'subscription id', description: 'webhook subscription id (`wh_…`)' } },
  delivery: {
    id: {
      name: 'delivery id',
      description: 'delivery id (the `x-service-delivery-id` header of a delivery)',
    },
  },
  key: { id: { name: 'API key id', description: 'API key id' } },
} as const satisfies Record<string, Record<'id', PathParam>>;

/** Every mailbox operation but GET /mailbox answers 409 while the mailbox cannot be used. */
export const MAILBOX: readonly ErrorCode[] = ['mailbox_not_connected', 'mailbox_reauth_required'];

export const TASK_DATA =
  'The task is answered whole, as GET /tasks/{id} would show it after the change. Writes record their v2 ' +
  'events and v1 hook deliveries in the same transaction as the change; a write that leaves every value as ' +
  'it was answers the same way and records none.';
