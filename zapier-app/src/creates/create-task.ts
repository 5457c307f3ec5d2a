import { defineAction } from './define.ts';
import {
  boardField,
  defined,
  dueAtField,
  listField,
  notesField,
  placement,
  placementFields,
  teamField,
} from './fields.ts';
import { requireListOnBoard } from './list-on-board.ts';
import { task } from './resources.ts';

export default defineAction({
  key: 'create_task',
  noun: 'Task',
  label: 'Create Task',
  description: 'Creates a task in a list.',
  inputFields: [
    teamField(),
    boardField(),
    listField(),
    {
      key: 'title',
      label: 'Title',
      required: true,
      helpText: 'The task title, e.g. `Call Bob about the quote`.',
    },
    notesField('He asked for it by Friday.'),
    dueAtField('next Friday 5pm'),
    ...placementFields,
  ],
  resource: task,
  perform: async (context) => {
    const { input, v2, idempotencyKey } = context;
    await requireListOnBoard(context);
    return v2().tasks.create(
      defined({
        list_id: input.required('list_id'),
        title: input.required('title'),
        notes: input.body('notes'),
        due_at: input.datetime('due_at'),
        ...placement(input),
      }),
      { idempotencyKey: idempotencyKey() },
    );
  },
});
