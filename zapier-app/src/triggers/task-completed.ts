import { restHookTrigger, sampleItem } from './rest-hook.ts';

/** v1 action `itemCompleted`. */
export default restHookTrigger({
  key: 'task_completed',
  action: 'itemCompleted',
  noun: 'Task',
  label: 'Task Completed',
  description: 'Triggers when a task on a board is marked complete.',
  sampleFilter: (item) => item.completed,
  sample: sampleItem({ id: 'evt_0c5d2a9e7f1b4c3a', completed: true }),
});
