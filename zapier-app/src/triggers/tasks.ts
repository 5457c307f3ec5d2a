import { v2Client } from '../lib/clients.ts';
import { DROPDOWN_PAGE_SIZE, dropdownTrigger, inputText } from './dropdown.ts';

/**
 * Dropdown: the tasks of the chosen list, or of the chosen board when no list is chosen, in list order; the
 * editor's own search box filters them by title, and the Find Task search step finds one by title.
 */
export default dropdownTrigger({
  key: 'tasks',
  noun: 'Task',
  label: 'New Task',
  description: 'Triggers when a task is added; lists the tasks of a list or board for dropdowns.',
  inputFields: [
    {
      key: 'board_id',
      label: 'Board',
      dynamic: 'boards.id.name',
      helpText: 'The board whose tasks to list, e.g. `brd_roadmap`.',
    },
    {
      key: 'list_id',
      label: 'List',
      dynamic: 'lists.id.name',
      helpText: 'Only the tasks of this list, e.g. `lst_todo`; wins over Board.',
    },
  ],
  load: async (z, bundle, cursor) => {
    const listId = inputText(bundle, 'list_id');
    const boardId = inputText(bundle, 'board_id');
    if (listId === undefined && boardId === undefined) {
      throw new z.errors.Error(
        'Choose a board (or a list) first: its tasks appear here. Or map a task ID, or add a Find Task search step.',
        'board_required',
        400,
      );
    }
    const scope = listId === undefined ? { board_id: boardId } : { list_id: listId };
    return (await v2Client(z, bundle)).tasks.list({ ...scope, limit: DROPDOWN_PAGE_SIZE, cursor });
  },
  toItem: (task) => ({
    id: task.id,
    title: task.title,
    list_name: task.list_name,
    completed: task.completed,
  }),
  sample: { id: 'tsk_01hq3v7c9e8f', title: 'Send Bob the roof quote', list_name: 'To do', completed: false },
  outputFields: [
    { key: 'id', label: 'Task ID' },
    { key: 'title', label: 'Title' },
    { key: 'list_name', label: 'List Name' },
    { key: 'completed', label: 'Completed' },
  ],
});
