// The shape of one route catalogue entry, and the phrases several areas' entries share. Each area's
// entries stand beside its routes (`v2/tasks.openapi.ts` beside `v2/tasks.ts`); `catalogue.ts` gathers them.
import type { ErrorCode, Scope } from '@threadwork/shared/schemas';
import type { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Who may call a route: a v2 key (or a v1 session token: legacy token auth), a v1 session token, or anyone. */
export type Auth = 'v2' | 'v1' | 'none';

export interface RouteEntry {
  method: Method;
  /** The full path, OpenAPI style: `/v2/tasks/{id}`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  /** The decisions the server implements for this route, in plain words. */
  description?: string;
  auth: Auth;
  /** The scopes the route's guard checks (v2 and v1). Scopes needed only for some inputs are in the description. */
  scopes?: Scope[];
  /** What each `{param}` of the path names. */
  pathParams?: Record<string, string>;
  /** A zod object of the query parameters (one parameter per property). */
  query?: z.ZodType;
  body?: z.ZodType;
  /** A body the route can do without (every field optional): the request body is then not required. */
  bodyOptional?: boolean;
  /** v2: the schema of `data` in the success envelope. */
  data?: z.ZodType;
  /** v2: `data` is a page of these, with `meta.pagination`. */
  page?: z.ZodType;
  /** v1 and the token endpoint: the bare success body; `null` = 200 with no body. */
  bare?: z.ZodType | null;
  /** Error codes beyond the ones every route of its kind can give (see `errorCodesOf`). */
  errors?: ErrorCode[];
}

// Descriptions of the path parameters, by what they name.
export const id = {
  team: { id: 'team id (`team_…`)' },
  board: { id: 'board id (`brd_…`)' },
  list: { id: 'list id (`lst_…`)' },
  task: { id: 'task id (`tsk_…`)' },
  field: { id: 'custom field id' },
  thread: { id: 'raw mailbox thread id (hex)' },
  draft: { id: 'draft id, as a draft lists it (`draft_id`)' },
  contact: { id: 'contact id (`con_…`)' },
  company: { id: 'company id (`cmp_…`)' },
  webhook: { id: 'webhook subscription id (`wh_…`)' },
  delivery: { id: 'delivery id (the `x-service-delivery-id` header of a delivery)' },
  key: { id: 'API key id' },
} as const;

/** A board or list or task of an unpaid team answers 402: these routes sit behind that gate. */
export const GATED: ErrorCode[] = ['subscription_required'];
/** Every mailbox route but GET /mailbox answers 409 while the mailbox cannot be used. */
export const MAILBOX: ErrorCode[] = ['mailbox_not_connected', 'mailbox_reauth_required'];

export const TASK_DATA =
  'The task is answered whole, as GET /tasks/{id} would show it after the change. Writes record their v2 ' +
  'events and v1 hook deliveries in the same transaction as the change; a write that leaves every value as ' +
  'it was answers the same way and records none.';
