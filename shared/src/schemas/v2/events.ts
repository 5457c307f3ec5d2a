import { z } from 'zod';
import { DateTime } from '../common.ts';
import { EmailMessage, EmailThread, LinkedTask } from './email.ts';
import { Task } from './tasks.ts';
import { EVENT_TYPES } from './webhooks.ts';

function event<const T extends string, D extends z.ZodType>(type: T, data: D) {
  return z.looseObject({ id: z.string(), type: z.literal(type), created_at: DateTime, data });
}

const TaskData = z.looseObject({ task: Task });

/**
 * What a task.updated changed (Stripe's `previous_attributes`): each field of the Task that changed, with
 * its value before; fields that did not change are absent. `custom_fields` lists only the custom fields
 * that changed, each with its value before (null: it had none). A write that changes nothing records no
 * event, so it is never empty (docs/webhooks.md).
 */
export const PreviousAttributes = Task.partial().meta({
  description:
    'Each Task field that changed, with its value before; `custom_fields` lists only the fields that ' +
    'changed, each with its value before (null: it had none).',
});
export type PreviousAttributes = z.infer<typeof PreviousAttributes>;

export const TaskCreatedEvent = event('task.created', TaskData);
/**
 * `previous_attributes` is always sent by this service; a receiver still parses an event without it (one
 * recorded before it existed, or another server's).
 */
export const TaskUpdatedEvent = event(
  'task.updated',
  TaskData.extend({ previous_attributes: PreviousAttributes.optional() }),
);
export const TaskCompletedEvent = event('task.completed', TaskData);
export const TaskUncompletedEvent = event('task.uncompleted', TaskData);
export const TaskAssignedEvent = event('task.assigned', TaskData);
export const TaskMovedEvent = event(
  'task.moved',
  TaskData.extend({ from_list_id: z.string(), to_list_id: z.string() }),
);
export const TaskArchivedEvent = event('task.archived', TaskData);
/** The task as it was just before it was deleted. */
export const TaskDeletedEvent = event('task.deleted', TaskData);
/** The thread and the new message, without bodies; the tasks linked to the thread. */
export const ThreadReplyReceivedEvent = event(
  'thread.reply_received',
  z.looseObject({ thread: EmailThread, message: EmailMessage, linked_tasks: z.array(LinkedTask) }),
);
export const WebhookTestEvent = event('webhook.test', z.looseObject({ subscription_id: z.string() }));

export const KnownWebhookEvent = z.discriminatedUnion('type', [
  TaskCreatedEvent,
  TaskUpdatedEvent,
  TaskCompletedEvent,
  TaskUncompletedEvent,
  TaskAssignedEvent,
  TaskMovedEvent,
  TaskArchivedEvent,
  TaskDeletedEvent,
  ThreadReplyReceivedEvent,
  WebhookTestEvent,
]);
export type KnownWebhookEvent = z.infer<typeof KnownWebhookEvent>;

const knownTypes: readonly string[] = EVENT_TYPES;

/**
 * An event type this client does not know yet: kept, with its data untyped, instead of rejected. A known type
 * never parses here: it is reported with what its own schema finds wrong in its data, so that a known event
 * with bad data says which field is at fault (this branch's issues are the ones `WebhookEvent` reports).
 */
export const UnknownWebhookEvent = z
  .looseObject({
    id: z.string(),
    type: z.string(),
    created_at: DateTime,
    data: z.record(z.string(), z.unknown()),
  })
  .superRefine((event, ctx) => {
    if (!knownTypes.includes(event.type)) return;
    const known = KnownWebhookEvent.safeParse(event);
    // Issues outside `data` concern the envelope, which the object above has already reported.
    const dataIssues = known.success ? [] : known.error.issues.filter((issue) => issue.path[0] === 'data');
    if (dataIssues.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: 'is a known event type' });
    }
    for (const issue of dataIssues) ctx.addIssue({ ...issue, path: [...issue.path] });
  });

export const WebhookEvent = z.union([KnownWebhookEvent, UnknownWebhookEvent]);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** The data each known event type carries. */
export type EventData<T extends KnownWebhookEvent['type']> = Extract<KnownWebhookEvent, { type: T }>['data'];
