import { v2Client } from '../lib/clients.ts';
import { DROPDOWN_PAGE_SIZE, dropdownTrigger, inputText } from './dropdown.ts';

/**
 * Dropdown: the members of the chosen board, who a task of it may be assigned to. Without a board, the
 * chosen task's board (the one read the task costs is worth a picker that works from the task alone).
 */
export default dropdownTrigger({
  key: 'members',
  noun: 'Member',
  label: 'New Board Member',
  description: 'Triggers when a member joins a board; lists the members of a board for dropdowns.',
  inputFields: [
    {
      key: 'board_id',
      label: 'Board',
      dynamic: 'boards.id.name',
      helpText: 'The board whose members to list, e.g. `brd_roadmap`.',
    },
  ],
  load: async (z, bundle, cursor) => {
    const client = await v2Client(z, bundle);
    const taskId = inputText(bundle, 'task_id');
    const boardId =
      inputText(bundle, 'board_id') ??
      (taskId === undefined ? undefined : ((await client.tasks.get(taskId)).board_id ?? undefined));
    if (boardId === undefined) {
      throw new z.errors.Error(
        'Choose a board or a task first: the members of its board appear here. Or map an email.',
        'board_required',
        400,
      );
    }
    return client.boards.members(boardId, { limit: DROPDOWN_PAGE_SIZE, cursor });
  },
  toItem: (member) => ({
    id: member.user_id,
    email: member.email,
    display_name: member.display_name ?? member.email,
  }),
  sample: { id: 'usr_bob', email: 'bob@example.com', display_name: 'Bob Stone' },
  outputFields: [
    { key: 'id', label: 'User ID' },
    { key: 'email', label: 'Email' },
    { key: 'display_name', label: 'Name' },
  ],
});
