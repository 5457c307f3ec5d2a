import { restHookTrigger, sampleItem } from './rest-hook.ts';

/** v1 action `assignedTo`. */
export default restHookTrigger({
  key: 'task_assigned',
  action: 'assignedTo',
  noun: 'Task',
  label: 'Task Assigned',
  description: 'Triggers when a task on a board is assigned to someone.',
  sampleFilter: (item) => item.assignedToEmail !== '',
  sample: sampleItem({ id: 'evt_0c5d2a9e7f1b4c3a' }),
});
