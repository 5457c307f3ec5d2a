/**
 * One factory for the REST-hook triggers on v1 subscriptions (one trigger per v1 action). Subscribing and
 * unsubscribing mint a fresh session token first: Zapier does not retry a refresh inside unsubscribe, and a
 * hook can be switched off long after the connection's token expired. `perform` reads the delivered item
 * and makes no request; its `id` is the delivery's event id, so a task moved twice triggers twice, and the
 * task's own id is `task_id`. `performList` reads real v1 items as samples, shaped exactly as a delivery
 * (the 10 newest that match the event; a sample's `id` stands for its event, as a delivery's does).
 */
import { createHash } from 'node:crypto';
import type { V1Action, V1Item } from '@threadwork/shared';
import { EVENT_ID_HEADER, NotFoundError, V1_ACTION_TARGETS } from '@threadwork/shared/light';
import type { Bundle, Trigger, ZObject } from 'zapier-platform-core';
import { exchangeCredentials } from '../authentication.ts';
import { boardField, type InputField, Inputs, listField, teamField } from '../creates/fields.ts';
import { v1Client } from '../lib/clients.ts';
import { withZapierErrors } from '../lib/errors.ts';
import { loadShared } from '../lib/load.ts';
import { deliveryHeader } from './hook-request.ts';

/** The name the subscriptions are registered under (the service lists it as the hook's platform). */
export const API_SERVICE = 'zapier';

/** What a v1 trigger outputs: the item's fields, `id` unique per event and the task's id as `task_id`. */
export type ItemOutput = V1Item & { task_id: string };

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
];

/** Samples shown in the Zap editor: at most this many, newest first. */
export const SAMPLE_LIMIT = 10;

/** A trigger item: `id` the event's (a delivery's header, or for a sample, one standing for its event). */
export function itemOutput(item: V1Item, eventId: string): ItemOutput {
  return { ...item, id: eventId, task_id: item.id };
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
    const token = await exchangeCredentials(z, bundle);
    try {
      await (await v1Client(z, bundle, { token })).unsubscribe(target.object, subscriptionId);
    } catch (error) {
      // Already gone (deleted in the service, or by an earlier turn-off): turning the Zap off still succeeds.
      if (!(error instanceof NotFoundError)) throw error;
    }
    return {};
  });

  const perform = async (z: ZObject, bundle: Bundle) => {
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
    return [itemOutput(parsed.data, eventId)];
  };

  const performList = withZapierErrors(async (z: ZObject, bundle: Bundle) => {
    if (options.samples === 'static') return [options.sample];
    const entityId = String(bundle.inputData[entityKey] ?? '');
    const client = await v1Client(z, bundle);
    const items = await (target.entity === 'list'
      ? client.items({ listId: entityId })
      : client.items({ boardId: entityId }));
    return items
      .filter((item) => (options.sampleFilter?.(item) ?? true) && keep(item, bundle))
      .toSorted((a, b) => Date.parse(b.dateCreated) - Date.parse(a.dateCreated))
      .slice(0, SAMPLE_LIMIT)
      .map((item) => itemOutput(item, sampleEventId(options.action, item)));
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

/** A sample item (what a hook delivers), shared by the v1 triggers' samples. */
export function sampleItem(overrides: Partial<ItemOutput> = {}): ItemOutput {
  return {
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
}
