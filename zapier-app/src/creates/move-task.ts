import { defineAction } from './define.ts';
import {
  boardField,
  defined,
  listField,
  placement,
  placementFields,
  taskField,
  teamField,
} from './fields.ts';
import { requireListOnBoard } from './list-on-board.ts';
import { task } from './resources.ts';

export default defineAction({
  key: 'move_task',
  noun: 'Task',
  label: 'Move Task to List',
  description:
    'Updates a task by moving it to another list (on any board you can reach), at the top by default.',
  inputFields: [
    teamField(),
    boardField({
      helpText:
        "The board whose tasks the Task dropdown lists and whose lists the Destination List dropdown lists (choose a team first), e.g. `brd_roadmap`. Pick another board's list by mapping its ID.",
    }),
    taskField(),
    listField({
      label: 'Destination List',
      helpText:
        'The list to move the task to (choose a team and board first), or map a list ID (e.g. `lst_doing`). Moving to its current list changes nothing.',
    }),
    ...placementFields,
  ],
  resource: task,
  perform: async (context) => {
    const { input, v2, idempotencyKey } = context;
    await requireListOnBoard(context);
    return v2().tasks.move(
      input.required('task_id'),
      defined({
        list_id: input.required('list_id'),
        ...placement(input),
      }),
      { idempotencyKey: idempotencyKey() },
    );
  },
});
