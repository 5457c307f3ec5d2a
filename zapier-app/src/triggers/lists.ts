import { v2Client } from '../lib/clients.ts';
import { DROPDOWN_PAGE_SIZE, dropdownTrigger } from './dropdown.ts';

/** Dropdown: the lists of the chosen board. */
export default dropdownTrigger({
  key: 'lists',
  noun: 'List',
  label: 'New List',
  description: 'Triggers when a list is added; lists the lists of a board for dropdowns.',
  inputFields: [
    {
      key: 'board_id',
      label: 'Board',
      dynamic: 'boards.id.name',
      required: true,
      helpText: 'The board whose lists to list, e.g. `brd_sales`.',
    },
  ],
  load: async (z, bundle, cursor) => {
    const boardId = bundle.inputData['board_id'];
    if (typeof boardId !== 'string' || boardId === '') {
      throw new z.errors.Error('Choose a board first: its lists appear here.', 'board_required', 400);
    }
    return (await v2Client(z, bundle)).lists.list(boardId, { limit: DROPDOWN_PAGE_SIZE, cursor });
  },
  toItem: (list) => ({ id: list.id, name: list.name, board_id: list.board_id }),
  sample: { id: 'lst_leads', name: 'Leads', board_id: 'brd_sales' },
  outputFields: [
    { key: 'id', label: 'List ID' },
    { key: 'name', label: 'List Name' },
    { key: 'board_id', label: 'Board ID' },
  ],
});
