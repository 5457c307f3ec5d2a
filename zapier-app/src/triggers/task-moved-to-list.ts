import { restHookTrigger, sampleItem } from './rest-hook.ts';

/** v1 action `movedToList`. */
export default restHookTrigger({
  key: 'task_moved_to_list',
  action: 'movedToList',
  noun: 'Task',
  label: 'Task Moved to List',
  description: 'Triggers when a task is moved into a list (each move triggers, even of the same task).',
  sample: sampleItem({ id: 'evt_0c5d2a9e7f1b4c3a', listId: 'lst_won', listName: 'Won' }),
});
