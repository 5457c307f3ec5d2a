import { restHookTrigger, sampleItem } from './rest-hook.ts';

/** v1 action `itemDeleted`. */
export default restHookTrigger({
  key: 'task_deleted',
  action: 'itemDeleted',
  noun: 'Task',
  label: 'Task Deleted',
  description: 'Triggers when a task on a board is deleted (the output is the task as it was).',
  samples: 'static',
  sample: sampleItem({ id: 'evt_0c5d2a9e7f1b4c3a' }),
});
