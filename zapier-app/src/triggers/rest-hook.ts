/**
 * One factory for the REST-hook triggers on v1 subscriptions (one trigger per v1 action). Subscribing and
 * unsubscribing mint a fresh session token first: Zapier does not retry a refresh inside unsubscribe, and a
 * hook can be switched off long after the connection's token expired. `perform` reads the delivered item;
 * its `id` is the delivery's event id, so a task moved twice triggers twice, and the task's own id is
 * `task_id`. The frozen v1 item lacks what later steps need (the task's threads, its labelled custom
 * fields), so `perform` adds them from the task's v2 view (`GET /v2/tasks/{id}`; `itemExtras`): a task
 * gone since keeps the v1 fields alone, the added keys empty. `performList` reads real v1 items as samples,
 * shaped exactly as a delivery, extras included (the 10 newest that match the event; a sample's `id`
 * stands for its event, as a delivery's does).
 */
import { createHash } from 'node:crypto';
import type { Task, ThreadworkClient, V1Action, V1Item } from '@threadwork/shared';
import { EVENT_ID_HEADER, NotFoundError, V1_ACTION_TARGETS } from '@threadwork/shared/light';
import type { Bundle, Trigger, ZObject } from 'zapier-platform-core';
import { exchangeCredentials, tokenToUnsubscribe } from '../authentication.ts';
import { boardField, type InputField, Inputs, listField, teamField } from '../creates/fields.ts';
import { type ItemExtras, itemExtras, type TaskOutput, withFieldLabels } from '../creates/task-output.ts';
import { clientsFor, v1Client } from '../lib/clients.ts';
import { withZapierErrors } from '../lib/errors.ts';
import { loadShared } from '../lib/load.ts';
import { deliveryHeader } from './hook-request.ts';

/** The name the subscriptions are registered under (the service lists it as the hook's platform). */
export const API_SERVICE = 'zapier';

/**
 * What a v1 trigger outputs: the item's fields, `id` unique per event and the task's id as `task_id`, and
 * what the task's v2 view adds (`ItemExtras`).
 */
export type ItemOutput = V1Item & { task_id: string } & ItemExtras;

export interface RestHookTriggerOptions {
  key: string;
  action: V1Action;
  noun: string;
  label: string;
  /** Begins "Triggers when". */
  description: string;
  /** Which items the event could have delivered (only those are samples). */
  sampleFilter?: (item: V1Item) => boolean;
  /**
   * `static`: the API lists no item this event delivers (archived and deleted tasks are never listed), so
   * the sample is the static one rather than a live task that was not archived or deleted.
   */
  samples?: 'live' | 'static';
  /** The event is the task's deletion: it is gone, so `perform` reads nothing (the added keys are empty). */
  taskGone?: boolean;
  /**
   * A narrowing the user may choose (v1 subscriptions take no filter, so it applies to each delivery): its
   * input fields, and whether an item passes; an item that does not pass triggers nothing.
   */
  filter?: { inputFields: InputField[]; keep: (item: V1Item, input: Inputs) => boolean };
  sample: ItemOutput;
}

export const itemOutputFields = [
  { key: 'id', label: 'Event ID' },
  { key: 'task_id', label: 'Task ID' },
  { key: 'title', label: 'Title' },
  { key: 'notes', label: 'Notes' },
  { key: 'boardId', label: 'Board ID' },
  { key: 'boardName', label: 'Board Name' },
  { key: 'listId', label: 'List ID' },
  { key: 'listName', label: 'List Name' },
  { key: 'dateCreated', label: 'Created At', type: 'datetime' },
  { key: 'dueDate', label: 'Due Date', type: 'datetime' },
  { key: 'completed', label: 'Completed', type: 'boolean' },
  { key: 'assignedTo', label: 'Assignee Name' },
  { key: 'assignedToEmail', label: 'Assignee Email' },
  { key: 'firstThread__title', label: 'First Email Subject' },
  { key: 'firstThread__from', label: 'First Email From' },
  { key: 'firstThread__received', label: 'First Email Received At', type: 'datetime' },
  { key: 'thread_ids', label: 'Linked Thread IDs' },
  { key: 'first_thread_id', label: 'First Thread ID' },
  { key: 'board_name', label: 'Current Board Name' },
  { key: 'list_name', label: 'Current List Name' },
  { key: 'custom_fields[]field_id', label: 'Custom Field IDs' },
  { key: 'custom_fields[]name', label: 'Custom Field Names' },
  { key: 'custom_fields[]value', label: 'Custom Field Values' },
  { key: 'custom_fields[]labels', label: 'Custom Field Option Labels' },
];

/** Samples shown in the Zap editor: at most this many, newest first. */
export const SAMPLE_LIMIT = 10;

/** A trigger item: `id` the event's (a delivery's header, or for a sample, one standing for its event). */
export function itemOutput(item: V1Item, eventId: string, task?: TaskOutput): ItemOutput {
  return { ...item, id: eventId, task_id: item.id, ...itemExtras(task) };
}

/** The v2 view of each task, labelled as every task output is; a task gone (404) is left out. */
async function tasksOf(
  client: ThreadworkClient,
  ids: string[],
  known: Task[] = [],
): Promise<Map<string, TaskOutput>> {
  const found = new Map(known.filter((task) => ids.includes(task.id)).map((task) => [task.id, task]));
  for (const id of ids) {
    if (found.has(id)) continue;
    try {
      found.set(id, await client.tasks.get(id));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  const labelled = await withFieldLabels(client, [...found.values()]);
  return new Map(labelled.map((task) => [task.id, task]));
}

/** A sample's event id: stable for one event of one task, never the task's own id (that is `task_id`). */
export function sampleEventId(action: string, item: V1Item): string {
  const digest = createHash('sha256').update(`${action}:${item.id}:${item.listId}:${item.assignedToEmail}`);
  return `evt_sample_${digest.digest('hex').slice(0, 16)}`;
}

export function restHookTrigger(options: RestHookTriggerOptions): Trigger {
  const target = V1_ACTION_TARGETS[options.action];
  const entityKey = target.entity === 'list' ? 'list_id' : 'board_id';
  const entityFields =
    target.entity === 'list'
      ? [
          teamField({ required: false }),
          boardField({ required: false }),
          listField({
            required: true,
            helpText: 'The list to watch: pick one, or map a list ID, e.g. `lst_leads`.',
          }),
        ]
      : [
          teamField({ required: false }),
          boardField({
            required: true,
            helpText:
              'The board to watch (choose a team first): pick one, or map a board ID, e.g. `brd_sales`.',
          }),
        ];
  const inputFields = [...entityFields, ...(options.filter?.inputFields ?? [])];
  const keep = (item: V1Item, bundle: Bundle) =>
    options.filter === undefined || options.filter.keep(item, new Inputs(bundle.inputData));

  const performSubscribe = withZapierErrors(async (z: ZObject, bundle: Bundle) => {
    const token = await exchangeCredentials(z, bundle);
    return (await v1Client(z, bundle, { token })).subscribe(target.object, {
      email: String(bundle.authData['email'] ?? ''),
      action: options.action,
      entityId: String(bundle.inputData[entityKey] ?? ''),
      webhookURL: bundle.targetUrl ?? '',
      apiService: API_SERVICE,
    });
  });

  const performUnsubscribe = withZapierErrors(async (z: ZObject, bundle: Bundle) => {
    const subscriptionId = bundle.subscribeData?.id;
    if (subscriptionId === undefined) return {};
    const token = await tokenToUnsubscribe(z, bundle);
    if (token === undefined) return {};
    try {
      await (await v1Client(z, bundle, { token })).unsubscribe(target.object, subscriptionId);
    } catch (error) {
      // Already gone (deleted in the service, or by an earlier turn-off): turning the Zap off still succeeds.
      if (!(error instanceof NotFoundError)) throw error;
    }
    return {};
  });

  const perform = withZapierErrors(async (z: ZObject, bundle: Bundle) => {
    const { V1Item } = await loadShared();
    const parsed = V1Item.safeParse(bundle.cleanedRequest);
    if (!parsed.success) {
      throw new z.errors.Error(
        'The delivery is not a task from the service; it was ignored.',
        'invalid_delivery',
        400,
      );
    }
    if (!keep(parsed.data, bundle)) return [];
    const eventId =
      deliveryHeader(bundle, EVENT_ID_HEADER) ??
      z.hash('sha256', bundle.rawRequest?.content ?? JSON.stringify(bundle.cleanedRequest));
    const item = parsed.data;
    const task = options.taskGone
      ? undefined
      : (await tasksOf((await clientsFor(z, bundle)).v2(), [item.id])).get(item.id);
    return [itemOutput(item, eventId, task)];
  });

  const performList = withZapierErrors(async (z: ZObject, bundle: Bundle) => {
    if (options.samples === 'static') return [options.sample];
    const entityId = String(bundle.inputData[entityKey] ?? '');
    const clients = await clientsFor(z, bundle);
    const v1 = clients.v1();
    const items = await (target.entity === 'list'
      ? v1.items({ listId: entityId })
      : v1.items({ boardId: entityId }));
    const samples = items
      .filter((item) => (options.sampleFilter?.(item) ?? true) && keep(item, bundle))
      .toSorted((a, b) => Date.parse(b.dateCreated) - Date.parse(a.dateCreated))
      .slice(0, SAMPLE_LIMIT);
    if (samples.length === 0) return [];
    // The samples' v2 views: one page of the list's (or board's) tasks holds them as a rule.
    const v2 = clients.v2();
    const page = await v2.tasks.list({ [entityKey]: entityId, limit: 200 });
    const tasks = await tasksOf(
      v2,
      samples.map((item) => item.id),
      page.data,
    );
    return samples.map((item) => itemOutput(item, sampleEventId(options.action, item), tasks.get(item.id)));
  });

  return {
    key: options.key,
    noun: options.noun,
    display: { label: options.label, description: options.description },
    operation: {
      type: 'hook',
      inputFields,
      performSubscribe,
      performUnsubscribe,
      perform,
      performList,
      sample: options.sample,
      outputFields: itemOutputFields,
    },
  } as Trigger;
}

/** A sample item (what a hook delivers, with its extras), shared by the v1 triggers' samples. */
export function sampleItem(overrides: Partial<ItemOutput> = {}): ItemOutput {
  const item = {
    id: 'tsk_65a1f0c2d3e4b5a6c7d8e9f0',
    task_id: 'tsk_65a1f0c2d3e4b5a6c7d8e9f0',
    title: 'Call Bob about the quote',
    boardName: 'Pipeline',
    boardId: 'brd_sales',
    listName: 'Leads',
    listId: 'lst_leads',
    dateCreated: '2026-01-05T10:00:00.000Z',
    dueDate: '2026-01-09T17:00:00.000Z',
    notes: 'He asked for the annual plan.',
    firstThread: { title: 'Quote', received: '2026-01-05T09:00:00.000Z', from: 'bob@stone.test' },
    completed: false,
    assignedTo: 'Ada Lovelace',
    assignedToEmail: 'ada@example.com',
    ...overrides,
  };
  return {
    thread_ids: ['18c2f0a1b2c3d4e5'],
    first_thread_id: '18c2f0a1b2c3d4e5',
    board_name: item.boardName,
    list_name: item.listName,
    custom_fields: [{ field_id: 'cf_priority', value: ['opt_high'], name: 'Priority', labels: ['High'] }],
    ...item,
  };
}
