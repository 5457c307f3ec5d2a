import { defineAction } from './define.ts';
import { boardField, teamField } from './fields.ts';
import { list } from './resources.ts';

export default defineAction({
  key: 'create_list',
  noun: 'List',
  label: 'Create List',
  description: 'Creates a list on a board.',
  inputFields: [
    teamField(),
    boardField({
      required: true,
      helpText: 'The board to add the list to (choose a team first), or map a board ID (e.g. `brd_roadmap`).',
    }),
    { key: 'name', label: 'Name', required: true, helpText: 'The list name, e.g. `Waiting on client`.' },
  ],
  resource: list,
  perform: ({ input, v2, idempotencyKey }) =>
    v2().lists.create(
      input.required('board_id'),
      { name: input.required('name') },
      { idempotencyKey: idempotencyKey() },
    ),
});
