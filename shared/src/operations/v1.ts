// The frozen legacy v1 interface (under /api/v1) and its token endpoint. v1 answers bare JSON (no envelope);
// each operation needs the scopes of the v2 operation it matches (docs/scopes-and-keys.md).
import { z } from 'zod';
import {
  V1AssignRequest,
  V1Board,
  V1Created,
  V1CreateFromEmailRequest,
  V1CreateItemRequest,
  V1Item,
  V1ItemIdRequest,
  V1List,
  V1ListBoardsQuery,
  V1ListItemsQuery,
  V1ListListsQuery,
  V1MoveRequest,
  type V1Object,
  V1SubscribeRequest,
  V1Subscription,
  V1Success,
  V1Team,
  V1TokenRequest,
  V1TokenResponse,
  V1UnsubscribeRequest,
} from '../schemas/v1/index.ts';
import { MAILBOX, operation } from './operation.ts';

export const sessionToken = operation({
  method: 'POST',
  path: '/auth/api_token',
  operationId: 'createSessionToken',
  tag: 'v1 (legacy)',
  summary: 'Exchange a legacy key for a session token',
  description:
    'Takes `email`, `api_key`, `api_secret` and `api_key_name` from the JSON body or, for each one missing ' +
    'there, from the query string. Answers a JWT (HS256) valid for 20 minutes, to send as `x-access-token` ' +
    'to v1 and to v2 (legacy token auth). A wrong credential is a 401 whose `details.field` names it.',
  auth: 'none',
  query: V1TokenRequest.partial(),
  body: V1TokenRequest.partial(),
  bodyOptional: true,
  bare: V1TokenResponse,
  // A wrong credential.
  errors: ['unauthenticated'],
});

export const v1 = {
  teams: operation({
    method: 'GET',
    path: '/api/v1/teams',
    operationId: 'v1ListTeams',
    tag: 'v1 (legacy)',
    summary: 'List the user’s teams',
    description: 'Every team, paid or not. v1 answers whole collections: no pagination.',
    auth: 'v1',
    scopes: ['boards.read'],
    bare: z.array(V1Team),
  }),
  boards: operation({
    method: 'GET',
    path: '/api/v1/boards',
    operationId: 'v1ListBoards',
    tag: 'v1 (legacy)',
    summary: 'List a team’s boards',
    auth: 'v1',
    scopes: ['boards.read'],
    query: V1ListBoardsQuery,
    bare: z.array(V1Board),
    gated: true,
  }),
  lists: operation({
    method: 'GET',
    path: '/api/v1/lists',
    operationId: 'v1ListLists',
    tag: 'v1 (legacy)',
    summary: 'List a board’s lists',
    auth: 'v1',
    scopes: ['lists.read'],
    query: V1ListListsQuery,
    bare: z.array(V1List),
    gated: true,
  }),
  items: operation({
    method: 'GET',
    path: '/api/v1/items',
    operationId: 'v1ListItems',
    tag: 'v1 (legacy)',
    summary: 'List the items of a board or a list',
    description: 'Exactly one of `boardId` or `listId`. Completed items are listed; archived ones are not.',
    auth: 'v1',
    scopes: ['tasks.read'],
    query: V1ListItemsQuery,
    bare: z.array(V1Item),
    gated: true,
  }),
  createItem: operation({
    method: 'POST',
    path: '/api/v1/items',
    operationId: 'v1CreateItem',
    tag: 'v1 (legacy)',
    summary: 'Create an item',
    description: 'Item ids are v2 task ids (`tsk_…`).',
    auth: 'v1',
    scopes: ['tasks.write'],
    body: V1CreateItemRequest,
    bare: V1Created,
    gated: true,
  }),
  // As v2's POST /tasks with thread_id: the task is built from the thread.
  createFromEmail: operation({
    method: 'POST',
    path: '/api/v1/items/createFromEmail',
    operationId: 'v1CreateItemFromEmail',
    tag: 'v1 (legacy)',
    summary: 'Create an item from a mailbox thread',
    description:
      'The title is the thread’s subject (`listItem.title` is ignored); `messageId` must be a message of the ' +
      'thread (404 otherwise); `archive: true` takes the thread out of the Inbox.',
    auth: 'v1',
    scopes: ['tasks.write', 'email.metadata.read'],
    body: V1CreateFromEmailRequest,
    bare: V1Created,
    gated: true,
    errors: MAILBOX,
  }),
  markComplete: operation({
    method: 'POST',
    path: '/api/v1/items/markComplete',
    operationId: 'v1MarkComplete',
    tag: 'v1 (legacy)',
    summary: 'Mark an item complete',
    auth: 'v1',
    scopes: ['tasks.write'],
    body: V1ItemIdRequest,
    bare: V1Success,
    gated: true,
  }),
  markIncomplete: operation({
    method: 'POST',
    path: '/api/v1/items/markIncomplete',
    operationId: 'v1MarkIncomplete',
    tag: 'v1 (legacy)',
    summary: 'Mark an item incomplete',
    auth: 'v1',
    scopes: ['tasks.write'],
    body: V1ItemIdRequest,
    bare: V1Success,
    gated: true,
  }),
  assignTask: operation({
    method: 'POST',
    path: '/api/v1/items/assignTask',
    operationId: 'v1AssignTask',
    tag: 'v1 (legacy)',
    summary: 'Assign an item to a board member',
    description: 'An assignee who is not a member of the board is a 400 on `assigneeEmail`.',
    auth: 'v1',
    scopes: ['tasks.write'],
    body: V1AssignRequest,
    bare: V1Success,
    gated: true,
  }),
  unassignTask: operation({
    method: 'POST',
    path: '/api/v1/items/unassignTask',
    operationId: 'v1UnassignTask',
    tag: 'v1 (legacy)',
    summary: 'Unassign an item',
    description: '`assigneeEmail` must be the member the item is assigned to (400 otherwise).',
    auth: 'v1',
    scopes: ['tasks.write'],
    body: V1AssignRequest,
    bare: V1Success,
    gated: true,
  }),
  moveTaskToList: operation({
    method: 'POST',
    path: '/api/v1/items/moveTaskToList',
    operationId: 'v1MoveTaskToList',
    tag: 'v1 (legacy)',
    summary: 'Move an item to a list',
    description: 'The item lands at the top of the list.',
    auth: 'v1',
    scopes: ['tasks.write'],
    body: V1MoveRequest,
    bare: V1Success,
    gated: true,
  }),
};

/** The subscribe and unsubscribe operations of one v1 object (`items` or `lists`). */
function hookOperations(object: V1Object) {
  const name = object === 'items' ? 'Items' : 'Lists';
  return {
    subscribe: operation({
      method: 'POST',
      path: `/api/v1/${object}/subscribe`,
      operationId: `v1Subscribe${name}`,
      tag: 'v1 (legacy)',
      summary: `Subscribe a hook on ${object}`,
      description:
        'The hook POSTs the item (no envelope, no signature) with `x-service-event-id`, unique per event. ' +
        'A 410 answer deletes the subscription. `webhookURL` follows the v2 target rule (https; never ' +
        'this server itself).',
      auth: 'v1',
      scopes: ['webhooks.manage'],
      body: V1SubscribeRequest,
      bare: V1Subscription,
      gated: true,
    }),
    unsubscribe: operation({
      method: 'POST',
      path: `/api/v1/${object}/unsubscribe`,
      operationId: `v1Unsubscribe${name}`,
      tag: 'v1 (legacy)',
      summary: `Cancel a hook on ${object}`,
      auth: 'v1',
      scopes: ['webhooks.manage'],
      body: V1UnsubscribeRequest,
      bare: null,
    }),
  };
}

/** v1 REST hooks, by the object they watch. */
export const v1Hooks: Record<V1Object, ReturnType<typeof hookOperations>> = {
  items: hookOperations('items'),
  lists: hookOperations('lists'),
};
