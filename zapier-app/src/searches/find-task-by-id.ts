import type { Task } from '@threadwork/shared';
import { NotFoundError } from '@threadwork/shared/light';
import { defineSearch } from '../creates/define.ts';
import { invalid, threadField } from '../creates/fields.ts';
import { task } from '../creates/resources.ts';

/**
 * Find Task by ID: the task of an ID mapped from an earlier step, or the task linked to an email thread
 * (what a "New Reply on a Thread" step needs to act on the thread's task). Gone or not visible: nothing
 * found (the Zap's "continue if nothing found" choice applies), never an error.
 */
export default defineSearch({
  key: 'find_task_by_id',
  noun: 'Task',
  label: 'Find Task by ID',
  description:
    'Finds a task by its ID, or the task linked to an email thread, with its board, list, threads and custom fields.',
  inputFields: [
    {
      key: 'task_id',
      label: 'Task ID',
      required: false,
      helpText:
        "The task's ID, e.g. `tsk_01hq3v7c9e8f`: map a trigger's Task ID or a reply's Linked Task IDs (the first one found is used). Give this or Email Thread.",
    },
    threadField({
      required: false,
      helpText:
        'Or the email thread whose linked task to find: map a Thread ID (e.g. `18c2f0a1b2c3d4e5`) from an earlier step; its first linked task is used.',
    }),
  ],
  resource: task,
  perform: async ({ input, v2 }) => {
    const client = v2();
    let ids = input.list('task_id');
    if (ids === undefined) {
      const threadId = input.text('thread_id');
      if (threadId === undefined) throw invalid('task_id', 'fill in Task ID or Email Thread');
      try {
        ids = ((await client.emailThreads.get(threadId)).linked_tasks ?? []).map((linked) => linked.id);
      } catch (error) {
        if (error instanceof NotFoundError) return [];
        throw error;
      }
    }
    for (const id of ids) {
      try {
        return [await client.tasks.get(id)] satisfies Task[];
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    return [];
  },
});
