/**
 * The instant triggers on v2 task events (`task_updated`, `task_uncompleted`): a webhook subscription per
 * Zap, narrowed to the chosen board in `perform` (v2 subscriptions filter by mailbox scope only). The output
 * is the v2 task with `id` = the event's id (so each change triggers, even of the same task) and `task_id`
 * = the task's id, which the actions take; `task_updated` adds what changed (task-changes.ts). Samples: at
 * most 10 of the board's newest tasks the event could have delivered, in the same shape; both carry each
 * custom field's name and option labels beside its ids.
 */
import type { CustomField, PreviousAttributes, Task, WebhookEvent } from '@threadwork/shared';
import type { Trigger } from 'zapier-platform-core';
import { boardField, Inputs, teamField } from '../creates/fields.ts';
import { task as taskResource } from '../creates/resources.ts';
import { readBoardFields, withFieldLabels } from '../creates/task-output.ts';
import { v2Client } from '../lib/clients.ts';
import {
  changesOutputFields,
  changesSample,
  samplePrevious,
  type TaskChanges,
  taskChanges,
} from './task-changes.ts';
import { webhookTrigger } from './webhook.ts';

/** The task (labelled as task-output.ts does) with the event's id; `task_updated` adds what changed. */
export type TaskEventOutput = Omit<Task, 'id'> & { id: string; task_id: string } & Partial<TaskChanges>;

/** One event (or sample) before its custom fields are labelled: its id, the task, what changed. */
interface TaskEvent {
  id: string;
  task: Task;
  previous?: PreviousAttributes | undefined;
}

/** Samples: at most this many of the board's newest tasks. */
const SAMPLE_COUNT = 10;

function taskEventOutput(id: string, task: Task): TaskEventOutput {
  return { ...task, id, task_id: task.id };
}

/** A sample's `id` stands for an event, as a delivery's does: never the task's own id. */
function sampleEventId(event: string, task: Task): string {
  return `evt_sample_${event.replace('.', '_')}_${task.id}`;
}

export interface TaskEventTriggerOptions {
  key: string;
  event: 'task.updated' | 'task.uncompleted';
  label: string;
  description: string;
  /** Which of the board's tasks the event could have delivered (only those are samples). */
  sampleFilter?: (task: Task) => boolean;
}

export function taskEventTrigger(options: TaskEventTriggerOptions): Trigger {
  // task.updated carries `previous_attributes`; its output says what changed.
  const withChanges = options.event === 'task.updated';
  return webhookTrigger<TaskEventOutput, TaskEvent>({
    key: options.key,
    noun: 'Task',
    label: options.label,
    description: options.description,
    event: options.event,
    inputFields: [
      teamField(),
      boardField({
        required: true,
        helpText:
          'The board to watch (choose a team first): pick one, or map a board ID, e.g. `brd_roadmap`.',
      }),
    ],
    output: (event: WebhookEvent, bundle) => {
      const { task, previous_attributes } = event.data as {
        task: Task;
        previous_attributes?: PreviousAttributes;
      };
      const boardId = new Inputs(bundle.inputData).text('board_id');
      if (boardId !== undefined && task.board_id !== boardId) return undefined;
      return { id: event.id, task, previous: previous_attributes };
    },
    performList: async (z, bundle) => {
      const boardId = new Inputs(bundle.inputData).required('board_id');
      const tasks: Task[] = [];
      for await (const task of (await v2Client(z, bundle)).tasks.list({ board_id: boardId, limit: 200 })) {
        tasks.push(task);
        if (tasks.length >= 1000) break;
      }
      return tasks
        .filter((task) => options.sampleFilter?.(task) ?? true)
        .toSorted((a, b) => Date.parse(b.created_at ?? '') - Date.parse(a.created_at ?? ''))
        .slice(0, SAMPLE_COUNT)
        .map((task) => ({
          id: sampleEventId(options.event, task),
          task,
          previous: withChanges ? samplePrevious(task) : undefined,
        }));
    },
    // As the task actions' output: each custom field's name and option labels, current and previous alike
    // (one read of each board's fields).
    complete: async (z, bundle, events) => {
      const client = await v2Client(z, bundle);
      // The boards whose previous values need names; withFieldLabels reads the other boards into the same map.
      const known = await readBoardFields(
        client,
        events
          .filter(({ previous }) => (previous?.custom_fields?.length ?? 0) > 0)
          .map(({ task }) => task.board_id),
        new Map<string, CustomField[]>(),
      );
      const tasks = await withFieldLabels(
        client,
        events.map(({ task }) => task),
        known,
      );
      return events.map(({ id, task, previous }, index) => ({
        ...taskEventOutput(id, tasks[index]!),
        ...(withChanges ? taskChanges(previous, known.get(task.board_id ?? '') ?? []) : {}),
      }));
    },
    sample: withChanges
      ? {
          ...taskEventOutput('evt_7d3a9c1e5b2f4a6c', { ...taskResource.sample, shade: 'red' }),
          ...changesSample,
        }
      : taskEventOutput('evt_7d3a9c1e5b2f4a6c', taskResource.sample),
    outputFields: [
      { key: 'id', label: 'Event ID' },
      { key: 'task_id', label: 'Task ID' },
      ...taskResource.outputFields.filter((field) => field.key !== 'id'),
      ...(withChanges ? changesOutputFields : []),
    ],
  });
}
