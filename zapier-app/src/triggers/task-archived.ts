import { restHookTrigger, sampleItem } from './rest-hook.ts';

/** v1 action `itemArchived`. */
export default restHookTrigger({
  key: 'task_archived',
  action: 'itemArchived',
  noun: 'Task',
  label: 'Task Archived',
  description: 'Triggers when a task on a board is archived.',
  samples: 'static',
  sample: sampleItem({ id: 'evt_0c5d2a9e7f1b4c3a' }),
});
