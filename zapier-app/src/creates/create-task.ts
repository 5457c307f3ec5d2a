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
import { customFieldInputs, customFieldValues, explainFieldError } from './set-custom-fields.ts';
import { withFieldLabels } from './task-output.ts';

export default defineAction({
  key: 'create_task',
  noun: 'Task',
  label: 'Create Task',
  description: 'Creates a task in a list, with the custom field values of its board.',
  inputFields: [
    teamField(),
    boardField({
      altersDynamicFields: true,
      helpText:
        'The board whose lists to choose from and whose custom fields appear below (choose a team first), or map a board ID (e.g. `brd_roadmap`).',
    }),
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
    customFieldInputs('Leave empty to leave it unset.'),
  ],
  resource: task,
  // The v2 create takes no custom fields: they are set on the new task right after, under their own key.
  // They are read (and checked against the board) before anything is written.
  perform: async (context) => {
    const { bundle, input, v2, idempotencyKey, done } = context;
    await requireListOnBoard(context);
    const client = v2();
    const { values, read } = await customFieldValues(bundle, input, client, () => input.required('board_id'));
    const created = await client.tasks.create(
      defined({
        list_id: input.required('list_id'),
        title: input.required('title'),
        notes: input.body('notes'),
        due_at: input.datetime('due_at'),
        ...placement(input),
      }),
      { idempotencyKey: idempotencyKey() },
    );
    if (values.length === 0) return created;
    done(`created the task "${created.title}" (${created.id}) without its custom field values`);
    const updated = await client.tasks
      .update(created.id, { custom_fields: values }, { idempotencyKey: idempotencyKey('custom_fields') })
      .catch((error: unknown) => {
        throw explainFieldError(error, values);
      });
    // The board's fields, when read above, also give the option labels of the answer.
    const known =
      read === undefined || updated.board_id === null ? undefined : new Map([[updated.board_id, read]]);
    return (await withFieldLabels(client, [updated], known))[0] ?? updated;
  },
});
