import { restHookTrigger, sampleItem } from './rest-hook.ts';

/** v1 action `createOnList`. */
export default restHookTrigger({
  key: 'new_task_in_list',
  action: 'createOnList',
  noun: 'Task',
  label: 'New Task in List',
  description: 'Triggers when a task is created in a list.',
  sample: sampleItem({ id: 'evt_0c5d2a9e7f1b4c3a' }),
});
