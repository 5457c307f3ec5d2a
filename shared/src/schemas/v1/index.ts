import { z } from 'zod';
import { DateTime, HexId, NotesString, TitleString } from '../common.ts';
import { V1_ACTION_TARGETS, V1_ACTIONS, V1_OBJECTS } from '../values.ts';

/**
 * The frozen legacy v1 interface. Its answers are bare (no envelope). Requests are parsed like the legacy
 * service did: unknown fields are ignored, required ones checked.
 */

export const V1Team = z.looseObject({ id: z.string(), name: z.string() });
export type V1Team = z.infer<typeof V1Team>;
export const V1Board = V1Team;
export type V1Board = z.infer<typeof V1Board>;
export const V1List = V1Team;
export type V1List = z.infer<typeof V1List>;

export const V1FirstThread = z.looseObject({
  title: z.string().nullable(),
  received: z.string().nullable(),
  from: z.string().nullable(),
});

/** An item, and also the body every v1 hook POSTs (the trigger payload has exactly these fields). */
export const V1Item = z.looseObject({
  id: z.string(),
  title: z.string(),
  boardName: z.string(),
  boardId: z.string(),
  listName: z.string(),
  listId: z.string(),
  dateCreated: z.string(),
  dueDate: z.string().nullable(),
  notes: z.string().nullable(),
  firstThread: V1FirstThread.nullable(),
  completed: z.boolean(),
  /** The assignee's name; empty string when unassigned. */
  assignedTo: z.string(),
  assignedToEmail: z.string(),
});
export type V1Item = z.infer<typeof V1Item>;

export { V1_ACTION_TARGETS, V1_ACTIONS, V1_OBJECTS };
export const V1Action = z.enum(V1_ACTIONS);
export type V1Action = z.infer<typeof V1Action>;

export const V1Object = z.enum(V1_OBJECTS);
export type V1Object = z.infer<typeof V1Object>;

export const V1Subscription = z.looseObject({
  id: z.string(),
  action: z.string(),
  entityId: z.string(),
  webhookURL: z.string(),
  apiService: z.string().nullable(),
});
export type V1Subscription = z.infer<typeof V1Subscription>;

export const V1Success = z.looseObject({ success: z.literal(true) });
export type V1Success = z.infer<typeof V1Success>;
export const V1Created = z.looseObject({ id: z.string() });
export type V1Created = z.infer<typeof V1Created>;
export const V1TokenResponse = z.looseObject({ 'x-access-token': z.string() });

// Requests

export const V1TokenRequest = z.object({
  email: z.string().min(1),
  api_key: z.string().min(1),
  api_secret: z.string().min(1),
  api_key_name: z.string().min(1),
});
export type V1TokenRequest = z.infer<typeof V1TokenRequest>;

export const V1ListBoardsQuery = z.object({ teamId: z.string().min(1) });
export const V1ListListsQuery = z.object({ boardId: z.string().min(1) });
export const V1ListItemsQuery = z
  .object({ boardId: z.string().min(1).optional(), listId: z.string().min(1).optional() })
  .refine((query) => (query.boardId === undefined) !== (query.listId === undefined), {
    message: 'send exactly one of boardId or listId',
  });
export type V1ListItemsQuery = z.infer<typeof V1ListItemsQuery>;

export const V1CreateItemRequest = z.object({
  listId: z.string().min(1),
  title: TitleString,
  notes: NotesString.nullable().optional(),
  dueDate: DateTime.nullable().optional(),
});
export type V1CreateItemRequest = z.infer<typeof V1CreateItemRequest>;

/** The one supported mailbox provider. */
export const V1_PROVIDER_ID = 'gmail';

/** The title comes from the email; listItem.title is ignored. */
export const V1CreateFromEmailRequest = z.object({
  providerId: z.literal(V1_PROVIDER_ID, { message: `providerId must be "${V1_PROVIDER_ID}"` }),
  listId: z.string().min(1),
  messageId: HexId,
  threadId: HexId,
  archive: z.boolean().optional(),
  listItem: z
    .object({ contentType: z.enum(['task', 'sale']).optional(), title: z.string().optional() })
    .optional(),
  dueDate: DateTime.nullable().optional(),
});
export type V1CreateFromEmailRequest = z.infer<typeof V1CreateFromEmailRequest>;

export const V1ItemIdRequest = z.object({ itemId: z.string().min(1) });
export type V1ItemIdRequest = z.infer<typeof V1ItemIdRequest>;

export const V1AssignRequest = z.object({ itemId: z.string().min(1), assigneeEmail: z.string().min(1) });
export type V1AssignRequest = z.infer<typeof V1AssignRequest>;

export const V1MoveRequest = z.object({ itemId: z.string().min(1), listId: z.string().min(1) });
export type V1MoveRequest = z.infer<typeof V1MoveRequest>;

export const V1SubscribeRequest = z.object({
  email: z.string().optional(),
  action: V1Action,
  entityId: z.string().min(1),
  webhookURL: z.url({ protocol: /^https?$/, message: 'webhookURL must be an http(s) URL' }),
  apiService: z.string().optional(),
});
export type V1SubscribeRequest = z.infer<typeof V1SubscribeRequest>;

export const V1UnsubscribeRequest = z.object({ subscriptionId: z.string().min(1) });
export type V1UnsubscribeRequest = z.infer<typeof V1UnsubscribeRequest>;
