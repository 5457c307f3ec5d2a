import { restHookTrigger, sampleItem } from './rest-hook.ts';

/** v1 action `itemDeleted`. */
export default restHookTrigger({
  key: 'task_deleted',
  action: 'itemDeleted',
  noun: 'Task',
  label: 'Task Deleted',
  description: 'Triggers when a task on a board is deleted (the output is the task as it was).',
  samples: 'static',
  taskGone: true,
  // The task is gone when the event arrives: the keys the task's v2 view would add are empty.
  sample: sampleItem({
    id: 'evt_0c5d2a9e7f1b4c3a',
    thread_ids: [],
    first_thread_id: null,
    board_name: null,
    list_name: null,
    custom_fields: [],
  }),
});
