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
  threadField,
} from './fields.ts';
import { requireListOnBoard } from './list-on-board.ts';
import { task } from './resources.ts';

export default defineAction({
  key: 'create_task_from_thread',
  noun: 'Task',
  label: 'Create Task From Email Thread',
  description:
    'Creates a task from a mailbox thread, linked to it, titled with its subject unless you give a title.',
  inputFields: [
    teamField(),
    boardField(),
    listField(),
    threadField(),
    {
      key: 'title',
      label: 'Title',
      required: false,
      helpText: "Leave empty to use the email's subject, or give a title, e.g. `Reply to Bob's quote`.",
    },
    {
      key: 'archive',
      label: 'Archive the Thread',
      type: 'boolean',
      required: false,
      default: 'false',
      helpText: 'Yes also archives the thread in the mailbox (it leaves the Inbox), e.g. `yes`.',
    },
    notesField('Quote attached in the thread.'),
    dueAtField('tomorrow noon'),
    ...placementFields,
  ],
  resource: task,
  perform: async (context) => {
    const { input, v2, idempotencyKey } = context;
    await requireListOnBoard(context);
    return v2().tasks.create(
      defined({
        list_id: input.required('list_id'),
        thread_id: input.required('thread_id'),
        title: input.text('title'),
        archive: input.boolean('archive'),
        notes: input.body('notes'),
        due_at: input.datetime('due_at'),
        ...placement(input),
      }),
      { idempotencyKey: idempotencyKey() },
    );
  },
});
