import { restHookTrigger, sampleItem } from './rest-hook.ts';

/** v1 action `createOnBoard`. */
export default restHookTrigger({
  key: 'new_task_on_board',
  action: 'createOnBoard',
  noun: 'Task',
  label: 'New Task on Board',
  description: 'Triggers when a task is created anywhere on a board.',
  sample: sampleItem({ id: 'evt_0c5d2a9e7f1b4c3a' }),
});
