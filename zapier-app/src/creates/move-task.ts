import { defineAction } from './define.ts';
import {
  boardField,
  defined,
  invalid,
  listField,
  placement,
  placementFields,
  taskField,
  teamField,
} from './fields.ts';
import { listIsOnBoard, requireListOnBoard } from './list-on-board.ts';
import { task } from './resources.ts';

/**
 * A move to a list of another board drops the task's custom field values (each board has its own fields)
 * and moving it back does not restore them: such a move runs only when the user chose that board in Board.
 * With Board empty, the destination must be a list of the task's own board (one read of the task, one of
 * its board's lists); with Board chosen, a list of that board (requireListOnBoard).
 */
export default defineAction({
  key: 'move_task',
  noun: 'Task',
  label: 'Move Task to List',
  description:
    "Updates a task by moving it to another list, at the top by default; to another board's list only when you choose that board.",
  inputFields: [
    teamField(),
    boardField({
      helpText:
        'The board whose tasks the Task dropdown lists and whose lists the Destination List dropdown lists (choose a team first), e.g. `brd_roadmap`. To move a task to another board, choose that board here and pick the list from it: the move is refused otherwise.',
    }),
    taskField(),
    listField({
      label: 'Destination List',
      helpText:
        "The list to move the task to (choose a team and board first), or map a list ID (e.g. `lst_doing`). A list of another board than the task's is refused unless you choose that board in Board: on another board the task loses its custom field values (each board has its own fields), and moving it back does not restore them. Moving to its current list changes nothing.",
    }),
    ...placementFields,
  ],
  resource: task,
  perform: async (context) => {
    const { input, v2, idempotencyKey } = context;
    const taskId = input.required('task_id');
    const listId = input.required('list_id');
    if (input.text('board_id') !== undefined) {
      await requireListOnBoard(context);
    } else {
      const current = await v2().tasks.get(taskId);
      if (current.board_id !== null && !(await listIsOnBoard(v2(), current.board_id, listId))) {
        const board = current.board_name === null ? `\`${current.board_id}\`` : `"${current.board_name}"`;
        throw invalid(
          'list_id',
          `\`${listId}\` is not a list of the task's board ${board}. Moving the task to another board would drop its custom field values, and moving it back would not restore them: to move it there anyway, choose that board in Board and pick this list from it.`,
        );
      }
    }
    return v2().tasks.move(taskId, defined({ list_id: listId, ...placement(input) }), {
      idempotencyKey: idempotencyKey(),
    });
  },
});
