import { listField } from '../creates/fields.ts';
import { restHookTrigger, sampleItem } from './rest-hook.ts';

/** v1 action `itemCompleted`; optionally only the tasks completed in one list (checked on each delivery). */
export default restHookTrigger({
  key: 'task_completed',
  action: 'itemCompleted',
  noun: 'Task',
  label: 'Task Completed',
  description: 'Triggers when a task on a board (or in the list you choose) is marked complete.',
  sampleFilter: (item) => item.completed,
  filter: {
    inputFields: [
      listField({
        required: false,
        helpText:
          'Only tasks completed in this list of the board: pick one or map a list ID (e.g. `lst_doing`). The whole board when left empty.',
      }),
    ],
    keep: (item, input) => {
      const wanted = input.text('list_id');
      return wanted === undefined || item.listId === wanted;
    },
  },
  sample: sampleItem({ id: 'evt_0c5d2a9e7f1b4c3a', completed: true }),
});
